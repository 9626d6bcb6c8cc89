// Durations as users see them: kubectl's AGE-style strings and Go's time.Duration text form
// ("1h2m3.5s"), which API fields like `--timeout` and config files use.
// Upstream: apimachinery/pkg/util/duration/duration.go; Go time/format.go (ParseDuration, String).
import { lookupTable } from './own-keys.ts';

const trunc = Math.trunc;

/** HumanDuration: ~2–3 significant figures, the AGE column. */
export function humanDuration(ms: number): string {
  // Up to 2 s in the future still reads as "now", to tolerate clock skew.
  const seconds = trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${trunc(hours / 24)}d` : `${trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = trunc(hours / 24) % 365;
    const years = trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${trunc(hours / 24 / 365)}y`;
}

/** ShortHumanDuration: one unit only, as in `kubectl get events` LAST SEEN. */
export function shortHumanDuration(ms: number): string {
  const seconds = trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = trunc(ms / 60_000);
  if (minutes < 60) return `${minutes}m`;
  const hours = trunc(ms / 3_600_000);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${trunc(hours / 24)}d`;
  return `${trunc(ms / 3_600_000 / 24 / 365)}y`;
}

/**
 * translateTimestampSince from the printers: `<unknown>` for a missing timestamp, else the
 * HumanDuration from it to `nowMs` (take `nowMs` from the Clock).
 */
export function translateTimestampSince(timestamp: string | undefined | null, nowMs: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(nowMs - t);
}

const unitNanos: Readonly<Record<string, bigint>> = lookupTable({
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
});
const MAX_NANOS = 1n << 63n;

/** time.ParseDuration in nanoseconds, with Go's error texts. */
export function parseGoDurationNanos(text: string): { ok: true; nanos: bigint } | { ok: false; message: string } {
  const invalid = { ok: false as const, message: `time: invalid duration ${JSON.stringify(text)}` };
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, nanos: 0n };
  if (s === '') return invalid;
  let total = 0n;
  while (s !== '') {
    const m = /^([0-9]*)(?:\.([0-9]*))?/.exec(s);
    const whole = m?.[1] ?? '';
    const frac = m?.[2];
    if (whole === '' && !frac) return invalid;
    s = s.slice(m?.[0].length ?? 0);
    const unitMatch = /^[^.0-9]*/.exec(s)?.[0] ?? '';
    if (unitMatch === '') return { ok: false, message: `time: missing unit in duration ${JSON.stringify(text)}` };
    s = s.slice(unitMatch.length);
    const unit = unitNanos[unitMatch];
    if (unit === undefined) return { ok: false, message: `time: unknown unit ${JSON.stringify(unitMatch)} in duration ${JSON.stringify(text)}` };
    let v = BigInt(whole || '0');
    if (v > MAX_NANOS / unit) return invalid;
    v *= unit;
    if (frac) {
      // Go scales the fraction through float64; truncation matches it for realistic inputs.
      v += BigInt(Math.trunc(Number(`0.${frac}`) * Number(unit)));
      if (v > MAX_NANOS) return invalid;
    }
    total += v;
    if (total > MAX_NANOS) return invalid;
  }
  if (neg) return { ok: true, nanos: -total };
  if (total > MAX_NANOS - 1n) return invalid;
  return { ok: true, nanos: total };
}

/** time.ParseDuration, in (possibly fractional) milliseconds; `undefined` where Go errors. */
export function parseGoDuration(text: string): number | undefined {
  const r = parseGoDurationNanos(text);
  return r.ok ? Number(r.nanos) / 1e6 : undefined;
}

function fmtFrac(v: bigint, prec: number): { text: string; rest: bigint } {
  let digits = '';
  let printed = false;
  for (let i = 0; i < prec; i++) {
    const d = v % 10n;
    printed ||= d !== 0n;
    if (printed) digits = `${d}${digits}`;
    v /= 10n;
  }
  return { text: printed ? `.${digits}` : '', rest: v };
}

/** Duration.String() for a nanosecond count: "0s", "1.5s", "2m0s", "1h0m0s", "1.2ms", "3µs". */
export function formatGoDurationNanos(nanos: bigint): string {
  const neg = nanos < 0n;
  let u = neg ? -nanos : nanos;
  let out: string;
  if (u < 1_000_000_000n) {
    if (u === 0n) return '0s';
    const [prec, unit] = u < 1_000n ? [0, 'ns'] : u < 1_000_000n ? [3, 'µs'] : [6, 'ms'];
    const f = fmtFrac(u, prec);
    out = `${f.rest}${f.text}${unit}`;
  } else {
    const f = fmtFrac(u, 9);
    u = f.rest;
    out = `${u % 60n}${f.text}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Duration.String() for milliseconds (rounded to the nanosecond). */
export function formatGoDuration(ms: number): string {
  return formatGoDurationNanos(BigInt(Math.round(ms * 1e6)));
}
