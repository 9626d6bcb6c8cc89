// Public surface of the protobuf request-body decoder (application/vnd.kubernetes.protobuf).
// Responses stay JSON; only request bodies from kubectl >= 1.32 and client-go typed clients are decoded.

import { ProtobufDecodeError } from './decode-message.ts';
import { PROTOBUF_MAGIC, decodeEnvelope } from './envelope.ts';

export { PROTOBUF_MAGIC };
export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

export type ProtobufDecodeResult =
  | { readonly ok: true; readonly object: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * Decodes one envelope into the JSON object a JSON client would have sent: `apiVersion` and `kind` from the
 * envelope, then the fields, with Go's omitempty rules applied. A failure carries the upstream decoder's
 * text, for the caller to answer 400 BadRequest with.
 *
 * @example
 * const r = decodeProtobufObject(body);
 * if (!r.ok) throw badRequest(r.message);
 */
export function decodeProtobufObject(bytes: Uint8Array): ProtobufDecodeResult {
  try {
    return { ok: true, object: decodeEnvelope(bytes, 0) };
  } catch (error) {
    if (error instanceof ProtobufDecodeError) return { ok: false, message: error.message };
    // BinaryReader throws plain Errors for truncated or malformed input ("premature EOF", "invalid wire type").
    if (error instanceof Error && !(error instanceof TypeError)) return { ok: false, message: error.message };
    throw error;
  }
}
