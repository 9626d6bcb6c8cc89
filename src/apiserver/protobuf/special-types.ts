// JSON forms of the apimachinery types whose protobuf shape differs from their JSON shape.
// Upstream: apimachinery/pkg/apis/meta/v1/{time,micro_time,duration}_proto.go, pkg/util/intstr/intstr.go,
// pkg/api/resource/quantity_proto.go, pkg/runtime/types_proto.go.

import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';

/** Protobuf's int64 arrives as bigint (or string without BigInt); JSON carries it as a number, as Go's encoder does. */
export function toNumber(value: bigint | string): number {
  return Number(value);
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** Go `time.Time.Format(RFC3339)` in UTC, or RFC3339 with 6 fraction digits for MicroTime. */
export function formatTimestamp(seconds: number, nanos: number, micro: boolean): string {
  const date = new Date(seconds * 1000);
  const base =
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  return micro ? `${base}.${pad(Math.floor(nanos / 1000), 6)}Z` : `${base}Z`;
}

/**
 * Decodes a Time/MicroTime body `{1 seconds, 2 nanos}`. An empty body is Go's zero time, which JSON writes as
 * null and we drop, so it returns undefined.
 */
export function decodeTimestamp(bytes: Uint8Array, micro: boolean): string | undefined {
  if (bytes.length === 0) return undefined;
  const reader = new BinaryReader(bytes);
  let seconds = 0;
  let nanos = 0;
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no === 1 && wire === WireType.Varint) seconds = toNumber(reader.int64());
    else if (no === 2 && wire === WireType.Varint) nanos = reader.int32();
    else reader.skip(wire, no);
  }
  return formatTimestamp(seconds, nanos, micro);
}

const UNITS: readonly (readonly [bigint, string])[] = [
  [3_600_000_000_000n, 'h'],
  [60_000_000_000n, 'm'],
];

function fraction(value: bigint, unit: bigint, digits: number): string {
  const whole = value / unit;
  const rest = value % unit;
  if (rest === 0n) return String(whole);
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** Go `time.Duration.String()` for a nanosecond count, e.g. `1h0m0s`, `1.5s`, `300ms`. */
export function formatDuration(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return '0s';
  const negative = nanoseconds < 0n;
  let rest = negative ? -nanoseconds : nanoseconds;
  let text: string;
  if (rest < 1_000_000_000n) {
    if (rest < 1_000n) text = `${rest}ns`;
    else if (rest < 1_000_000n) text = `${fraction(rest, 1_000n, 3)}µs`;
    else text = `${fraction(rest, 1_000_000n, 6)}ms`;
  } else {
    text = '';
    let started = false;
    for (const [unit, suffix] of UNITS) {
      if (rest >= unit || started) {
        text += `${rest / unit}${suffix}`;
        rest %= unit;
        started = true;
      }
    }
    text += `${fraction(rest, 1_000_000_000n, 9)}s`;
  }
  return negative ? `-${text}` : text;
}

/** Duration `{1 duration int64 nanoseconds}`. */
export function decodeDuration(bytes: Uint8Array): string {
  const reader = new BinaryReader(bytes);
  let nanos = 0n;
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no === 1 && wire === WireType.Varint) nanos = BigInt(reader.int64());
    else reader.skip(wire, no);
  }
  return formatDuration(nanos);
}

/** IntOrString `{1 type, 2 intVal, 3 strVal}`: type 1 is a string, anything else an int. */
export function decodeIntOrString(bytes: Uint8Array): number | string {
  const reader = new BinaryReader(bytes);
  let type = 0;
  let intVal = 0;
  let strVal = '';
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no === 1 && wire === WireType.Varint) type = toNumber(reader.int64());
    else if (no === 2 && wire === WireType.Varint) intVal = reader.int32();
    else if (no === 3 && wire === WireType.LengthDelimited) strVal = reader.string();
    else reader.skip(wire, no);
  }
  return type === 1 ? strVal : intVal;
}

/** Decodes a message whose only field of interest is a length-delimited field 1 (Quantity, RawExtension). */
function readField1(bytes: Uint8Array): Uint8Array {
  const reader = new BinaryReader(bytes);
  let value: Uint8Array = new Uint8Array(0);
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no === 1 && wire === WireType.LengthDelimited) value = reader.bytes();
    else reader.skip(wire, no);
  }
  return value;
}

/** Quantity `{1 string}`; Go writes the canonical string, which is also the JSON form. */
export function decodeQuantity(bytes: Uint8Array): string {
  const value = readField1(bytes);
  return new TextDecoder().decode(value);
}

/** RawExtension / FieldsV1 `{1 raw}`: the raw bytes of the embedded object (usually JSON). */
export function decodeRawBytes(bytes: Uint8Array): Uint8Array {
  return readField1(bytes);
}

/** ExtraValue / Verbs `{repeated 1 string items}`, which JSON writes as a plain array. */
export function decodeStringList(bytes: Uint8Array): string[] {
  const reader = new BinaryReader(bytes);
  const items: string[] = [];
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no === 1 && wire === WireType.LengthDelimited) items.push(reader.string());
    else reader.skip(wire, no);
  }
  return items;
}
