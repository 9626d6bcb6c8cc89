// Resource quantities ("100m", "1.5Gi", "1e3"): parsed once into exact integers, formatted the
// way upstream's Quantity.String() does. Upstream: apimachinery/pkg/api/resource/quantity.go,
// amount.go, suffix.go.
import { lookupTable } from './own-keys.ts';

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/**
 * An exact quantity. Upstream keeps every parsed value as a whole number of nano-units
 * (it rounds finer input up, away from zero, to 1n), and so does this:
 * - `milli` is value×1000 rounded up away from zero, i.e. upstream's MilliValue();
 *   exact whenever the value has no sub-milli digits, which is every CPU request in practice.
 * - `nano` is value×10^9, present only when `milli` is not exact (e.g. "1500000n" CPU usage,
 *   "0.1m"). When absent, nano = milli×10^6.
 * Build values with the functions below rather than by hand so the two fields agree.
 */
export interface Quantity {
  readonly milli: bigint;
  readonly format: QuantityFormat;
  readonly nano?: bigint;
}

export const quantityErrorMessage =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const quantitySuffixErrorMessage = "unable to parse quantity's suffix";

const NANO = 1_000_000_000n;
const MAX_INT64 = 9_223_372_036_854_775_807n;
// Upstream accepts any int32 exponent; we stop at 10^1000 so "1e999999999" cannot allocate a
// billion-digit bigint. Negative exponents of any size still parse (they round up to 1n).
const MAX_POSITIVE_EXPONENT = 1000;

const decimalSuffixes: Readonly<Record<string, number>> = lookupTable({ n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 });
const binarySuffixes: Readonly<Record<string, number>> = lookupTable({ Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 });
const decimalSuffixByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binarySuffixByExponent = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/** away-from-zero division, the direction upstream rounds in when it loses precision */
function divideAway(n: bigint, d: bigint): bigint {
  const q = n / d;
  if (q * d === n) return q;
  return n < 0n ? q - 1n : q + 1n;
}

function pow10(e: number): bigint {
  return 10n ** BigInt(e);
}

interface Scanned {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

// A port of parseQuantityString: which inputs it accepts ("1.", ".5", "+", "1.G") is the contract.
function scan(str: string): Scanned | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  pos = i;
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && 'eEinumkKMGTP'.includes(str[pos] ?? '')) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return undefined;
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

