// The `k8s\0` + runtime.Unknown envelope that client-go's protobuf serializer puts around every object.
// Upstream: apimachinery/pkg/runtime/serializer/protobuf/protobuf.go (Serializer.Decode).

import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { ProtobufDecodeError, decodeMessage } from './decode-message.ts';
import type { JsonObject, JsonValue } from './decode-message.ts';
import { findKindMessage } from './registry.ts';

export const PROTOBUF_MAGIC: Uint8Array = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

/** The scheme name kube-apiserver puts into "not registered" errors. */
const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

interface Unknown {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
}

function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= PROTOBUF_MAGIC.length && PROTOBUF_MAGIC.every((b, i) => bytes[i] === b);
}

function readUnknown(bytes: Uint8Array): Unknown {
  const reader = new BinaryReader(bytes);
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array(0);
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (no === 1 && wire === WireType.LengthDelimited) {
      const meta = new BinaryReader(reader.bytes());
      while (meta.pos < meta.len) {
        const [mno, mwire] = meta.tag();
        if (mno === 1 && mwire === WireType.LengthDelimited) apiVersion = meta.string();
        else if (mno === 2 && mwire === WireType.LengthDelimited) kind = meta.string();
        else meta.skip(mwire, mno);
      }
    } else if (no === 2 && wire === WireType.LengthDelimited) {
      raw = reader.bytes();
    } else {
      reader.skip(wire, no);
    }
  }
  return { apiVersion, kind, raw };
}

function decodeRaw(raw: Uint8Array): JsonValue {
  if (hasMagic(raw)) return decodeEnvelope(raw, 1);
  const text = new TextDecoder().decode(raw);
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new ProtobufDecodeError(`embedded object is neither protobuf nor JSON: ${text.slice(0, 64)}`);
  }
}

export function decodeEnvelope(bytes: Uint8Array, depth: number): JsonObject {
  if (bytes.length === 0) throw new ProtobufDecodeError('empty data');
  if (!hasMagic(bytes)) {
    throw new ProtobufDecodeError(`provided data does not appear to be a protobuf message, expected prefix [${[...PROTOBUF_MAGIC].join(' ')}]`);
  }
  if (bytes.length === PROTOBUF_MAGIC.length) throw new ProtobufDecodeError('empty body');
  const unknown = readUnknown(bytes.subarray(PROTOBUF_MAGIC.length));
  const typeMeta = `runtime.TypeMeta{APIVersion:${JSON.stringify(unknown.apiVersion)}, Kind:${JSON.stringify(unknown.kind)}}`;
  if (unknown.kind === '') throw new ProtobufDecodeError(`Object 'Kind' is missing in '${typeMeta}'`);
  if (unknown.apiVersion === '') throw new ProtobufDecodeError(`Object 'apiVersion' is missing in '${typeMeta}'`);
  const spec = findKindMessage(unknown.apiVersion, unknown.kind);
  if (!spec) {
    throw new ProtobufDecodeError(`no kind ${JSON.stringify(unknown.kind)} is registered for version ${JSON.stringify(unknown.apiVersion)} in scheme ${JSON.stringify(SCHEME_NAME)}`);
  }
  const body = decodeMessage(unknown.raw, spec, { decodeRaw, depth });
  return { apiVersion: unknown.apiVersion, kind: unknown.kind, ...body };
}
