// managedFields bookkeeping: decoding entries into per-manager field sets, the
// ownership transfer of a write, and encoding back in upstream's order. Ordinary
// writes (create, update, non-apply patch) record `Update` entries here.
// Upstream: apiserver/pkg/endpoints/handlers/fieldmanager (managedfields/internal: managedfields.go,
// managedfieldsupdater.go, stripmeta.go, skipnonapplied.go) and structured-merge-diff merge/update.go.
import type { PatchMeta } from '../../api/index.ts';
import type { KubeObject, ManagedFieldsEntry } from '../../core/index.ts';
import { difference, emptyFields, emptySet, fieldsV1Source, fromFieldsV1, insertPath, intersection, isEmptySet, setEquals, toFieldsV1, union, withoutPath } from './field-set.ts';
import type { FieldSet } from './field-set.ts';
import type { JsonObject, JsonValue } from './json-value.ts';
import { jsonEqual } from './json-value.ts';
import { addedFieldsV1, compare } from './typed-value.ts';
import type { StrippedFields } from './typed-value.ts';

/** One manager's ownership: the identity fields of its entry and its set. */
export interface ManagerFields {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
}

export interface FieldManagerOptions {
  manager: string;
  /** The version the request speaks, e.g. `apps/v1`. */
  apiVersion: string;
  /** RFC 3339 seconds, from the server's Clock: `2024-05-01T10:00:00Z`. */
  now: string;
  meta: PatchMeta | undefined;
  subresource?: string;
  /** Top-level fields this endpoint does not own (reset fields), e.g. [['status']] for the main resource. */
  ignoreFields?: readonly (readonly string[])[];
  /** What a create is compared against: the kind's zero value (api's emptyObject); {} when absent, as for custom resources. */
  emptyObject?: JsonObject;
  /**
   * The one field the writer can come to own (its FieldsV1 path): a write through /scale owns the replicas
   * field and not the maps created on the way to it, as ScaleHandler.ToParent maps Scale's spec.replicas.
   */
  ownsOnly?: readonly string[];
}

/** Never owned by anyone: identity and server-set metadata (stripMetaManager). */
const strippedPaths: readonly (readonly string[])[] = [
  ['apiVersion'],
  ['kind'],
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'creationTimestamp'],
  ['metadata', 'selfLink'],
  ['metadata', 'uid'],
  ['metadata', 'clusterName'],
  ['metadata', 'generation'],
  ['metadata', 'managedFields'],
  ['metadata', 'resourceVersion'],
];

// Built once: difference() only reads it.
let stripSet: FieldSet | undefined;

export function stripMeta(s: FieldSet): FieldSet {
  if (!stripSet) {
    stripSet = emptySet();
    for (const p of strippedPaths) insertPath(stripSet, p.map((f) => `f:${f}`));
  }
  return difference(s, stripSet);
}

/** Drops the ignored fields and everything below them. */
export function withoutIgnored(s: FieldSet, ignore: readonly (readonly string[])[] | undefined): FieldSet {
  if (!ignore?.length) return s;
  let out = s;
  for (const p of ignore) out = withoutPath(out, p.map((f) => `f:${f}`));
  return out;
}

/** BuildManagerIdentifier: Apply entries are one per manager; Update entries one per manager and version. */
export function managerKey(m: Pick<ManagerFields, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  // JSON of {manager, operation, apiVersion?, subresource?} in that order (conflicts sort by it), spelled directly.
  const version = m.operation === 'Apply' ? '' : `,"apiVersion":${JSON.stringify(m.apiVersion)}`;
  const subresource = m.subresource ? `,"subresource":${JSON.stringify(m.subresource)}` : '';
  return `{"manager":${JSON.stringify(m.manager)},"operation":${JSON.stringify(m.operation)}${version}${subresource}}`;
}

