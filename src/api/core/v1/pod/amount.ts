// Quantity strings to numbers for resource arithmetic: cpu in millicores (MilliValue), everything else in
// whole units rounded up (Value()), as the scheduler's Resource struct keeps them. Parses go through
// core/quantity once per distinct string: the same few ("100m", "1Gi") recur on the scheduler's hot path.
import { compareQuantities as compareParsed, parseQuantity, quantityMilliValue, quantityValue as valueOf } from '../../../../core/index.ts';

const cache = new Map<string, number>();
const cacheMilli = new Map<string, number>();
const cacheLimit = 10_000;

/** Value(): whole units, rounded up. NaN for a malformed string. */
export function quantityValue(q: string): number {
  let v = cache.get(q);
  if (v === undefined) {
    const p = parseQuantity(q);
    v = p ? valueOf(p) : Number.NaN;
    if (cache.size > cacheLimit) cache.clear();
    cache.set(q, v);
  }
  return v;
}

/** MilliValue(). NaN for a malformed string. */
export function quantityMilli(q: string): number {
  let v = cacheMilli.get(q);
  if (v === undefined) {
    const p = parseQuantity(q);
    v = p ? quantityMilliValue(p) : Number.NaN;
    if (cacheMilli.size > cacheLimit) cacheMilli.clear();
    cacheMilli.set(q, v);
  }
  return v;
}

/** The amount the scheduler tracks for a resource: millicores for cpu, Value() for the rest. */
export function resourceAmount(name: string, q: string): number {
  return name === 'cpu' ? quantityMilli(q) : quantityValue(q);
}

/** Exact comparison of two quantity strings; undefined if either is malformed. */
export function compareQuantityText(a: string, b: string): -1 | 0 | 1 | undefined {
  const pa = parseQuantity(a);
  const pb = parseQuantity(b);
  return pa && pb ? compareParsed(pa, pb) : undefined;
}
