// Schema-driven walks over objects for server-side apply: the field set an object
// sets, the comparison of two objects, the merge of an applied configuration into
// the live object, and the removal of fields. Lists follow x-kubernetes-list-type
// (map by keys, set of scalars, atomic); without one, a merge-key list is a map and
// a merge primitive list a set, as the built-in types declare.
// Upstream: structured-merge-diff typed/tofieldset.go, compare.go, merge.go, remove.go.
import type { PatchMeta } from '../../api/index.ts';
import { setOwn } from '../../core/index.ts';
import { child, emptyFields, emptySet, insertPath, sortStrings } from './field-set.ts';
import type { FieldSet } from './field-set.ts';
import { hasOwn, isJsonObject, jsonEqual } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';

/** A map list's keys are sorted as item keys spell them; `prefixes[i]` is the text before key i's value. */
type ListKind = { kind: 'map'; keys: readonly string[]; prefixes: readonly string[] } | { kind: 'set' } | { kind: 'atomic' };

export function fieldMeta(meta: PatchMeta | undefined, key: string): PatchMeta | undefined {
  return meta?.fields?.[key] ?? meta?.values;
}

/** A map key that is not a declared field is a member of sets on its own (labels, annotations, data). */
function isMapElement(meta: PatchMeta | undefined, key: string): boolean {
  return meta?.values !== undefined && meta.fields?.[key] === undefined;
}

// Patch metadata is built once per kind and lives as long as the server: each list's kind is
// worked out once, with its map keys sorted as item keys spell them.
const listKinds = new WeakMap<PatchMeta, ListKind>();
const atomicList: ListKind = { kind: 'atomic' };

function listKind(meta: PatchMeta | undefined): ListKind {
  if (meta === undefined) return atomicList;
  let kind = listKinds.get(meta);
  if (kind === undefined) {
    kind = computeListKind(meta);
    listKinds.set(meta, kind);
  }
  return kind;
}

function computeListKind(meta: PatchMeta | undefined): ListKind {
  const merge = meta?.strategy?.split(',').includes('merge') ?? false;
  switch (meta?.listType) {
    case 'map':
      return mapList(meta.listMapKeys ?? (meta.mergeKey ? [meta.mergeKey] : []));
    case 'set':
      return { kind: 'set' };
    case 'atomic':
      return { kind: 'atomic' };
    case undefined:
      if (merge && meta?.mergeKey) return mapList([meta.mergeKey]);
      return merge ? { kind: 'set' } : { kind: 'atomic' };
    default: {
      const never: never = meta?.listType as never;
      return never;
    }
  }
}

function mapList(keys: readonly string[]): ListKind {
  const sorted = [...keys].sort();
  return { kind: 'map', keys: sorted, prefixes: sorted.map((k, i) => `${i > 0 ? ',' : ''}${JSON.stringify(k)}:`) };
}

/** OpenAPI defaults of list-map key fields, applied where an element omits them (ports). */
const keyDefaults: Readonly<Record<string, JsonValue>> = { protocol: 'TCP' };

export class TypedValueError extends Error {}

/** The path element of a list item, or undefined for an atomic list. */
function itemKey(kind: ListKind, item: JsonValue, index: number, path: Label): string | undefined {
  const pe = itemElement(kind, item);
  if (pe === malformedItem) throw itemError(kind as Extract<ListKind, { kind: 'map' }>, item, index, path);
  return pe;
}

const malformedItem = Symbol('malformed list-map item');

/**
 * itemKey without the path, which only its errors need: a walk keeps its path as a stack and
 * spells it when an item is malformed. JSON.stringify of {key: value, ...} in kind.keys' (sorted)
 * order, spelled without building the object.
 */
function itemElement(kind: ListKind, item: JsonValue): string | undefined | typeof malformedItem {
  if (kind.kind === 'set') return `v:${JSON.stringify(item)}`;
  if (kind.kind !== 'map') return undefined;
  if (!isJsonObject(item)) return malformedItem;
  let out = 'k:{';
  for (let i = 0; i < kind.keys.length; i++) {
    const k = kind.keys[i] as string;
    const v = item[k] ?? keyDefaults[k];
    if (v === undefined) return malformedItem;
    out += `${kind.prefixes[i] as string}${JSON.stringify(v)}`;
  }
  return `${out}}`;
}

