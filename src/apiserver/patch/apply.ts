// Server-side apply: merge the applied configuration into the live object, drop the
// fields this manager applied last time and no longer applies (unless someone else
// owns them), and refuse to change another manager's field unless forced (or, for kubectl's own
// apply, unless its client-side apply set it last: last-applied.ts).
// Upstream: structured-merge-diff merge/update.go (Updater.Apply, prune), apiserver
// managedfields/internal (structuredmerge.go, conflict.go, skipnonapplied.go).
import type { KubeObject } from '../../core/index.ts';
import { setOwn } from '../../core/index.ts';
import { difference, emptySet, intersection, isEmptySet, memberPaths, pathString, union } from './field-set.ts';
import type { FieldSet } from './field-set.ts';
import { isJsonObject } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';
import {
  decodeManagedFields,
  finish,
  managerKey,
  recordUpdate,
  takeFrom,
  transferOwnership,
  withoutIgnored,
  withoutManagedFields,
} from './managed-fields.ts';
import type { FieldManagerOptions, ManagerFields } from './managed-fields.ts';
import { TypedValueError, merge, removeItems, toFieldSet, withFieldsAsMembers } from './typed-value.ts';
import { allowedFromLastApplied, syncLastApplied, upgradingManager } from './last-applied.ts';

export interface ApplyOptions extends FieldManagerOptions {
  force: boolean;
}

export interface ApplyConflict {
  manager: string;
  /** `.spec.replicas` */
  field: string;
  /** The cause message: `conflict with "kubectl-client-side-apply" using apps/v1`. */
  message: string;
}

/**
 * - conflict: 409 Conflict with `message` and one FieldManagerConflict cause per conflict
 *   (`{reason:"FieldManagerConflict", message, field}`), as NewApplyConflict;
 * - invalid: the applied configuration cannot be typed (a list-map element without its key);
 *   upstream fails the request with `failed to create typed patch object (...): <message>`.
 */
export type ApplyResult =
  | { ok: true; object: KubeObject }
  | { ok: false; kind: 'conflict'; message: string; conflicts: ApplyConflict[] }
  | { ok: false; kind: 'invalid'; message: string; conflicts: [] };

/** The manager that owns every field of an object created before any apply. */
export const beforeFirstApplyManager = 'before-first-apply';

export function applyServerSide(live: KubeObject | undefined, applied: KubeObject, options: ApplyOptions): ApplyResult {
  try {
    return apply(live, applied, options);
  } catch (err) {
    if (err instanceof TypedValueError) return { ok: false, kind: 'invalid', message: err.message, conflicts: [] };
    throw err;
  }
}

function apply(live: KubeObject | undefined, applied: KubeObject, options: ApplyOptions): ApplyResult {
  const { meta } = options;
  const managers = decodeManagedFields(live?.metadata.managedFields);
  const lhs = withoutManagedFields(live);
  if (live && managers.size === 0) {
    // skipNonAppliedManager: fields that predate tracking belong to before-first-apply.
    recordUpdate(managers, { manager: beforeFirstApplyManager, operation: 'Update', apiVersion: options.apiVersion, set: emptySet() }, {}, lhs, options);
  }
  const config = dropNulls(withoutManagedFields(applied)) as JsonObject;
  const applier: ManagerFields = { manager: options.manager, operation: 'Apply', apiVersion: options.apiVersion, time: options.now, set: emptySet() };
  if (options.subresource) applier.subresource = options.subresource;
  const key = managerKey(applier);
  const lastSet = managers.get(key)?.set;

  applier.set = withoutIgnored(toFieldSet(config, meta), options.ignoreFields);
  managers.set(key, applier);
  let merged = merge(lhs, config, meta) as JsonObject;
  if (options.ignoreFields?.length) merged = keepIgnored(merged, lhs, options.ignoreFields);
  if (lastSet && !isEmptySet(lastSet)) prune(merged, lastSet, managers, options);

  const { conflicts, removed } = transferOwnership(managers, key, lhs, merged, meta);
  if (conflicts.size > 0 && !options.force) {
    // kubectl's own apply takes over, without a conflict, what its client-side apply last set and nobody changed since.
    const remaining = options.manager === upgradingManager ? withoutFields(conflicts, allowedFromLastApplied(lhs, options.apiVersion, meta)) : conflicts;
    if (remaining.size > 0) return conflictResult(remaining, managers);
  }
  takeFrom(managers, key, conflicts, removed);
  const object = finish(live, merged, managers);
  if (options.manager === upgradingManager) syncLastApplied(object, applied);
  return { ok: true, object };
}

