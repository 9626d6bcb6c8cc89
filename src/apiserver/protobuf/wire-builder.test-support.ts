// Hand-built protobuf bytes for the decoder's tests: `envelope('v1', 'Pod', field(1, str(1, 'p')))`.

import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

export type Part = (writer: BinaryWriter) => void;

export function encode(...parts: Part[]): Uint8Array {
  const writer = new BinaryWriter();
  for (const part of parts) part(writer);
  return writer.finish();
}

export const str = (no: number, value: string): Part => (w) => void w.tag(no, WireType.LengthDelimited).string(value);
export const int = (no: number, value: number | bigint): Part => (w) => void w.tag(no, WireType.Varint).int64(value);
export const bool = (no: number, value: boolean): Part => (w) => void w.tag(no, WireType.Varint).bool(value);
export const bytes = (no: number, value: Uint8Array): Part => (w) => void w.tag(no, WireType.LengthDelimited).bytes(value);
export const msg = (no: number, ...parts: Part[]): Part => bytes(no, encode(...parts));
/** A map entry `{1 key, 2 value}`. */
export const entry = (no: number, key: string, value: Part): Part => msg(no, str(1, key), value);

export function envelope(apiVersion: string, kind: string, ...body: Part[]): Uint8Array {
  const unknown = encode(msg(1, str(1, apiVersion), str(2, kind)), bytes(2, encode(...body)), str(3, ''), str(4, ''));
  const out = new Uint8Array(unknown.length + 4);
  out.set([0x6b, 0x38, 0x73, 0x00]);
  out.set(unknown, 4);
  return out;
}
