// Walks one protobuf message with its field table and builds the JSON object Go's encoder would have written.
// Upstream: the Unmarshal methods of k8s.io/api/**/generated.pb.go plus encoding/json's omitempty rules.
//
// Go's protobuf encoder writes every non-pointer field, empty ones included, while kubectl's JSON omits
// them; so non-pointer zero values ("", 0, false, empty messages) are dropped, and pointer fields keep
// whatever was sent (an explicit `replicas: 0` or `emptyDir: {}` matters).

import { BinaryReader, WireType, base64Encode } from '@bufbuild/protobuf/wire';
import type { FieldSpec, MessageSpec, ScalarType, ValueType } from './field-table.ts';
import { setOwn } from '../../core/index.ts';
import { findMessage } from './registry.ts';
import {
  decodeDuration,
  decodeIntOrString,
  decodeQuantity,
  decodeRawBytes,
  decodeStringList,
  decodeTimestamp,
  toNumber,
} from './special-types.ts';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Thrown for malformed input; the envelope turns it into a { ok: false } result. */
export class ProtobufDecodeError extends Error {}

/** Decodes RawExtension bytes; supplied by the envelope so nested `k8s\0` objects decode recursively. */
export type RawDecoder = (raw: Uint8Array) => JsonValue;

const MAX_DEPTH = 100;

function expectWire(field: FieldSpec, actual: WireType, expected: WireType, message: MessageSpec): void {
  if (actual !== expected) {
    throw new ProtobufDecodeError(`proto: wrong wireType = ${actual} for field ${field.name ?? '(inline)'} of ${message.name}`);
  }
}

function scalarWireType(scalar: ScalarType): WireType {
  switch (scalar) {
    case 's':
    case 'y':
      return WireType.LengthDelimited;
    case 'd':
      return WireType.Bit64;
    case 'f':
      return WireType.Bit32;
    case 'b':
    case 'i':
    case 'l':
    case 'u':
    case 'L':
      return WireType.Varint;
    default: {
      const never: never = scalar;
      throw new Error(`unknown scalar ${String(never)}`);
    }
  }
}

function readScalar(reader: BinaryReader, scalar: ScalarType): string | number | boolean {
  switch (scalar) {
    case 's':
      return reader.string();
    case 'y':
      return base64Encode(reader.bytes());
    case 'b':
      return reader.bool();
    case 'i':
      return reader.int32();
    case 'u':
      return reader.uint32();
    case 'l':
      return toNumber(reader.int64());
    case 'L':
      return toNumber(reader.uint64());
    case 'd':
      return reader.double();
    case 'f':
      return reader.float();
    default: {
      const never: never = scalar;
      throw new Error(`unknown scalar ${String(never)}`);
    }
  }
}

function isZeroScalar(value: JsonValue): boolean {
  return value === '' || value === 0 || value === false;
}

interface Context {
  readonly decodeRaw: RawDecoder;
  readonly depth: number;
}

/** Decodes a length-delimited value of a non-scalar type; undefined means "absent" (zero Time, empty raw). */
function decodeComposite(bytes: Uint8Array, value: ValueType, ctx: Context): JsonValue | undefined {
  switch (value.kind) {
    case 'scalar':
      throw new Error('scalar handled by caller');
    case 'message': {
      const spec = findMessage(value.message);
      if (!spec) throw new Error(`no field table for ${value.message}`);
      return decodeMessage(bytes, spec, ctx);
    }
    case 'special':
      switch (value.special) {
        case '@time':
          return decodeTimestamp(bytes, false);
        case '@microtime':
          return decodeTimestamp(bytes, true);
        case '@duration':
          return decodeDuration(bytes);
        case '@quantity':
          return decodeQuantity(bytes);
        case '@intstr':
          return decodeIntOrString(bytes);
        case '@strings':
          return decodeStringList(bytes);
        case '@raw': {
          const raw = decodeRawBytes(bytes);
          return raw.length === 0 ? undefined : ctx.decodeRaw(raw);
        }
        default: {
          const never: never = value.special;
          throw new Error(`unknown special ${String(never)}`);
        }
      }
    default: {
      const never: never = value;
      throw new Error(`unknown value type ${JSON.stringify(never)}`);
    }
  }
}

