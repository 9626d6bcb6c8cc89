// Quantity strings to exact integers for resource arithmetic: cpu in millicores (MilliValue), everything else
// in whole units rounded up (Value()), as the scheduler's Resource struct keeps them. Parses are cached because
// the same few strings ("100m", "1Gi") recur across every pod on the scheduler's hot path.
// Upstream: apimachinery/pkg/api/resource/quantity.go (ParseQuantity, Value, MilliValue).
// Private to api/core/v1: swap for core/quantity.ts once it exists.

// Upstream's error text when a string is not a quantity.
export const quantityFormatMessage = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const quantityRe = /^([+-]?)(\d+\.?\d*|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;
const decimalSuffix: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffix: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** Exact rational parse: sign * digits * 10^exp10 * 2^exp2. Undefined when not a quantity. */
interface Parsed {
  negative: boolean;
  digits: bigint;
  exp10: number;
  exp2: number;
}

function parse(q: string): Parsed | undefined {
  const m = quantityRe.exec(q);
  if (!m) return undefined;
  const num = m[2] ?? '';
  const dot = num.indexOf('.');
  const intPart = dot < 0 ? num : num.slice(0, dot);
  const frac = dot < 0 ? '' : num.slice(dot + 1);
  let exp10 = -frac.length;
  let exp2 = 0;
  const suffix = m[3];
  if (suffix !== undefined) {
    const b = binarySuffix[suffix];
    if (b !== undefined) exp2 = b;
    else exp10 += decimalSuffix[suffix] ?? 0;
  } else if (m[4] !== undefined) {
    exp10 += Number(m[4]);
  }
  return { negative: m[1] === '-', digits: BigInt((intPart + frac) || '0'), exp10, exp2 };
}

export function isQuantity(q: string): boolean {
  return quantityRe.test(q);
}

const cache = new Map<string, number>();
const cacheMilli = new Map<string, number>();

/** ceil(q * 10^scale) as a number; NaN when q is not a quantity. */
function scaled(q: string, scale: number): number {
  const p = parse(q);
  if (!p) return Number.NaN;
  let n = p.digits << BigInt(p.exp2);
  const e = p.exp10 + scale;
  if (e >= 0) {
    n *= 10n ** BigInt(e);
  } else {
    const d = 10n ** BigInt(-e);
    // Rounding up away from zero on the magnitude, like Quantity.Value/MilliValue for positive amounts.
    n = (n + d - 1n) / d;
  }
  return Number(p.negative ? -n : n);
}

/** Value() of a quantity: whole units, rounded up. NaN for a malformed string. */
export function quantityValue(q: string): number {
  let v = cache.get(q);
  if (v === undefined) {
    v = scaled(q, 0);
    if (cache.size > 10_000) cache.clear();
    cache.set(q, v);
  }
  return v;
}

/** MilliValue() of a quantity. NaN for a malformed string. */
export function quantityMilliValue(q: string): number {
  let v = cacheMilli.get(q);
  if (v === undefined) {
    v = scaled(q, 3);
    if (cacheMilli.size > 10_000) cacheMilli.clear();
    cacheMilli.set(q, v);
  }
  return v;
}

/** The amount the scheduler tracks for a resource: millicores for cpu, Value() for the rest. */
export function resourceAmount(name: string, q: string): number {
  return name === 'cpu' ? quantityMilliValue(q) : quantityValue(q);
}

/** Exact comparison of two quantity strings (-1, 0, 1); undefined if either is malformed. */
export function compareQuantities(a: string, b: string): number | undefined {
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return undefined;
  const [na, nb] = toCommon(pa, pb);
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** True when the quantity is a whole number of units (extended resources must be). */
export function isWholeQuantity(q: string): boolean {
  const p = parse(q);
  if (!p) return false;
  if (p.exp10 >= 0) return true;
  const n = p.digits << BigInt(p.exp2);
  return n % 10n ** BigInt(-p.exp10) === 0n;
}

export function isNegativeQuantity(q: string): boolean {
  const p = parse(q);
  return p !== undefined && p.negative && p.digits !== 0n;
}

function toCommon(a: Parsed, b: Parsed): [bigint, bigint] {
  const e10 = Math.min(a.exp10, b.exp10);
  const e2 = Math.min(a.exp2, b.exp2);
  const f = (p: Parsed): bigint => {
    const v = (p.digits << BigInt(p.exp2 - e2)) * 10n ** BigInt(p.exp10 - e10);
    return p.negative ? -v : v;
  };
  return [f(a), f(b)];
}

/** Canonical-ish rendering of millicores or units, enough for messages and table cells. */
export function formatAmount(name: string, amount: number): string {
  if (name === 'cpu') return amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
  return String(amount);
}
