// The field manager around the pipeline: who a write is attributed to, which top-level fields an
// endpoint does not own (reset fields), the `Update` entry every ordinary write records, and the
// errors server-side apply answers with.
// Upstream: apiserver/pkg/endpoints/handlers/{create,update,patch}.go (managerOrUserAgent, fieldManager),
// managedfields/internal/conflict.go (NewConflictError), apimachinery/pkg/api/errors (NewApplyConflict).
import type { PatchMeta, ResourceDefinition } from '../api/index.ts';
import { apiVersionOf, emptyObject } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { ApiError, StatusReason, invalidValue, tooLong } from '../core/index.ts';
import type { FieldError } from '../core/index.ts';
import { updatedManagedFields } from './patch/index.ts';
import type { ApplyResult, FieldManagerOptions, JsonObject } from './patch/index.ts';
import { customResourceInfo, scalePathFields } from './crd/custom-resource.ts';

const fieldManagerMaxLength = 128;

/** managerOrUserAgent: the fieldManager, else the User-Agent up to its first `/`, printable, at most 128 bytes. */
export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const agent = userAgent ?? '';
  const slash = agent.indexOf('/');
  const head = slash < 0 ? agent : agent.slice(0, slash);
  // Printable ASCII within the limit, as nearly every client sends, is the name as it is.
  if (head.length <= fieldManagerMaxLength && /^[\x20-\x7e]*$/.test(head)) return head;
  let out = '';
  for (const ch of head) {
    if (/\p{C}/u.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > fieldManagerMaxLength) break;
    out += ch;
  }
  return out;
}

/** Reset fields: the main resource of a kind with a status subresource does not own status; status owns nothing else. */
export function ignoredFields(def: ResourceDefinition, subresource: string): readonly (readonly string[])[] {
  if (subresource === '' && def.hasStatus) return [['status']];
  if (subresource === 'status') return [['spec']];
  return [];
}

export interface TrackerOptions {
  def: ResourceDefinition;
  manager: string;
  subresource: string;
  meta: PatchMeta | undefined;
  now: () => string;
}

export function fieldManagerOptions(o: TrackerOptions): FieldManagerOptions {
  const options: FieldManagerOptions = {
    manager: o.manager,
    apiVersion: apiVersionOf(o.def),
    now: o.now(),
    meta: o.meta,
    ignoreFields: ignoredFields(o.def, o.subresource),
    emptyObject: emptyObject(o.def.group, o.def.version, o.def.kind) as JsonObject,
  };
  if (o.subresource) options.subresource = o.subresource;
  if (o.subresource === 'scale') options.ownsOnly = scaleReplicasField(o.def);
  return options;
}

/** Where Scale's spec.replicas lands in the object (ScaleHandler's mappings), as FieldsV1 elements. */
function scaleReplicasField(def: ResourceDefinition): string[] {
  const path = customResourceInfo(def)?.scale?.specReplicasPath;
  return (path ? scalePathFields(path) : ['spec', 'replicas']).map((f) => `f:${f}`);
}

/**
 * Records an ordinary write's `Update` entry on `obj` in place: on an update, in a new metadata
 * object, since metadata may be shared with the live object; a create's metadata is its own (the
 * create goes on with it). As UpdateNoErrors, a failure to track drops the managed fields rather
 * than failing the write.
 */
export function fieldTracker(o: TrackerOptions): (live: KubeObject | undefined, obj: KubeObject) => void {
  return (live, obj) => {
    let entries: KubeObject['metadata']['managedFields'];
    try {
      entries = updatedManagedFields(live, obj, fieldManagerOptions(o));
    } catch {
      entries = undefined;
    }
    if (live === undefined) {
      if (entries) obj.metadata.managedFields = entries;
      else delete obj.metadata.managedFields;
      return;
    }
    // rest is this write's own copy: the entries join it in place, where `{ ...rest, managedFields }`
    // would cost ~1 us in Node 20's V8 (a key added after a leading spread takes its slow path).
    const { managedFields: _old, ...rest } = obj.metadata;
    const metadata: KubeObject['metadata'] = rest;
    if (entries) metadata.managedFields = entries;
    obj.metadata = metadata;
  };
}