export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Map<string, ManagerFields> {
  const out = new Map<string, ManagerFields>();
  for (const e of entries ?? []) {
    const m: ManagerFields = {
      manager: e.manager ?? '',
      operation: e.operation ?? 'Update',
      apiVersion: e.apiVersion ?? '',
      set: fromFieldsV1(e.fieldsV1),
    };
    if (e.time !== undefined) m.time = e.time;
    if (e.subresource) m.subresource = e.subresource;
    out.set(managerKey(m), m);
  }
  return out;
}

/**
 * FieldsV1 objects encodeManagedFields wrote: each holds a set already stripped (stripMeta) and not
 * empty. A manager a write leaves alone decodes to one of them (stored objects keep their entries'
 * objects from one write to the next), and then needs neither stripping nor the emptiness check,
 * which would each expand the decoded set's first levels.
 */
const strippedSources = new WeakSet<object>();

/** Whether `s` is known to be stripped and not empty without looking into it. */
function isStrippedSet(s: FieldSet): boolean {
  const source = fieldsV1Source(s);
  return source !== undefined && strippedSources.has(source);
}

/** Entries sorted as upstream: Apply before Update, then by time, manager, version, subresource. */
export function encodeManagedFields(managers: Map<string, ManagerFields>): ManagedFieldsEntry[] {
  const entries: ManagedFieldsEntry[] = [];
  for (const m of managers.values()) {
    const stripped = isStrippedSet(m.set);
    const set = stripped ? m.set : stripMeta(m.set);
    if (!stripped && isEmptySet(set)) continue;
    const e: ManagedFieldsEntry = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
    if (m.time !== undefined) e.time = m.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = toFieldsV1(set);
    // A set with only its root as member encodes as the shared empty leaf: never marked. A kept
    // entry's FieldsV1 is marked already (a WeakSet add costs as much again as its lookup).
    if (e.fieldsV1 !== emptyFields && !(stripped && e.fieldsV1 === fieldsV1Source(set))) strippedSources.add(e.fieldsV1);
    if (m.subresource) e.subresource = m.subresource;
    entries.push(e);
  }
  // By insertion, stable as Array.prototype.sort: an object has a few entries, and the built-in
  // sort copies the array twice for every write.
  for (let i = 1; i < entries.length; i++) {
    const e = entries[i] as ManagedFieldsEntry;
    let j = i - 1;
    for (; j >= 0 && entryOrder(entries[j] as ManagedFieldsEntry, e) > 0; j--) entries[j + 1] = entries[j] as ManagedFieldsEntry;
    entries[j + 1] = e;
  }
  return entries;
}

const seconds = (t: string | undefined): number => (t ? Math.floor(Date.parse(t) / 1000) : 0);
const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Times as seconds apart, as upstream orders them. Two in the form the server writes
 * (`2026-12-07T17:08:25Z`, fixed width, UTC) order as their text, without two Date.parse calls.
 */
function timeOrder(p: string | undefined, q: string | undefined): number {
  if (p === q) return 0;
  if (p !== undefined && q !== undefined && isUtcSeconds(p) && isUtcSeconds(q)) return order(p, q);
  return seconds(p) - seconds(q);
}

const utcSeconds = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const isUtcSeconds = (t: string): boolean => t.length === 20 && utcSeconds.test(t);

function entryOrder(p: ManagedFieldsEntry, q: ManagedFieldsEntry): number {
  return (
    order(p.operation ?? '', q.operation ?? '') ||
    timeOrder(p.time, q.time) ||
    order(p.manager ?? '', q.manager ?? '') ||
    order(p.apiVersion ?? '', q.apiVersion ?? '') ||
    order(p.subresource ?? '', q.subresource ?? '')
  );
}

export function withoutManagedFields(obj: KubeObject | undefined): JsonObject {
  if (!obj) return {};
  // A loop rather than a rest pattern, which V8 runs as a slower runtime call; every write does this.
  const metadata: JsonObject = {};
  const from = obj.metadata as JsonObject;
  for (const k in from) if (k !== 'managedFields') metadata[k] = from[k] as JsonValue;
  return { ...(obj as JsonObject), metadata };
}

