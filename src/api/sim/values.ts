// Small parsers for the behaviour model's values: Go-style durations ("1m30s"), quantities and
// memory ramps ("200Mi->900Mi/60s"). Each returns undefined for a malformed value.
import { lookupTable, parseQuantity, quantityMilliValue, quantityValue } from '../../core/index.ts';

const unitMs: Record<string, number> = lookupTable({ ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 });
const durationPart = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

/** Go's time.ParseDuration (non-negative only), in ms; a YAML number means seconds. */
export function parseDurationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '0') return 0;
  if (text === '') return undefined;
  let total = 0;
  durationPart.lastIndex = 0;
  while (durationPart.lastIndex < text.length) {
    const m = durationPart.exec(text);
    if (!m) return undefined;
    total += Number(m[1]) * (unitMs[m[2] ?? ''] ?? Number.NaN);
  }
  return Number.isFinite(total) ? total : undefined;
}

/** A quantity's integer value (bytes for memory). */
export function parseBytes(value: unknown): number | undefined {
  const q = typeof value === 'string' ? parseQuantity(value.trim()) : typeof value === 'number' ? parseQuantity(String(value)) : undefined;
  return q ? quantityValue(q) : undefined;
}

export function parseMilliCpu(value: unknown): number | undefined {
  const q = typeof value === 'string' ? parseQuantity(value.trim()) : typeof value === 'number' ? parseQuantity(String(value)) : undefined;
  return q ? quantityMilliValue(q) : undefined;
}

/** Working set over time: `from` at start, growing linearly to `to` over `rampMs` (0: constant). */
export interface MemoryModel {
  fromBytes: number;
  toBytes: number;
  rampMs: number;
}

export function parseMemoryModel(value: unknown): MemoryModel | undefined {
  if (typeof value === 'string' && value.includes('->')) {
    const m = /^\s*([^-\s]+)\s*->\s*([^/\s]+)\s*\/\s*(\S+)\s*$/.exec(value);
    if (!m) return undefined;
    const from = parseBytes(m[1]);
    const to = parseBytes(m[2]);
    const ramp = parseDurationMs(m[3]);
    if (from === undefined || to === undefined || ramp === undefined) return undefined;
    return { fromBytes: from, toBytes: to, rampMs: ramp };
  }
  const bytes = parseBytes(value);
  return bytes === undefined ? undefined : { fromBytes: bytes, toBytes: bytes, rampMs: 0 };
}

/** The modelled working set `elapsedMs` after start. */
export function memoryAt(model: MemoryModel, elapsedMs: number): number {
  if (model.rampMs <= 0 || elapsedMs >= model.rampMs) return model.toBytes;
  return model.fromBytes + ((model.toBytes - model.fromBytes) * Math.max(0, elapsedMs)) / model.rampMs;
}

/** When the working set first exceeds `limitBytes` (ms after start), or undefined if never. */
export function memoryExceedsAt(model: MemoryModel, limitBytes: number): number | undefined {
  if (model.fromBytes > limitBytes) return 0;
  if (model.toBytes <= limitBytes) return undefined;
  if (model.rampMs <= 0) return 0;
  // Just past the crossing point, so the usage there is strictly above the limit.
  return Math.floor((model.rampMs * (limitBytes - model.fromBytes)) / (model.toBytes - model.fromBytes)) + 1;
}
