// Strategic merge patch, server side: maps merge, null deletes, lists follow the
// field's patch strategy, and the $patch / $retainKeys / $setElementOrder /
// $deleteFromPrimitiveList directives apply. Inputs are never mutated.
// Upstream: apimachinery/pkg/util/strategicpatch/patch.go (StrategicMergeMapPatch, mergeMap, mergeSlice).
import type { PatchMeta } from '../../api/index.ts';
import { setOwn } from '../../core/index.ts';
import { goValue } from './go-format.ts';
import { hasOwn, isJsonObject, kindOf } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';
import {
  SmpError,
  errBadArgType,
  errBadPatchFormatForPrimitiveList,
  errBadPatchFormatForRetainKeys,
  errBadPatchFormatForSetElementOrderList,
  errBadPatchType,
  errNoMergeKey,
  internal,
} from './smp-errors.ts';
import type { SmpErrorKind } from './smp-errors.ts';
import {
  dedupeScalars,
  deleteDirective,
  deleteFromSlice,
  directiveMarker,
  extractToDeleteItems,
  findByKey,
  mergeDirective,
  mergeKeyValue,
  normalizeElementOrder,
  partitionByPresence,
  replaceDirective,
  sliceElementType,
} from './smp-lists.ts';

export type { SmpErrorKind } from './smp-errors.ts';

export type StrategicMergeResult = { ok: true; value: unknown } | { ok: false; kind: SmpErrorKind; message: string };

const retainKeysDirective = '$retainKeys';
const deleteFromPrimitiveListPrefix = '$deleteFromPrimitiveList';
const setElementOrderPrefix = '$setElementOrder';

export function applyStrategicMergePatch(original: unknown, patch: unknown, meta: PatchMeta | undefined): StrategicMergeResult {
  if (!isJsonObject(patch)) {
    const what = Array.isArray(patch) ? 'array' : patch === null ? 'null' : typeof patch;
    return { ok: false, kind: 'malformed', message: `json: cannot unmarshal ${what} into Go value of type map[string]interface {}` };
  }
  if (!isJsonObject(original)) return { ok: false, kind: 'malformed', message: 'invalid JSON document' };
  try {
    // mergeMap copies each map it changes and shares the rest with the original (often a frozen
    // store read); the patch is cloned because its directives are consumed in place.
    return { ok: true, value: mergeMap(original, structuredClone(patch), meta) };
  } catch (err) {
    if (err instanceof SmpError) return { ok: false, kind: err.kind, message: err.message };
    throw err;
  }
}

interface FieldStrategy {
  strategy: string;
  mergeKey: string;
}

function fieldMeta(meta: PatchMeta | undefined, key: string): PatchMeta | undefined {
  return meta?.fields?.[key] ?? meta?.values;
}

/** extractRetainKeysPatchStrategy: retainKeys only matters to clients, the rest picks merge or replace. */
function strategyOf(meta: PatchMeta | undefined): FieldStrategy {
  const parts = meta?.strategy ? meta.strategy.split(',') : [];
  const mergeKey = meta?.mergeKey ?? '';
  if (parts.length === 0) return { strategy: '', mergeKey };
  if (parts.length === 1) return { strategy: parts[0] === 'retainKeys' ? '' : (parts[0] as string), mergeKey };
  if (parts.length === 2 && parts[0] === 'retainKeys') return { strategy: parts[1] as string, mergeKey };
  if (parts.length === 2 && parts[1] === 'retainKeys') return { strategy: parts[0] as string, mergeKey };
  throw internal(`unexpected patch strategy: [${parts.join(' ')}]`);
}