/**
 * The other managers lose what this write changes (added or modified) and what it
 * removes; returns the conflicting sets per manager, before they are taken.
 */
export function transferOwnership(
  managers: Map<string, ManagerFields>,
  writerKey: string,
  lhs: JsonObject,
  rhs: JsonObject,
  meta: PatchMeta | undefined,
): { conflicts: Map<string, FieldSet>; changed: FieldSet; removed: FieldSet } {
  const { changed, removed } = compare(lhs, rhs, meta);
  const conflicts = new Map<string, FieldSet>();
  for (const [key, m] of managers) {
    if (key === writerKey) continue;
    const clash = intersection(m.set, changed);
    if (!isEmptySet(clash)) conflicts.set(key, clash);
  }
  return { conflicts, changed, removed };
}

export function takeFrom(managers: Map<string, ManagerFields>, writerKey: string, taken: Map<string, FieldSet>, removed: FieldSet): void {
  for (const [key, m] of managers) {
    if (key === writerKey) continue;
    m.set = difference(difference(m.set, taken.get(key) ?? emptySet()), removed);
    if (!isStrippedSet(m.set) && isEmptySet(stripMeta(m.set))) managers.delete(key);
  }
}

/**
 * Records an ordinary write by `manager` (operation Update): it owns what it changed,
 * and other managers lose it. Managed fields sent with the new object win over the
 * live ones (clients may edit them), except on subresources.
 */
export function updateManagedFields(live: KubeObject | undefined, updated: KubeObject, options: FieldManagerOptions): KubeObject {
  const sent = updated.metadata.managedFields;
  const base = sent && sent.length > 0 && !options.subresource ? sent : live?.metadata.managedFields;
  const rhs = withoutManagedFields(updated);
  if (!live && !base?.length) {
    const created = createdEntry(rhs, options);
    if (created !== false) {
      // rhs and its metadata are withoutManagedFields' fresh copies: the entry joins them in place.
      const out = rhs as unknown as KubeObject;
      if (created) out.metadata.managedFields = [created];
      else delete out.metadata.managedFields;
      return out;
    }
  }
  const managers = decodeManagedFields(base);
  const lhs = live ? withoutManagedFields(live) : (options.emptyObject ?? {});
  const writer: ManagerFields = { manager: options.manager, operation: 'Update', apiVersion: options.apiVersion, set: emptySet() };
  if (options.subresource) writer.subresource = options.subresource;
  const differs = recordUpdate(managers, writer, lhs, rhs, options);
  return finish(live, rhs, managers, lhs, differs);
}

/**
 * updateManagedFields' managedFields alone, for a writer that keeps only them. A create that brings
 * none has nothing to leave out of the walk, so its entry is built from the object as it is, not
 * from a copy without them.
 */
export function updatedManagedFields(live: KubeObject | undefined, updated: KubeObject, options: FieldManagerOptions): KubeObject['metadata']['managedFields'] {
  if (!live && updated.metadata.managedFields === undefined) {
    const created = createdEntry(updated as unknown as JsonObject, options);
    if (created !== false) return created ? [created] : undefined;
  }
  return updateManagedFields(live, updated, options).metadata.managedFields;
}

// strippedPaths as the walk of a create's fields takes them: top-level fields, and metadata's.
const strippedOnCreate: StrippedFields = new Map([
  ['apiVersion', undefined],
  ['kind', undefined],
  ['metadata', new Map(strippedPaths.filter((p) => p.length === 2).map((p) => [p[1] as string, undefined]))],
]);

/**
 * The entry a create records when no managed fields come with it: the writer owns every field,
 * so its FieldsV1 is built in one walk instead of compared, transferred, copied and pruned.
 * Same entry as recordUpdate + finish (managed-fields.test.ts checks); false when the general
 * path is needed.
 */
