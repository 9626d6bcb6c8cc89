// Quantity strings to the scheduler's integer amounts (cpu millicores, everything else Value()),
// parsed once per distinct string: node allocatable repeats the same few values.
import { parseQuantity, quantityMilliValue, quantityValue } from '../core/index.ts';

const cache = new Map<string, number>();

export function resourceAmountOf(name: string, q: string): number {
  const key = name === 'cpu' ? `m:${q}` : q;
  let v = cache.get(key);
  if (v === undefined) {
    const p = parseQuantity(q);
    v = p ? (name === 'cpu' ? quantityMilliValue(p) : quantityValue(p)) : 0;
    if (cache.size > 10_000) cache.clear();
    cache.set(key, v);
  }
  return v;
}