function itemError(kind: Extract<ListKind, { kind: 'map' }>, item: JsonValue, index: number, label: Label): TypedValueError {
  const path = typeof label === 'string' ? label : fieldsLabel(label);
  if (!isJsonObject(item)) return new TypedValueError(`${path}: element ${index}: expected map, got ${JSON.stringify(item)}`);
  const k = kind.keys.find((key) => (item[key] ?? keyDefaults[key]) === undefined) ?? '';
  return new TypedValueError(`${path}: element ${index}: associative list with keys has an element that omits key field "${k}" (and doesn't have default value)`);
}

/** List items by path element, first occurrence winning, in list order. */
function indexItems(kind: ListKind, list: readonly JsonValue[], path: Label): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  list.forEach((item, i) => {
    const pe = itemKey(kind, item, i, path) as string;
    if (!out.has(pe)) out.set(pe, item);
  });
  return out;
}

function isAtomicMap(meta: PatchMeta | undefined): boolean {
  return meta?.mapType === 'atomic';
}

const pathLabel = (path: string, key: string): string => `${path}.${key}`;

/**
 * Where a walk is, for its errors: a label built on the way down (`.spec.containers`), or the walk's
 * stack of path elements, whose field names spell the same label only when an error needs it (compare
 * steps through every field of both objects and almost never fails).
 */
type Label = string | readonly string[];

function fieldsLabel(path: readonly string[]): string {
  let out = '';
  for (const pe of path) if (pe.startsWith('f:')) out += `.${pe.slice(2)}`;
  return out;
}

/** pathLabel's text for a path kept as a stack of field names. */
const labelText = (labels: readonly string[]): string => labels.reduce(pathLabel, '');

/** ToFieldSet: leaves, empty maps/lists, atomic values and list items are members. */
export function toFieldSet(value: JsonObject, meta: PatchMeta | undefined): FieldSet {
  const set = emptySet();
  walkSet(set, value, meta, '');
  return set;
}

function walkSet(node: FieldSet, value: JsonValue, meta: PatchMeta | undefined, path: string): void {
  if (Array.isArray(value)) {
    const kind = listKind(meta);
    if (kind.kind === 'atomic' || value.length === 0) {
      node.member = true;
      return;
    }
    for (const [pe, item] of indexItems(kind, value, path)) {
      const itemNode = child(node, pe);
      itemNode.member = true;
      if (kind.kind === 'map') walkSet(itemNode, item, meta?.items, path);
    }
    return;
  }
  if (isJsonObject(value) && !isAtomicMap(meta) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) {
      const c = child(node, `f:${k}`);
      walkSet(c, v, fieldMeta(meta, k), pathLabel(path, k));
      if (isMapElement(meta, k)) c.member = true;
    }
    return;
  }
  node.member = true;
}

/**
 * `changed` is Comparison's Added and Modified in one set, the only way their users take them
 * (upstream's compare.go unions them in every caller): built in the walk, it needs no union after.
 */
export interface Comparison {
  changed: FieldSet;
  removed: FieldSet;
}

/** Compare: leaves that changed, and (for non-leaves) paths present on one side only. */
export function compare(lhs: JsonObject, rhs: JsonObject, meta: PatchMeta | undefined): Comparison {
  const c: Comparison = { changed: emptySet(), removed: emptySet() };
  walkCompare(c, [], lhs, rhs, meta);
  return c;
}

function isLeafSide(v: JsonValue, meta: PatchMeta | undefined): boolean {
  if (Array.isArray(v)) return listKind(meta).kind === 'atomic' || v.length === 0;
  if (isJsonObject(v)) return isAtomicMap(meta) || isEmptyObject(v);
  return true;
}