function interpretSuffix(s: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const dec = decimalSuffixes[s];
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = binarySuffixes[s];
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E')) {
    if (!/^[+-]?[0-9]+$/.test(s.slice(1))) return undefined;
    const exponent = Number(s.slice(1));
    if (Math.abs(exponent) > 2147483647) return undefined;
    return { base: 10, exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

type ParseResult = { ok: true; quantity: Quantity; canonicalInput: boolean } | { ok: false; message: string };

// Pods, nodes and claims repeat a handful of texts ("100m", "128Mi") and every write parses them
// several times (defaults, validation, QoS). Parsing is pure, so results are shared, frozen, from a
// small cache of short texts.
const parsedTexts = new Map<string, ParseResult>();
const maxCachedText = 64;

function parseDetailed(text: string): ParseResult {
  if (typeof text !== 'string' || text.length > maxCachedText) return parseText(text);
  let r = parsedTexts.get(text);
  if (r === undefined) {
    r = parseText(text);
    if (r.ok) Object.freeze(r.quantity);
    Object.freeze(r);
    if (parsedTexts.size >= 1024) parsedTexts.clear();
    parsedTexts.set(text, r);
  }
  return r;
}

function parseText(text: string): ParseResult {
  // Values from untyped JSON may be numbers or worse; a non-string is simply not a quantity here.
  if (typeof text !== 'string' || text === '') return { ok: false, message: quantityErrorMessage };
  if (text === '0') return { ok: true, quantity: quantityFromNano(0n, 'DecimalSI'), canonicalInput: true };
  const s = scan(text);
  if (!s) return { ok: false, message: quantityErrorMessage };
  const suffix = interpretSuffix(s.suffix);
  if (!suffix) return { ok: false, message: quantitySuffixErrorMessage };
  let { format } = suffix;
  const { base, exponent } = suffix;
  if (base === 10 && exponent > MAX_POSITIVE_EXPONENT) return { ok: false, message: quantitySuffixErrorMessage };

  const digits = BigInt(s.num + s.denom);
  let nano: bigint;
  if (base === 10) {
    const shift = exponent - s.denom.length + 9;
    if (shift >= 0) nano = digits * pow10(shift);
    else if (-shift > s.num.length + s.denom.length) nano = digits === 0n ? 0n : 1n;
    else nano = divideAway(digits, pow10(-shift));
  } else {
    nano = divideAway(digits * (1n << BigInt(exponent)) * NANO, pow10(s.denom.length));
  }
  if (format === 'BinarySI' && nano > MAX_INT64 * NANO) nano = MAX_INT64 * NANO;
  if (format === 'BinarySI' && nano > 0n && nano < NANO) format = 'DecimalSI';
  if (!s.positive) nano = -nano;
  return { ok: true, quantity: quantityFromNano(nano, format), canonicalInput: keepsInputText(s, base, exponent, digits) };
}

// Upstream's fast path keeps the input string as the serialized form when it looks canonical,
// so "+1", "01" and "1.500k" come back out verbatim. This reproduces that test exactly.
function keepsInputText(s: Scanned, base: 2 | 10, exponent: number, digits: bigint): boolean {
  const shifted = s.num + s.denom;
  if (base === 10) {
    const precision = 18 - shifted.length;
    const scale = exponent - s.denom.length;
    return precision >= 0 && scale >= -9 && scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  }
  if (s.denom.length > 0) return false;
  const precision = 15 - s.num.length - Math.trunc((exponent * 3) / 10) - 1;
  return precision >= 0 && digits << BigInt(exponent) <= MAX_INT64 && exponent % 10 === 0 && (digits & 7n) !== 0n;
}

/** `undefined` when upstream's ParseQuantity would fail. Callers decoding JSON trim first, as UnmarshalJSON does. */
export function parseQuantity(text: string): Quantity | undefined {
  const r = parseDetailed(text);
  return r.ok ? r.quantity : undefined;
}

/** The upstream error text for an unparsable quantity, or `undefined` when it parses. */
export function quantityParseError(text: string): string | undefined {
  const r = parseDetailed(text);
  return r.ok ? undefined : r.message;
}

export function mustParseQuantity(text: string): Quantity {
  const r = parseDetailed(text);
  if (!r.ok) throw new Error(`cannot parse '${text}': ${r.message}`);
  return r.quantity;
}

/**
 * What the API server writes back for a quantity it was sent: the canonical form, or the
 * input itself where upstream keeps it. `undefined` when it does not parse.
 */
export function canonicalizeQuantityText(text: string): string | undefined {
  const r = parseDetailed(text);
  if (!r.ok) return undefined;
  return r.canonicalInput ? text : formatQuantity(r.quantity);
}

export function quantityFromNano(nano: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
  const n = toBigInt(nano);
  const milli = divideAway(n, 1_000_000n);
  return milli * 1_000_000n === n ? { milli, format } : { milli, format, nano: n };
}

/** NewMilliQuantity. A fractional `number` is rounded up. */
export function quantityFromMilli(milli: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { milli: toBigInt(milli), format };
}

/** NewQuantity: a whole number of units (bytes, GPUs, pods). */
export function quantityFromValue(value: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { milli: toBigInt(value) * 1000n, format };
}

function toBigInt(n: bigint | number): bigint {
  if (typeof n === 'bigint') return n;
  if (!Number.isFinite(n)) throw new RangeError(`quantity amount must be finite, got ${n}`);
  return BigInt(Math.ceil(n));
}

export function quantityNanoValue(q: Quantity): bigint {
  return q.nano ?? q.milli * 1_000_000n;
}

/** MilliValue(): value×1000, rounded up away from zero. */
export function quantityMilliValue(q: Quantity): number {
  return Number(q.milli);
}

/** Value(): rounded up to an integer, away from zero. */
export function quantityValue(q: Quantity): number {
  return Number(divideAway(quantityNanoValue(q), NANO));
}

export function isZeroQuantity(q: Quantity): boolean {
  return quantityNanoValue(q) === 0n;
}

export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const x = quantityNanoValue(a);
  const y = quantityNanoValue(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Keeps a's format, unless a is zero (then b's), as upstream's Add does. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const format = isZeroQuantity(a) ? b.format : a.format;
  return quantityFromNano(quantityNanoValue(a) + quantityNanoValue(b), format);
}

export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  const format = isZeroQuantity(a) ? b.format : a.format;
  return quantityFromNano(quantityNanoValue(a) - quantityNanoValue(b), format);
}

/** Upstream's canonical String(): largest suffix that loses no precision, no fractional digits. */
export function formatQuantity(q: Quantity): string {
  const nano = quantityNanoValue(q);
  if (nano === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const abs = nano < 0n ? -nano : nano;
    if (abs < 1024n * NANO || nano % NANO !== 0n) format = 'DecimalSI';
    else {
      let amount = nano / NANO;
      let times = 0;
      while ((amount >= 1024n || amount <= -1024n) && amount % 1024n === 0n) {
        amount /= 1024n;
        times++;
      }
      const suffix = binarySuffixByExponent[times];
      // Past Ei there is no suffix: fall back to an exact decimal form, as upstream now does.
      if (suffix !== undefined) return `${amount}${suffix}`;
      format = 'DecimalSI';
    }
  }
  let amount = nano;
  let exponent = -9;
  while ((amount >= 10n || amount <= -10n) && amount % 10n === 0n) {
    amount /= 10n;
    exponent++;
  }
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  if (format === 'DecimalSI') {
    const suffix = decimalSuffixByExponent.get(exponent);
    if (suffix !== undefined) return `${amount}${suffix}`;
  }
  return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
}