/** ValidateFieldManager: at most 128 bytes, every character printable (Go's unicode.IsPrint). */
export function fieldManagerErrors(fieldManager: string): FieldError[] {
  // Printable ASCII within the limit, as nearly every client sends, needs no closer look.
  if (fieldManager.length <= fieldManagerMaxLength && /^[\x20-\x7e]*$/.test(fieldManager)) return [];
  const errors: FieldError[] = [];
  if (Buffer.byteLength(fieldManager) > fieldManagerMaxLength) errors.push(tooLong('fieldManager', fieldManagerMaxLength));
  let at = 0;
  for (const ch of fieldManager) {
    if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) {
      const code = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errors.push(invalidValue('fieldManager', fieldManager, `invalid character U+${code} (at position ${at})`));
    }
    at += Buffer.byteLength(ch);
  }
  return errors;
}

/** The error an unsuccessful apply answers with. */
export function applyError(result: Exclude<ApplyResult, { ok: true }>, def: ResourceDefinition, namespace: string, name: string): ApiError {
  if (result.kind === 'conflict') {
    return new ApiError('Conflict', result.message, {
      causes: result.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: c.message, field: c.field })),
    });
  }
  return typedPatchError(def, namespace, name, result.message);
}

/**
 * A request path (`spec.containers[0].image`) as structured-merge-diff prints it, with list-map
 * elements named by their keys: `.spec.containers[name="c"].image`.
 */
export function smdPath(path: string, obj: unknown, meta: PatchMeta | undefined): string {
  let out = '';
  let value: unknown = obj;
  let node = meta;
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (m[1] !== undefined) {
      out += `.${m[1]}`;
      value = isRecord(value) ? value[m[1]] : undefined;
      node = node?.fields?.[m[1]] ?? node?.values;
      continue;
    }
    const index = Number(m[2]);
    const item: unknown = Array.isArray(value) ? value[index] : undefined;
    const keys = node?.listType === 'map' || (node?.listType === undefined && node?.mergeKey && node.strategy?.includes('merge')) ? (node.listMapKeys ?? (node.mergeKey ? [node.mergeKey] : [])) : [];
    if (keys.length > 0 && isRecord(item)) out += `[${keys.map((k) => `${k}=${JSON.stringify(item[k] ?? (k === 'protocol' ? 'TCP' : null))}`).join(',')}]`;
    else if (node?.listType === 'set') out += `[=${JSON.stringify(item)}]`;
    else out += `[${index}]`;
    value = item;
    node = node?.items;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The typed-patch failure: fields the schema does not declare and values of the wrong type, each
 * named by its path (upstream: ObjectToTyped's ValidationErrors in a plain error, so a 500 without
 * a reason, which kubectl prints as `Error from server: failed to create typed patch object ...`).
 */
export function typedPatchFailure(def: ResourceDefinition, namespace: string, name: string, errors: readonly { path: string; message: string }[], obj: unknown, meta: PatchMeta | undefined): ApiError {
  const lines = errors.map((e) => `${smdPath(e.path, obj, meta)}: ${e.message}`);
  const detail = lines.length === 1 ? lines[0] : `errors:\n${lines.map((l) => `  ${l}`).join('\n')}`;
  return typedPatchError(def, namespace, name, detail ?? '');
}

/**
 * A merged object its Go type cannot hold: the typed patch takes any scalar where the schema says
 * int-or-string (`targetPort: false`), and the conversion to the versioned object refuses it
 * (structuredMergeManager.Apply's toVersioned; a custom UnmarshalJSON sees the value alone, so Go
 * names no struct field). A plain error upstream: 500 without a reason.
 */
export function newObjectConversionFailure(def: ResourceDefinition, namespace: string, name: string, typeError: string): ApiError {
  const gvk = `${def.group}/${def.version}, Kind=${def.kind}`;
  const detail = typeError.replace(/ into Go struct field \S+ of type /, ' into Go value of type ');
  return new ApiError(StatusReason.Unknown, `failed to convert new object (${namespace}/${name}; ${gvk}) to proper version: unable to convert unstructured object to ${gvk}: ${detail}`);
}

function typedPatchError(def: ResourceDefinition, namespace: string, name: string, detail: string): ApiError {
  return new ApiError(StatusReason.Unknown, `failed to create typed patch object (${namespace}/${name}; ${def.group}/${def.version}, Kind=${def.kind}): ${detail}`);
}