function isLeaf(l: JsonValue | undefined, r: JsonValue | undefined, meta: PatchMeta | undefined): boolean {
  // A null side takes the other's shape (deduceAtom): null against a list is a list with no items.
  if (l === undefined || l === null) return r === undefined || r === null || isLeafSide(r, meta);
  if (r === undefined || r === null) return isLeafSide(l, meta);
  const la = Array.isArray(l);
  const ra = Array.isArray(r);
  if (la && ra) return listKind(meta).kind === 'atomic' || (l.length === 0 && r.length === 0);
  if (la || ra) return true;
  const lo = isJsonObject(l);
  const ro = isJsonObject(r);
  if (lo && ro) return isAtomicMap(meta) || (isEmptyObject(l) && isEmptyObject(r));
  return true;
}

function isEmptyObject(v: JsonObject): boolean {
  for (const _ in v) return false;
  return true;
}

/** `path` is one stack for the whole walk: pushed and popped around each step, copied by insertPath only where a change is found. */
function walkCompare(
  c: Comparison,
  path: string[],
  l: JsonValue | undefined,
  r: JsonValue | undefined,
  meta: PatchMeta | undefined,
): void {
  // One value on both sides (a subtree shared with the live object, or an equal scalar) changed nothing.
  if (l === r) return;
  if (isLeaf(l, r, meta)) {
    if (l === undefined) insertPath(c.changed, path);
    else if (r === undefined) insertPath(c.removed, path);
    else if (!jsonEqual(l, r)) insertPath(c.changed, path);
    return;
  }
  // Compare's postItemHook: any non-leaf (list item, map, struct, list) absent on one side is itself
  // added or removed; one present as null on that side is not.
  if (l === undefined) insertPath(c.changed, path);
  if (r === undefined) insertPath(c.removed, path);
  if (Array.isArray(l) || Array.isArray(r)) {
    const kind = listKind(meta);
    const li = indexItems(kind, (l as JsonValue[] | undefined) ?? [], path);
    const ri = indexItems(kind, (r as JsonValue[] | undefined) ?? [], path);
    for (const [pe, item] of li) {
      const other = ri.get(pe);
      if (item !== other) step(c, path, pe, item, other, meta?.items);
    }
    for (const [pe, item] of ri) if (!li.has(pe)) step(c, path, pe, undefined, item, meta?.items);
    return;
  }
  const lo = (l as JsonObject | undefined) ?? {};
  const ro = (r as JsonObject | undefined) ?? {};
  for (const k in lo) {
    if (!Object.hasOwn(lo, k)) continue;
    // ro's own keys only: a map key such as `constructor` would otherwise read Object.prototype's.
    const lv = lo[k];
    const rv = Object.hasOwn(ro, k) ? ro[k] : undefined;
    // The same value on both sides (most fields of a write, shared with the live object) is
    // passed over before its path element and schema node are looked up.
    if (lv !== rv) step(c, path, fieldElement(k), lv, rv, fieldMeta(meta, k));
  }
  for (const k in ro) if (!Object.hasOwn(lo, k)) step(c, path, fieldElement(k), undefined, ro[k], fieldMeta(meta, k));
}

function step(c: Comparison, path: string[], pe: string, l: JsonValue | undefined, r: JsonValue | undefined, meta: PatchMeta | undefined): void {
  path.push(pe);
  walkCompare(c, path, l, r, meta);
  path.pop();
}

/**
 * The FieldsV1 of compare(zero, obj).added ∪ modified without the reset fields and stripped paths
 * given, in one walk: a create compares the new object with the kind's zero value, which has no
 * list items, so a create's owned set needs no comparison, copies or prune. Throws where compare
 * would (a list-map item without its keys); undefined when nothing is left; false for a root
 * compare treats otherwise.
 */
export function addedFieldsV1(
  obj: JsonObject,
  meta: PatchMeta | undefined,
  skip: ReadonlySet<string>,
  strip: StrippedFields,
  zero: JsonObject,
): Record<string, unknown> | undefined | false {
  const keys = Object.keys(obj);
  if (isAtomicMap(meta) || keys.length === 0) return false;
  return addedFields(obj, keys, meta, [], false, strip, zero, skip);
}

/** Fields never owned, by name, each with the names below it that are never owned either. */
export type StrippedFields = ReadonlyMap<string, StrippedFields | undefined>;

/**
 * An object's fields in FieldsV1 order, "." first when the object is itself a member: field
 * names sort as their `f:` elements do, and "." sorts before all of them.
 */
