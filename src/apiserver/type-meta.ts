// What a body's apiVersion and kind must be for the endpoint it reaches. Upstream decodes a body with
// the scheme: a kind it does not know, or one it cannot convert to the endpoint's type, fails the
// decoding (transformDecodeError); a known kind of another version fails the group-version check.
// Without this, `kind: pod` or a JSON patch of /kind was stored, and every later list of the
// resource carried an item kubectl cannot decode.
// Upstream: apiserver/pkg/endpoints/handlers/create.go, update.go, patch.go; apimachinery runtime/scheme.go.
import type { ResourceDefinition } from '../api/index.ts';
import { apiVersionOf, apiVersionParts } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { badRequest, goJsonKind } from '../core/index.ts';
import type { ApiError } from '../core/index.ts';
import { unrecognizedObject } from './body.ts';

/** The kube-apiserver's scheme, as its decoding errors name it. */
const schemeName = 'pkg/api/legacyscheme/scheme.go:30';

export interface KindLookup {
  findKind(group: string, version: string, kind: string): ResourceDefinition | undefined;
}

/** Why a body of this apiVersion and kind cannot be decoded as `def`'s type; undefined when it can. */
function decodingFailure(def: ResourceDefinition, apiVersion: string, kind: string, kinds: KindLookup): string | undefined {
  const { group, version } = apiVersionParts(apiVersion);
  if (kind === def.kind && group === def.group && version === def.version) return undefined;
  const registered = kinds.findKind(group, version, kind);
  if (!registered) return `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(schemeName)}`;
  // The same type in another group-version converts; the group-version check answers after.
  if (registered.kind === def.kind) return undefined;
  return `converting (${version}.${kind}) to (${internalPackage(def.group)}.${def.kind}): unknown conversion`;
}

/**
 * A create or update body's TypeMeta (absent parts default to the endpoint's): 400 in
 * transformDecodeError's words, or the group-version check's for the right kind of another version.
 */
export function checkBodyTypeMeta(def: ResourceDefinition, obj: KubeObject, kinds: KindLookup): ApiError | undefined {
  const unreadable = unreadableTypeMeta(obj);
  if (unreadable !== undefined) return unrecognizedObject(def.kind, unreadable, Buffer.from(JSON.stringify(obj)));
  const expected = apiVersionOf(def);
  const apiVersion = typeof obj.apiVersion === 'string' && obj.apiVersion !== '' ? obj.apiVersion : expected;
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : def.kind;
  const failure = decodingFailure(def, apiVersion, kind, kinds);
  if (failure !== undefined) return badRequest(`${kind} in version ${JSON.stringify(apiVersionParts(apiVersion).version)} cannot be handled as a ${def.kind}: ${failure}`);
  if (apiVersion !== expected) return badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected})`);
  return undefined;
}

/**
 * A patched object's TypeMeta. A JSON or merge patch that leaves a kind the scheme cannot decode as
 * `def`'s type fails as its decoding does (the words returned); otherwise the object is `def`'s
 * type again, as the decoded one is (a strategic merge patch's TypeMeta never reaches the stored object).
 */
export function patchedTypeMeta(def: ResourceDefinition, patched: KubeObject, kinds: KindLookup, decodes: boolean): string | undefined {
  if (decodes) {
    const unreadable = unreadableTypeMeta(patched);
    if (unreadable !== undefined) return unreadable;
    const apiVersion = typeof patched.apiVersion === 'string' && patched.apiVersion !== '' ? patched.apiVersion : apiVersionOf(def);
    const failure = decodingFailure(def, apiVersion, typeof patched.kind === 'string' && patched.kind !== '' ? patched.kind : def.kind, kinds);
    if (failure !== undefined) return failure;
  }
  patched.apiVersion = apiVersionOf(def);
  patched.kind = def.kind;
  return undefined;
}

/** The scheme a DELETE's options decode with (metainternalversionscheme), as its errors name it. */
const metaSchemeName = 'k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27';
/** meta.k8s.io/v1 kinds that scheme makes but cannot convert to DeleteOptions. */
const metaV1Kinds = new Set(['ListOptions', 'GetOptions', 'PatchOptions', 'Table', 'TableOptions', 'PartialObjectMetadata', 'PartialObjectMetadataList', 'WatchEvent']);
/** Its unversioned kinds: made in any group-version, and as unconvertible. */
const unversionedMetaKinds = new Set(['CreateOptions', 'UpdateOptions', 'Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

/**
 * Why a DELETE's body is not DeleteOptions, in the decoder's words; undefined when it is. DeleteOptions is
 * unversioned there, so any apiVersion decodes; an absent kind is DeleteOptions, an absent apiVersion meta.k8s.io/v1.
 */
export function deleteOptionsTypeMeta(obj: Record<string, unknown>): string | undefined {
  const unreadable = unreadableTypeMeta(obj as KubeObject);
  if (unreadable !== undefined) return unreadable;
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : 'DeleteOptions';
  if (kind === 'DeleteOptions') return undefined;
  const apiVersion = typeof obj.apiVersion === 'string' && obj.apiVersion !== '' ? obj.apiVersion : 'meta.k8s.io/v1';
  if (unversionedMetaKinds.has(kind) || (apiVersion === 'meta.k8s.io/v1' && metaV1Kinds.has(kind))) return `converting (v1.${kind}) to (v1.DeleteOptions): unknown conversion`;
  return `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(metaSchemeName)}`;
}

/** The version/kind peek's failure (serializer/json/meta.go) for a non-string apiVersion or kind. */
function unreadableTypeMeta(obj: KubeObject): string | undefined {
  for (const field of ['apiVersion', 'kind'] as const) {
    const value: unknown = obj[field];
    if (value === undefined || value === null || typeof value === 'string') continue;
    return `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(value)} into Go struct field .${field} of type string`;
  }
  return undefined;
}

/** The Go package of a group's internal types: `core.ConfigMap`, `apps.Deployment`; events.k8s.io shares core's Event. */
function internalPackage(group: string): string {
  if (group === '' || group === 'events.k8s.io') return 'core';
  return group.split('.')[0] ?? group;
}