function createdEntry(rhs: JsonObject, options: FieldManagerOptions): ManagedFieldsEntry | undefined | false {
  const ignore = options.ignoreFields ?? [];
  if (ignore.some((p) => p.length !== 1)) return false;
  const fields = addedFieldsV1(rhs, options.meta, new Set(ignore.map((p) => p[0] as string)), strippedOnCreate, options.emptyObject ?? {});
  if (fields === false || fields === undefined) return fields;
  const e: ManagedFieldsEntry = { manager: options.manager, operation: 'Update', apiVersion: options.apiVersion, time: options.now, fieldsType: 'FieldsV1', fieldsV1: fields };
  if (options.subresource) e.subresource = options.subresource;
  return e;
}

/**
 * Applies one Update to the manager map in place (also used for before-first-apply). True when
 * the comparison found the objects different, which only unequal objects give.
 */
export function recordUpdate(managers: Map<string, ManagerFields>, writer: ManagerFields, lhs: JsonObject, rhs: JsonObject, options: FieldManagerOptions): boolean {
  const key = managerKey(writer);
  const { conflicts, changed, removed } = transferOwnership(managers, key, lhs, rhs, options.meta);
  const differs = !isEmptySet(changed) || !isEmptySet(removed);
  takeFrom(managers, key, conflicts, removed);
  const owned = ownable(stripMeta(withoutIgnored(changed, options.ignoreFields)), options.ownsOnly);
  const previous = managers.get(key);
  // The writer loses what it removed and what it changed without owning (its ignored and stripped
  // fields), as the others do, and keeps the rest as the very sets it had: a status writer that
  // rewrites the fields it owns keeps its decoded entry, whose FieldsV1 is then reused.
  const kept = previous && difference(difference(previous.set, removed), difference(changed, owned));
  if (isEmptySet(owned)) {
    if (!previous || !kept) return differs;
    if (isEmptySet(stripMeta(kept))) managers.delete(key);
    else previous.set = kept;
    return differs;
  }
  // Spelled out: a key added after a leading spread takes V8's slow path (~1 us in Node 20), and
  // every write that owns something new comes here.
  const next: ManagerFields = { manager: writer.manager, operation: writer.operation, apiVersion: writer.apiVersion, time: options.now, set: kept ? union(kept, owned) : owned };
  if (writer.subresource) next.subresource = writer.subresource;
  managers.set(key, next);
  return differs;
}

function ownable(changed: FieldSet, only: readonly string[] | undefined): FieldSet {
  if (!only) return changed;
  const path = emptySet();
  insertPath(path, only);
  return intersection(changed, path);
}

/**
 * Encodes managers into the object; a write that changed nothing but timestamps keeps the live
 * entries. `differs` says the caller's comparison already found the object changed, which spares
 * the whole-object equality walk (every status write that changes something).
 */
export function finish(live: KubeObject | undefined, obj: JsonObject, managers: Map<string, ManagerFields>, liveFields?: JsonObject, differs = false): KubeObject {
  const entries = encodeManagedFields(managers);
  const liveEntries = live?.metadata.managedFields;
  const out = obj as unknown as KubeObject;
  if (live && liveEntries && !differs && jsonEqual(liveFields ?? withoutManagedFields(live), obj) && sameIgnoringTime(liveEntries, entries)) {
    out.metadata = { ...out.metadata, managedFields: liveEntries };
    return out;
  }
  out.metadata = { ...out.metadata };
  if (entries.length > 0) out.metadata.managedFields = entries;
  else delete out.metadata.managedFields;
  return out;
}

function sameIgnoringTime(a: readonly ManagedFieldsEntry[], b: readonly ManagedFieldsEntry[]): boolean {
  const byKey = (list: readonly ManagedFieldsEntry[]): Map<string, FieldSet> =>
    new Map([...decodeManagedFields(list)].map(([k, m]) => [k, m.set]));
  const x = byKey(a);
  const y = byKey(b);
  if (x.size !== y.size) return false;
  for (const [k, s] of x) {
    const t = y.get(k);
    if (!t || !setEquals(s, t)) return false;
  }
  return true;
}