function addedFields(
  r: JsonObject,
  keys: string[],
  meta: PatchMeta | undefined,
  labels: string[],
  self: boolean,
  strip: StrippedFields | undefined,
  zero: JsonObject | undefined,
  skip?: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const k of sortStrings(keys)) {
    if (skip?.has(k)) continue;
    labels.push(k);
    const f = addedNode(r[k], fieldMeta(meta, k), labels, strip?.has(k) ?? false, strip?.get(k), zero !== undefined && Object.hasOwn(zero, k) ? zero[k] : undefined);
    labels.pop();
    if (!f) continue;
    out ??= self ? { '.': emptyFields } : {};
    out[fieldElement(k)] = f;
  }
  return out ?? (self ? (emptyFields as Record<string, unknown>) : undefined);
}

/**
 * walkCompare with `zero` on the left (the zero value's field here, undefined where it has none, as
 * under every list item), encoded as toFieldsV1 after the prune: a non-leaf the zero value lacks is
 * itself a member; a leaf is owned unless the zero value has it already. `labels` is the field names
 * down to here, one stack for the whole walk, spelled as compare's label only for an error.
 */
function addedNode(
  r: JsonValue | undefined,
  meta: PatchMeta | undefined,
  labels: string[],
  stripped: boolean,
  strip: StrippedFields | undefined,
  zero: JsonValue | undefined,
): Record<string, unknown> | undefined {
  // A key set to undefined is absent once encoded, as compare treats it.
  if (r === undefined) return undefined;
  if (Array.isArray(r)) {
    const kind = listKind(meta);
    if (kind.kind === 'atomic' || r.length === 0) return addedLeaf(r, stripped, zero);
    const kids: [string, Record<string, unknown>][] = [];
    // Items by path element, the first occurrence winning (indexItems, without its Map for one item).
    const seen = r.length > 1 ? new Set<string>() : undefined;
    for (let i = 0; i < r.length; i++) {
      const item = r[i] as JsonValue;
      const pe = itemElement(kind, item);
      if (pe === malformedItem) throw itemError(kind as Extract<ListKind, { kind: 'map' }>, item, i, labelText(labels));
      if (pe === undefined) continue;
      if (seen) {
        if (seen.has(pe)) continue;
        seen.add(pe);
      }
      const f = addedNode(item, meta?.items, labels, false, undefined, undefined);
      if (f) kids.push([pe, f]);
    }
    return encodeNode(zero === undefined && !stripped, kids);
  }
  if (!isJsonObject(r) || isAtomicMap(meta)) return addedLeaf(r, stripped, zero);
  const keys = Object.keys(r);
  if (keys.length === 0) return addedLeaf(r, stripped, zero);
  return addedFields(r, keys, meta, labels, zero === undefined && !stripped, strip, isJsonObject(zero) ? zero : undefined);
}

function addedLeaf(r: JsonValue, stripped: boolean, zero: JsonValue | undefined): Record<string, unknown> | undefined {
  if (stripped || (zero !== undefined && jsonEqual(zero, r))) return undefined;
  return emptyFields as Record<string, unknown>;
}

// `f:<name>` strings reused across objects: a fresh concatenation used as a property key is hashed
// and looked up in V8's string table each time, most of the cost of building FieldsV1. Bounded,
// since label and annotation keys are user data.
const fieldElements = new Map<string, string>();

function fieldElement(name: string): string {
  let pe = fieldElements.get(name);
  if (pe === undefined) {
    if (fieldElements.size >= 4096) fieldElements.clear();
    pe = `f:${name}`;
    fieldElements.set(name, pe);
  }
  return pe;
}