function mergeMap(live: JsonObject, patch: JsonObject, meta: PatchMeta | undefined): JsonObject {
  if (hasOwn(patch, directiveMarker)) return handleDirectiveInMergeMap(patch[directiveMarker] as JsonValue, patch);
  const original = { ...live };
  applyRetainKeysDirective(original, patch);
  mergePatchIntoOriginal(original, patch, meta);

  for (const [patchKey, patchV] of Object.entries(patch)) {
    let k = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListPrefix)) {
      k = extractKey(patchKey, deleteFromPrimitiveListPrefix);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[k];
      continue;
    }
    if (!hasOwn(original, k) || kindOf(original[k] as JsonValue) !== kindOf(patchV)) {
      // A $deleteFromPrimitiveList for a list the object lacks deletes nothing.
      if (!isDeleteList) takePatchValue(original, k, patchV);
      continue;
    }
    const current = original[k] as JsonValue;
    const child = fieldMeta(meta, k);
    if (isJsonObject(current) && isJsonObject(patchV)) {
      const { strategy } = strategyOf(child);
      setOwn(original, k, strategy === replaceDirective ? cleanPatchValue(patchV) : mergeMap(current, patchV, child));
    } else if (Array.isArray(current) && Array.isArray(patchV)) {
      setOwn(original, k, mergeSliceHandler(current, patchV, child, isDeleteList));
    } else {
      setOwn(original, k, patchV);
    }
  }
  return original;
}

function takePatchValue(target: JsonObject, key: string, patchV: JsonValue): void {
  const { value, keep } = removeDirectives(discardNulls(patchV));
  if (keep) setOwn(target, key, value);
  else delete target[key];
}

function handleDirectiveInMergeMap(directive: JsonValue, patch: JsonObject): JsonObject {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return cleanPatchValue(patch) as JsonObject;
  }
  if (directive === deleteDirective) return {};
  throw errBadPatchType(directive, patch);
}

/** Clears the original's keys that `$retainKeys` does not list, after checking the patch only sets listed keys. */
function applyRetainKeysDirective(original: JsonObject, patch: JsonObject): void {
  if (!hasOwn(patch, retainKeysDirective)) return;
  const retain = patch[retainKeysDirective];
  delete patch[retainKeysDirective];
  if (!Array.isArray(retain)) throw errBadPatchFormatForRetainKeys();
  const keep = new Set<JsonValue>(retain);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(deleteFromPrimitiveListPrefix) || k.startsWith(setElementOrderPrefix)) continue;
    if (!keep.has(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) {
    if (prefix === deleteFromPrimitiveListPrefix) throw errBadPatchFormatForPrimitiveList();
    throw errBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

/**
 * Each `$setElementOrder/<f>` merges <f> now and fixes its order: listed items in the
 * directive's order, server-only items slotted in by their live position.
 */
function mergePatchIntoOriginal(original: JsonObject, patch: JsonObject, meta: PatchMeta | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix)) continue;
    const order = patch[key] as JsonValue;
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('slice', order);
    const field = extractKey(key, setElementOrderPrefix);
    const foundOriginal = hasOwn(original, field);
    const foundPatch = hasOwn(patch, field);
    const originalList = foundOriginal ? asList(original[field] as JsonValue) : [];
    const patchList = foundPatch ? asList(patch[field] as JsonValue) : [];
    const child = fieldMeta(meta, field);
    const { mergeKey } = strategyOf(child);
    validatePatchWithSetOrderList(patchList, order, mergeKey);

    let merged: JsonValue[];
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList).value as JsonValue[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, child, false);
    else continue;

    const { patchItems, serverOnly } = partitionByPresence(merged, order, mergeKey);
    const kind = sliceElementType(originalList, patchList);
    original[field] = normalizeElementOrder(patchItems, serverOnly, order, originalList, mergeKey, kind);
    delete patch[field];
  }
}

function asList(v: JsonValue): JsonValue[] {
  if (!Array.isArray(v)) throw errBadArgType('slice', v);
  return v;
}

/** The patch's items (deletions aside) must appear in the directive, in the same relative order. */
function validatePatchWithSetOrderList(patchList: JsonValue[], order: JsonValue[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey ? extractToDeleteItems(patchList).keep : patchList;
  let p = 0;
  let s = 0;
  while (p < items.length && s < order.length) {
    const item = items[p] as JsonValue;
    if (isJsonObject(item) && hasOwn(item, directiveMarker)) {
      p++;
      continue;
    }
    if (mergeKey ? mergeKeyValue(item, mergeKey) === mergeKeyValue(order[s] as JsonValue, mergeKey) : item === order[s]) p++;
    s++;
  }
  if (p < items.length && s >= order.length) {
    throw internal(`the order in patch list:\n${goValue(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${goValue(order)}`);
  }
}

function mergeSliceHandler(original: JsonValue[], patch: JsonValue[], meta: PatchMeta | undefined, isDeleteList: boolean): JsonValue[] {
  const { strategy, mergeKey } = strategyOf(meta);
  if (strategy !== mergeDirective) return cleanPatchValue(patch) as JsonValue[];
  return mergeSlice(original, patch, meta?.items, mergeKey, isDeleteList);
}

function mergeSlice(original: JsonValue[], patch: JsonValue[], itemMeta: PatchMeta | undefined, mergeKey: string, isDeleteList: boolean): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const elementKind = sliceElementType(original, patch);
  let base = original;
  let items = patch;
  let merged: JsonValue[];
  if (elementKind !== 'object') {
    if (isDeleteList) return deleteFromSlice(original, patch);
    merged = dedupeScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw internal('cannot merge lists without merge key for type struct');
    ({ base, items } = mergeSliceWithSpecialElements(original, patch, mergeKey));
    merged = mergeSliceWithoutSpecialElements(base, items, mergeKey, itemMeta);
  }
  const { patchItems, serverOnly } = partitionByPresence(merged, items, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, items, base, mergeKey, elementKind);
}

