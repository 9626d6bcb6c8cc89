// The length of an object's protobuf encoding, computed from its JSON form without encoding it: what
// etcd's request limits measure for built-in kinds, whose storage encoding is protobuf.
// Upstream: the Size methods of k8s.io/api/**/generated.pb.go (gogo), which write every non-pointer
// field, empty ones too; pointers only when set; lists and maps item by item (proto2, so unpacked).

import type { FieldSpec, MessageSpec, ScalarType, SpecialType, ValueType } from './field-table.ts';
import { parseGoDurationNanos } from '../../core/index.ts';
import { findKindMessage, findMessage } from './registry.ts';
import { PROTOBUF_MAGIC } from './envelope.ts';

type Json = unknown;

/** Bytes of a varint; negative numbers (int32 and int64 alike) are sign-extended to ten. */
export function varintSize(value: number): number {
  if (value < 0) return 10;
  let size = 1;
  for (let rest = value; rest >= 128; rest = Math.floor(rest / 128)) size++;
  return size;
}

/** A length-delimited field's bytes: its tag's (`tag` of them), its length's, its body's. */
export function delimited(tag: number, body: number): number {
  return tag + varintSize(body) + body;
}

function tagSize(number: number): number {
  return varintSize(number * 8);
}

function stringBytes(value: Json): number {
  if (typeof value !== 'string') return 0;
  // ASCII is one byte a character; only text with wider characters pays for the count.
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) > 0x7f) return Buffer.byteLength(value, 'utf8');
  }
  return value.length;
}

/** Bytes a base64 JSON string decodes to (Go's []byte). */
function base64Bytes(value: Json): number {
  if (typeof value !== 'string') return 0;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((value.length * 3) / 4) - padding);
}

function numberOf(value: Json): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** A scalar's bytes after its tag. */
function scalarSize(scalar: ScalarType, value: Json): number {
  switch (scalar) {
    case 's':
      return delimited(0, stringBytes(value));
    case 'y':
      return delimited(0, base64Bytes(value));
    case 'b':
      return 1;
    case 'i':
    case 'l':
    case 'u':
    case 'L':
      return varintSize(numberOf(value));
    case 'd':
      return 8;
    case 'f':
      return 4;
    default: {
      const never: never = scalar;
      throw new Error(`unknown scalar ${String(never)}`);
    }
  }
}

function timestampSize(value: Json, micro: boolean): number {
  if (typeof value !== 'string') return 0; // Go's zero time encodes as an empty message.
  const millis = Date.parse(value);
  if (Number.isNaN(millis)) return 0;
  const seconds = Math.floor(millis / 1000);
  const fraction = micro ? /\.(\d{1,9})/.exec(value)?.[1] : undefined;
  const nanos = fraction ? Number(fraction.padEnd(9, '0')) : 0;
  return 1 + varintSize(seconds) + 1 + varintSize(nanos);
}

/** The body of a special type's message; absent values are the type's zero (Quantity's is "0"). */
function specialSize(special: SpecialType, value: Json): number {
  switch (special) {
    case '@time':
      return timestampSize(value, false);
    case '@microtime':
      return timestampSize(value, true);
    case '@duration': {
      const parsed = typeof value === 'string' ? parseGoDurationNanos(value) : undefined;
      return 1 + varintSize(parsed?.ok ? Number(parsed.nanos) : 0);
    }
    case '@quantity':
      return delimited(1, value === undefined || value === null ? 1 : stringBytes(String(value)));
    case '@intstr': {
      const text = typeof value === 'string';
      return 1 + 1 + 1 + varintSize(text ? 0 : numberOf(value)) + delimited(1, text ? stringBytes(value) : 0);
    }
    case '@raw':
      // RawExtension and FieldsV1 hold the embedded object's JSON; a nil one writes nothing.
      return value === undefined || value === null ? 0 : delimited(1, Buffer.byteLength(JSON.stringify(value), 'utf8'));
    case '@strings':
      return Array.isArray(value) ? value.reduce((sum: number, item) => sum + delimited(1, stringBytes(item)), 0) : 0;
    default: {
      const never: never = special;
      throw new Error(`unknown special ${String(never)}`);
    }
  }
}

function asObject(value: Json): Readonly<Record<string, Json>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, Json>) : {};
}

/** A composite value's body: a message, or a special type's message. */
function compositeSize(type: ValueType, value: Json): number {
  if (type.kind === 'special') return specialSize(type.special, value);
  if (type.kind === 'message') {
    const spec = findMessage(type.message);
    return spec ? messageSize(spec, asObject(value)) : 0;
  }
  throw new Error('scalar handled by caller');
}

/** One occurrence of a field: its tag and its value. */
function occurrenceSize(field: FieldSpec, tag: number, value: Json): number {
  if (field.value.kind === 'scalar') return tag + scalarSize(field.value.scalar, value);
  return delimited(tag, compositeSize(field.value, value));
}

function mapSize(field: FieldSpec, tag: number, value: Json): number {
  let total = 0;
  for (const [key, entry] of Object.entries(asObject(value))) {
    const keySize = 1 + scalarSize(field.mapKey ?? 's', key);
    // A bytes value that is nil writes nothing; every other value is written.
    const valueSize = field.value.kind === 'scalar' && field.value.scalar === 'y' && entry === null ? 0 : occurrenceSize(field, 1, entry);
    total += delimited(tag, keySize + valueSize);
  }
  return total;
}

function fieldSize(field: FieldSpec, object: Readonly<Record<string, Json>>): number {
  const tag = tagSize(field.number);
  // An embedded struct (`json:",inline"`) reads its fields from the parent's JSON.
  if (field.name === undefined) return delimited(tag, compositeSize(field.value, object));
  const value = object[field.name];
  if (field.mapKey !== undefined) return mapSize(field, tag, value);
  if (field.repeated) {
    if (!Array.isArray(value)) return 0;
    let total = 0;
    for (const item of value) total += occurrenceSize(field, tag, item);
    return total;
  }
  const absent = value === undefined || value === null;
  // Pointers, and []byte (nil unless sent), are written only when set.
  if (absent && (field.pointer || (field.value.kind === 'scalar' && field.value.scalar === 'y'))) return 0;
  return occurrenceSize(field, tag, value);
}

/** The encoded length of one message (without a tag or length of its own). */
export function messageSize(spec: MessageSpec, object: Readonly<Record<string, Json>>): number {
  let total = 0;
  for (const field of spec.fields) total += fieldSize(field, object);
  return total;
}

/**
 * The length of the `k8s\0` + runtime.Unknown envelope the protobuf serializer writes for an object of
 * a registered kind (what the API server stores in etcd), or undefined when the kind has no protobuf
 * message (custom resources, which are stored as JSON).
 */
export function protobufEnvelopeSize(object: Readonly<Record<string, Json>>): number | undefined {
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const kind = typeof object.kind === 'string' ? object.kind : '';
  const spec = findKindMessage(apiVersion, kind);
  if (!spec) return undefined;
  const typeMeta = delimited(1, stringBytes(apiVersion)) + delimited(1, stringBytes(kind));
  // Unknown{typeMeta, raw, contentEncoding "", contentType ""}: the empty strings are written too.
  return PROTOBUF_MAGIC.length + delimited(1, typeMeta) + delimited(1, messageSize(spec, object)) + 2 + 2;
}