const byKey = (a: [string, unknown], b: [string, unknown]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function encodeNode(member: boolean, kids: [string, Record<string, unknown>][]): Record<string, unknown> | undefined {
  if (!member && kids.length === 0) return undefined;
  if (kids.length === 0) return emptyFields as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (member) out['.'] = emptyFields;
  if (kids.length > 1) kids.sort(byKey);
  for (const [k, f] of kids) out[k] = f;
  return out;
}

/** Merge the applied configuration (rhs) into the live object (lhs); rhs wins on leaves. */
export function merge(lhs: JsonValue | undefined, rhs: JsonValue, meta: PatchMeta | undefined, label = ''): JsonValue {
  if (lhs === undefined) return rhs;
  if (isJsonObject(lhs) && isJsonObject(rhs) && !isAtomicMap(meta)) {
    const out: JsonObject = { ...lhs };
    for (const [k, v] of Object.entries(rhs)) setOwn(out, k, merge(hasOwn(lhs, k) ? lhs[k] : undefined, v, fieldMeta(meta, k), pathLabel(label, k)));
    return out;
  }
  if (Array.isArray(lhs) && Array.isArray(rhs)) {
    const kind = listKind(meta);
    if (kind.kind !== 'atomic') return mergeList(kind, lhs, rhs, meta, label);
  }
  return rhs;
}

/**
 * Live-only items keep their place; shared items follow the applied order; new items
 * go where the applied list puts them (visitListItems).
 */
function mergeList(kind: ListKind, lhs: JsonValue[], rhs: JsonValue[], meta: PatchMeta | undefined, label: string): JsonValue[] {
  const l = [...indexItems(kind, lhs, label)];
  const r = [...indexItems(kind, rhs, label)];
  const lMap = new Map(l);
  const rMap = new Map(r);
  const shared = r.map(([pe]) => pe).filter((pe) => lMap.has(pe));
  let nextShared = shared.shift();
  const done = new Set<string>();
  const out: JsonValue[] = [];
  const mergeItem = (pe: string): JsonValue => {
    const rv = rMap.get(pe);
    const lv = lMap.get(pe);
    return rv === undefined ? (lv as JsonValue) : merge(lv, rv, meta?.items, label);
  };
  let li = 0;
  let ri = 0;
  while (li < l.length || ri < r.length) {
    if (li < l.length && ri < r.length) {
      const lpe = (l[li] as [string, JsonValue])[0];
      if (lpe === (r[ri] as [string, JsonValue])[0]) {
        out.push(mergeItem(lpe));
        done.add(lpe);
        li++;
        ri++;
        nextShared = shared.shift();
        continue;
      }
      if (rMap.has(lpe) && nextShared !== undefined && nextShared !== lpe) {
        li++;
        continue;
      }
    }
    if (li < l.length) {
      const lpe = (l[li] as [string, JsonValue])[0];
      if (!rMap.has(lpe)) {
        out.push(lMap.get(lpe) as JsonValue);
        li++;
        continue;
      }
      if (done.has(lpe)) {
        li++;
        continue;
      }
    }
    if (ri < r.length) {
      const rpe = (r[ri] as [string, JsonValue])[0];
      out.push(mergeItem(rpe));
      done.add(rpe);
      ri++;
      if (nextShared === rpe) nextShared = shared.shift();
    }
  }
  return out;
}

/** Removes from `value`, in place, every member path of `remove` (whole subtrees). */
export function removeItems(value: JsonValue, remove: FieldSet, meta: PatchMeta | undefined, label = ''): void {
  if (Array.isArray(value)) {
    const kind = listKind(meta);
    if (kind.kind === 'atomic') return;
    const keep: JsonValue[] = [];
    value.forEach((item, i) => {
      const node = remove.children.get(itemKey(kind, item, i, label) as string);
      if (node?.member) return;
      if (node && kind.kind === 'map') removeItems(item, node, meta?.items, label);
      keep.push(item);
    });
    value.splice(0, value.length, ...keep);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const k of Object.keys(value)) {
    const node = remove.children.get(`f:${k}`);
    if (!node) continue;
    if (node.member) delete value[k];
    else removeItems(value[k] as JsonValue, node, fieldMeta(meta, k), pathLabel(label, k));
  }
}

/** EnsureNamedFieldsAreMembers: a field with owned children counts as owned itself. */
export function withFieldsAsMembers(s: FieldSet, isRoot = true): FieldSet {
  const out: FieldSet = { member: s.member, children: new Map() };
  for (const [k, c] of s.children) {
    const n = withFieldsAsMembers(c, false);
    if (k.startsWith('f:') && c.children.size > 0) n.member = true;
    out.children.set(k, n);
  }
  if (isRoot) out.member = false;
  return out;
}