/** Applies `$patch: delete` / `$patch: replace` elements; returns the live list to merge into and the plain items. */
function mergeSliceWithSpecialElements(original: JsonValue[], patch: JsonValue[], mergeKey: string): { base: JsonValue[]; items: JsonValue[] } {
  let base = original;
  const plain: JsonValue[] = [];
  let replace = false;
  for (const v of patch) {
    const el = v as JsonObject;
    if (!hasOwn(el, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const directive = el[directiveMarker] as JsonValue;
    if (directive === deleteDirective) {
      if (!hasOwn(el, mergeKey)) throw errNoMergeKey(el, mergeKey);
      const value = el[mergeKey] as JsonValue;
      base = base.filter((item, i) => {
        if (!isJsonObject(item)) throw internal(`value for key ${i} is not a map.`);
        return !(hasOwn(item, mergeKey) && item[mergeKey] === value);
      });
    } else if (directive === replaceDirective) {
      replace = true;
    } else if (directive === mergeDirective) {
      throw internal('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, el);
    }
  }
  if (replace) return { base: plain.map((v) => cleanPatchValue(v)), items: [] };
  return { base, items: plain };
}

function mergeSliceWithoutSpecialElements(original: JsonValue[], patch: JsonValue[], mergeKey: string, itemMeta: PatchMeta | undefined): JsonValue[] {
  const merged = [...original];
  for (const v of patch) {
    const el = v as JsonObject;
    if (!hasOwn(el, mergeKey)) throw errNoMergeKey(el, mergeKey);
    const at = findByKey(merged, mergeKey, el[mergeKey] as JsonValue);
    if (at >= 0) merged[at] = mergeMap(merged[at] as JsonObject, el, itemMeta);
    else merged.push(cleanPatchValue(el));
  }
  return merged;
}

/** discardNullValuesFromPatch, in place. */
function discardNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) for (const x of v) discardNulls(x);
  else if (isJsonObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (x === null) delete v[k];
      else discardNulls(x);
    }
  }
  return v;
}

function isDirectiveKey(k: string): boolean {
  return k === retainKeysDirective || k.startsWith(setElementOrderPrefix) || k.startsWith(deleteFromPrimitiveListPrefix);
}

/**
 * removeDirectives: a map carrying `$patch` is dropped. The other directive keys are
 * dropped as well, as the typed decode after upstream's merge would.
 */
function removeDirectives(v: JsonValue): { value: JsonValue; keep: boolean } {
  if (Array.isArray(v)) {
    const out: JsonValue[] = [];
    for (const x of v) {
      const r = removeDirectives(x);
      if (r.keep) out.push(r.value);
    }
    return { value: out, keep: true };
  }
  if (isJsonObject(v)) {
    if (hasOwn(v, directiveMarker)) return { value: null, keep: false };
    for (const [k, x] of Object.entries(v)) {
      const r = isDirectiveKey(k) ? { value: null, keep: false } : removeDirectives(x);
      if (r.keep) setOwn(v, k, r.value);
      else delete v[k];
    }
  }
  return { value: v, keep: true };
}

/** A patch value taken as a whole (replace strategy, new list items): nulls and directives do not survive decoding upstream. */
function cleanPatchValue(v: JsonValue): JsonValue {
  const r = removeDirectives(discardNulls(v));
  return r.keep ? r.value : {};
}
