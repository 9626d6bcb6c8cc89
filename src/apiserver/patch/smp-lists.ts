// List helpers of strategic merge patch: element typing, partitioning and the
// ordering rules (with $setElementOrder the final order; without it, patch items
// keep the patch's order and are interleaved with server-only items by live order,
// so a brand-new item lands before the live ones, as upstream).
// Upstream: apimachinery/pkg/util/strategicpatch/patch.go (normalizeElementOrder, mergeSortedSlice).
import { goValue } from './go-format.ts';
import { hasOwn, isJsonObject, kindOf } from './json-value.ts';
import type { JsonKind, JsonValue } from './json-value.ts';
import { errBadArgType, errNoListOfLists, errNoMergeKey, internal } from './smp-errors.ts';

export const directiveMarker = '$patch';
export const deleteDirective = 'delete';
export const replaceDirective = 'replace';
export const mergeDirective = 'merge';

/** The element kind shared by all items of the lists; throws as sliceElementType does. */
export function sliceElementType(...lists: readonly JsonValue[][]): JsonKind {
  let prev: JsonKind | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = kindOf(v);
      if (prev === undefined) {
        prev = k;
        if (k === 'array') throw errNoListOfLists();
      } else if (prev !== k) {
        throw internal(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (prev === undefined) throw internal('no elements in any of the given slices');
  return prev;
}

/** findMapInSliceBasedOnKeyValue: the index of the first map whose key equals value, or -1. */
export function findByKey(list: readonly JsonValue[], key: string, value: JsonValue): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i] as JsonValue;
    if (!isJsonObject(item)) throw internal(`value for key ${i} is not a map.`);
    if (hasOwn(item, key) && item[key] === value) return i;
  }
  return -1;
}

export function mergeKeyValue(item: JsonValue, mergeKey: string): JsonValue {
  if (!isJsonObject(item)) throw errBadArgType('map', item);
  if (!hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
  return item[mergeKey] as JsonValue;
}

function validateMergeKeyInLists(mergeKey: string, ...lists: readonly JsonValue[][]): void {
  for (const list of lists) for (const item of list) mergeKeyValue(item, mergeKey);
}

/** Splits `$patch: delete` elements from the rest. */
export function extractToDeleteItems(list: readonly JsonValue[]): { keep: JsonValue[]; toDelete: JsonValue[] } {
  const keep: JsonValue[] = [];
  const toDelete: JsonValue[] = [];
  for (const v of list) {
    if (!isJsonObject(v)) throw errBadArgType('map', v);
    if (hasOwn(v, directiveMarker) && v[directiveMarker] === deleteDirective) toDelete.push(v);
    else keep.push(v);
  }
  return { keep, toDelete };
}

function indexIn(list: readonly JsonValue[], item: JsonValue, mergeKey: string, kind: JsonKind): number {
  const valueOf = (v: JsonValue): JsonValue | undefined => (kind === 'object' ? (isJsonObject(v) ? v[mergeKey] : undefined) : v);
  const wanted = valueOf(item);
  return list.findIndex((v) => valueOf(v) === wanted);
}

/** sort.SliceStable by position in `order`; insertion sort keeps Go's result for its non-strict comparator. */
function normalizeSliceOrder(toSort: JsonValue[], order: readonly JsonValue[], mergeKey: string, kind: JsonKind): JsonValue[] {
  let items = toSort;
  let toDelete: JsonValue[] = [];
  if (kind === 'object') {
    validateMergeKeyInLists(mergeKey, toSort, [...order]);
    ({ keep: items, toDelete } = extractToDeleteItems(toSort));
  }
  const less = (a: JsonValue, b: JsonValue): boolean => {
    const ia = indexIn(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexIn(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  };
  const sorted = [...items];
  for (let i = 1; i < sorted.length; i++) {
    for (let j = i; j > 0 && less(sorted[j] as JsonValue, sorted[j - 1] as JsonValue); j--) {
      const t = sorted[j] as JsonValue;
      sorted[j] = sorted[j - 1] as JsonValue;
      sorted[j - 1] = t;
    }
  }
  return [...sorted, ...toDelete];
}

/** Inserts each server-only item (left) before the first patch item (right) that follows it in the live list. */
function mergeSortedSlice(left: JsonValue[], right: JsonValue[], serverOrder: readonly JsonValue[], mergeKey: string, kind: JsonKind): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++] as JsonValue);
    else if (j >= right.length) out.push(left[i++] as JsonValue);
    else {
      const li = indexIn(serverOrder, left[i] as JsonValue, mergeKey, kind);
      const ri = indexIn(serverOrder, right[j] as JsonValue, mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++] as JsonValue);
      else out.push(right[j++] as JsonValue);
    }
  }
  return out;
}

export function normalizeElementOrder(
  patch: JsonValue[],
  serverOnly: JsonValue[],
  patchOrder: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  mergeKey: string,
  kind: JsonKind,
): JsonValue[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** Splits merged items into those named by `by` (patch items) and the rest (server-only). */
export function partitionByPresence(
  merged: readonly JsonValue[],
  by: readonly JsonValue[],
  mergeKey: string,
): { patchItems: JsonValue[]; serverOnly: JsonValue[] } {
  const patchItems: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  if (mergeKey === '') {
    const present = new Set<JsonValue>(by);
    for (const v of merged) (present.has(v) ? patchItems : serverOnly).push(v);
    return { patchItems, serverOnly };
  }
  for (const v of merged) {
    const key = mergeKeyValue(v, mergeKey);
    (findByKey(by, mergeKey, key) >= 0 ? patchItems : serverOnly).push(v);
  }
  return { patchItems, serverOnly };
}

export function dedupeScalars(list: readonly JsonValue[]): JsonValue[] {
  return [...new Set(list)];
}

export function deleteFromSlice(current: readonly JsonValue[], toDelete: readonly JsonValue[]): JsonValue[] {
  const gone = new Set(toDelete);
  return current.filter((v) => !gone.has(v));
}