/** The conflicts left once `allowed` is set aside, by manager. */
function withoutFields(conflicts: Map<string, FieldSet>, allowed: FieldSet): Map<string, FieldSet> {
  const out = new Map<string, FieldSet>();
  for (const [key, set] of conflicts) {
    const left = difference(set, allowed);
    if (!isEmptySet(left)) out.set(key, left);
  }
  return out;
}

/** Removes what the applier owned last time, no longer applies, and nobody else owns (prune). */
function prune(merged: JsonObject, lastSet: FieldSet, managers: Map<string, ManagerFields>, options: ApplyOptions): void {
  let owned = emptySet();
  for (const m of managers.values()) owned = union(owned, m.set);
  const candidates = intersection(withFieldsAsMembers(lastSet), withFieldsAsMembers(toFieldSet(merged, options.meta)));
  const remove = difference(candidates, withFieldsAsMembers(owned));
  removeItems(merged, remove, options.meta);
}

/** Reset fields (e.g. status on the main resource) keep their live value whatever the configuration says. */
function keepIgnored(merged: JsonObject, live: JsonObject, ignore: readonly (readonly string[])[]): JsonObject {
  const out = structuredClone(merged);
  for (const path of ignore) {
    let from: JsonValue | undefined = live;
    let to: JsonObject = out;
    for (const f of path.slice(0, -1)) {
      from = isJsonObject(from) ? from[f] : undefined;
      const next = to[f];
      if (!isJsonObject(next)) {
        if (from === undefined) break;
        setOwn(to, f, {});
      }
      to = to[f] as JsonObject;
    }
    const last = path[path.length - 1] as string;
    const value = isJsonObject(from) ? from[last] : undefined;
    if (value === undefined) delete to[last];
    else setOwn(to, last, value);
  }
  return out;
}

function dropNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) setOwn(out, k, dropNulls(x));
    return out;
  }
  return v;
}

/** printManager: Update owners are named with their version; a subresource is named too. */
function printManager(m: ManagerFields): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s = `${s} with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === 'Update' ? `${s} using ${m.apiVersion}` : s;
}

function conflictResult(conflicts: Map<string, FieldSet>, managers: Map<string, ManagerFields>): ApplyResult {
  const list: ApplyConflict[] = [];
  const byManager = new Map<string, { printed: string; fields: string[] }>();
  for (const key of [...conflicts.keys()].sort()) {
    const m = managers.get(key) as ManagerFields;
    const printed = printManager(m);
    const fields = memberPaths(conflicts.get(key) as FieldSet).map(pathString);
    byManager.set(key, { printed, fields });
    for (const field of fields) list.push({ manager: m.manager, field, message: `conflict with ${printed}` });
  }
  let message: string;
  if (list.length === 1) {
    const only = list[0] as ApplyConflict;
    message = `Apply failed with 1 conflict: ${only.message}: ${only.field}`;
  } else {
    const lines: string[] = [];
    for (const { printed, fields } of byManager.values()) {
      lines.push(`conflicts with ${printed}:`);
      for (const f of fields) lines.push(`- ${f}`);
    }
    message = `Apply failed with ${list.length} conflicts: ${lines.join('\n')}`;
  }
  return { ok: false, kind: 'conflict', message, conflicts: list };
}
