// JSON merge patch (RFC 7386): objects merge, null deletes, everything else replaces.
// Inputs are never mutated.
// Upstream: gopkg.in/evanphx/json-patch.v4 merge.go (MergePatch), as the apiserver calls it.
import { setOwn } from '../../core/index.ts';
import { hasOwn, isJsonObject } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';

/**
 * A non-object patch becomes the result (nulls inside it pruned), as upstream; the
 * handler rejects a null patch itself (`Invalid JSON Patch`, 400).
 */
export function applyMergePatch(original: unknown, patch: unknown): unknown {
  const p = structuredClone(patch) as JsonValue;
  if (!isJsonObject(p)) return pruneNulls(p);
  if (!isJsonObject(original)) return pruneNulls(p);
  return mergeDocs(original, p);
}

/** Copies each object it changes; what the patch leaves alone stays shared with `live`. */
function mergeDocs(live: JsonObject, patch: JsonObject): JsonObject {
  const doc = { ...live };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = hasOwn(doc, k) ? (doc[k] as JsonValue) : null;
    if (isJsonObject(cur) && isJsonObject(v)) setOwn(doc, k, mergeDocs(cur, v));
    // A non-object patch value over an object is taken verbatim upstream; it holds no keys to prune.
    else setOwn(doc, k, isJsonObject(cur) ? v : pruneNulls(v));
  }
  return doc;
}

/** pruneNulls: drops null members of objects at any depth; null array elements stay. */
function pruneNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map((x) => (x === null ? x : pruneNulls(x)));
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) setOwn(out, k, pruneNulls(x));
    return out;
  }
  return v;
}
