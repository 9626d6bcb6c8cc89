// Applies a PATCH body of one of the four patch types to the current object.
// Upstream: apiserver/pkg/endpoints/handlers/patch.go (patchMechanism per content type).
import type { PatchMeta, ResourceDefinition } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { ApiError, StatusReason, badRequest, invalid, invalidValue, lookupTable, requestEntityTooLarge } from '../core/index.ts';
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch } from './patch/index.ts';
import { notAnObject } from './body.ts';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const patchContentTypes: Readonly<Record<string, PatchType>> = lookupTable({
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
});

/** The patch media types a resource accepts, in upstream's order; custom resources take no strategic merge patch. */
export function supportedPatchTypes(custom: boolean): string[] {
  return custom
    ? ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']
    : ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
}

/** negotiation.NewUnsupportedMediaTypeError. */
export function unsupportedPatchType(accepted: readonly string[]): ApiError {
  return new ApiError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

export function applyPatch(type: PatchType, current: KubeObject, body: unknown, meta: PatchMeta | undefined, def: ResourceDefinition): KubeObject {
  switch (type) {
    case 'json': {
      const result = applyJsonPatch(current, body);
      if (!result.ok) {
        if (result.kind === 'malformed') throw badRequest(result.message);
        if (result.kind === 'tooLarge') throw requestEntityTooLarge(result.message);
        // jsonPatcher.applyPatchToCurrentObject: the patched JSON did not decode.
        if (result.kind === 'tooDeep') throw patchDecodingFailure(JSON.stringify(result.patched), result.message);
        throw rejected();
      }
      return asObject(result.value);
    }
    case 'merge':
      // MergePatch makes a patch that is a list the document (nulls in it pruned); anything else but an object is ErrBadJSONPatch.
      if (!isRecord(body) && !Array.isArray(body)) throw badRequest('Invalid JSON Patch');
      return asObject(applyMergePatch(current, body));
    case 'strategic': {
      if (!isRecord(body)) throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
      const result = applyStrategicMergePatch(current, body, meta);
      if (!result.ok) {
        if (result.kind === 'malformed') throw badRequest(result.message);
        if (result.kind === 'unprocessable') throw rejected();
        // A plain error upstream (interpretStrategicMergePatchError passes it on): a 500 without a reason.
        throw new ApiError(StatusReason.Unknown, result.message);
      }
      return asObject(result.value);
    }
    case 'apply':
      throw badRequest('apply patches are handled by server-side apply');
    default: {
      const never: never = type;
      throw badRequest(`unsupported patch type ${String(never)}`);
    }
  }
}

/**
 * The patch handler's 422 for a patched object that does not decode (jsonPatcher, smpPatcher): an Invalid
 * on the `patch` field of no kind, showing the patched JSON (or, for a strategic merge patch, the patch).
 */
export function patchDecodingFailure(shown: string, why: string): ApiError {
  return invalid({ group: '', kind: '' }, '', [invalidValue('patch', shown, why)]);
}

// Upstream answers a patch that cannot be applied with this generic 422 and no details.
function rejected(): ApiError {
  return new ApiError('Invalid', 'the server rejected our request due to an error in our request', {}, 422);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The patched document as the handler decodes it: one that is no object (a JSON patch replacing the
 * root with a list, a merge patch that is one) fails in the decoder's words, as a 422 on `patch`.
 */
function asObject(value: unknown): KubeObject {
  // `null` decodes as an empty object, as a body does.
  const why = notAnObject(value);
  if (why !== undefined) throw patchDecodingFailure(JSON.stringify(value), why);
  const obj = (value ?? {}) as KubeObject;
  if (!isRecord(obj.metadata)) obj.metadata = {};
  return obj;
}