/** A map entry `{1 key, 2 value}`; a missing value is the value type's zero. */
function decodeMapEntry(bytes: Uint8Array, field: FieldSpec, ctx: Context): [string, JsonValue] {
  const reader = new BinaryReader(bytes);
  let key = '';
  let entry: JsonValue | undefined;
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no === 1 && field.mapKey !== undefined && wire === scalarWireType(field.mapKey)) {
      key = String(readScalar(reader, field.mapKey));
    } else if (no === 2 && field.value.kind === 'scalar' && wire === scalarWireType(field.value.scalar)) {
      entry = readScalar(reader, field.value.scalar);
    } else if (no === 2 && field.value.kind !== 'scalar' && wire === WireType.LengthDelimited) {
      entry = decodeComposite(reader.bytes(), field.value, ctx) ?? null;
    } else {
      reader.skip(wire, no);
    }
  }
  if (entry === undefined) {
    if (field.value.kind === 'scalar') entry = field.value.scalar === 's' || field.value.scalar === 'y' ? '' : field.value.scalar === 'b' ? false : 0;
    else entry = decodeComposite(new Uint8Array(0), field.value, ctx) ?? null;
  }
  return [key, entry];
}

function isEmptyComposite(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Drops what Go's JSON encoder would omit for a non-pointer field. */
function isOmitted(field: FieldSpec, value: JsonValue): boolean {
  if (field.pointer) return false;
  if (field.value.kind === 'scalar') return isZeroScalar(value);
  if (field.value.kind === 'special' && field.value.special === '@intstr') return isZeroScalar(value);
  return isEmptyComposite(value);
}

export function decodeMessage(bytes: Uint8Array, spec: MessageSpec, ctx: Context): JsonObject {
  if (ctx.depth > MAX_DEPTH) throw new ProtobufDecodeError('proto: exceeded maximum nesting depth');
  const inner: Context = { decodeRaw: ctx.decodeRaw, depth: ctx.depth + 1 };
  const reader = new BinaryReader(bytes);
  const values = new Map<number, JsonValue>();
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    const field = spec.byNumber.get(no);
    if (!field) {
      reader.skip(wire, no);
      continue;
    }
    if (field.mapKey !== undefined) {
      expectWire(field, wire, WireType.LengthDelimited, spec);
      const [key, entry] = decodeMapEntry(reader.bytes(), field, inner);
      const map = (values.get(no) ?? {}) as JsonObject;
      setOwn(map, key, entry);
      values.set(no, map);
    } else if (field.value.kind === 'scalar') {
      const scalar = field.value.scalar;
      const expected = scalarWireType(scalar);
      if (field.repeated) {
        const list = (values.get(no) ?? []) as JsonValue[];
        if (wire === WireType.LengthDelimited && expected !== WireType.LengthDelimited) {
          // Packed encoding of a repeated number.
          const packed = new BinaryReader(reader.bytes());
          while (packed.pos < packed.len) list.push(readScalar(packed, scalar));
        } else {
          expectWire(field, wire, expected, spec);
          list.push(readScalar(reader, scalar));
        }
        values.set(no, list);
      } else {
        expectWire(field, wire, expected, spec);
        values.set(no, readScalar(reader, scalar));
      }
    } else {
      expectWire(field, wire, WireType.LengthDelimited, spec);
      const decoded = decodeComposite(reader.bytes(), field.value, inner);
      if (field.repeated) {
        const list = (values.get(no) ?? []) as JsonValue[];
        list.push(decoded ?? null);
        values.set(no, list);
      } else if (decoded !== undefined) {
        values.set(no, decoded);
      } else {
        values.delete(no);
      }
    }
  }
  const out: JsonObject = {};
  for (const field of spec.fields) {
    const value = values.get(field.number);
    if (value === undefined || isOmitted(field, value)) continue;
    if (field.name === undefined) {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, value);
    } else {
      out[field.name] = value;
    }
  }
  return out;
}
