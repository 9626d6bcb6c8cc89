// A deep copy of a JSON-shaped value (plain objects, arrays, scalars), several times faster than
// structuredClone for API objects. Keys set to undefined are dropped, as encoding would drop them.
import { setOwn } from './own-keys.ts';

export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJson(value[i] as unknown);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) setOwn(out, key, copyJson(v));
  }
  return out as T;
}

/**
 * copyJson of a value written over `live`, a shared stored object that is never changed: where the
 * value holds the very same object as `live` at the same place, the copy holds it too instead of a
 * copy. What a write keeps of the live object then stays identical to it, which lets the field
 * manager's compare and the encoder skip it; everything else is copied, so the writer's later
 * edits of its own object cannot reach storage.
 */
export function copyJsonSharing<T>(value: T, live: unknown): T {
  if (typeof value !== 'object' || value === null) return value;
  if (value === live) return value;
  const liveObject = typeof live === 'object' && live !== null ? (live as Record<string, unknown>) : undefined;
  if (Array.isArray(value)) {
    const liveArray = Array.isArray(live) ? (live as unknown[]) : undefined;
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyJsonSharing(value[i] as unknown, liveArray?.[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) setOwn(out, key, copyJsonSharing(v, liveObject?.[key]));
  }
  return out as T;
}

/**
 * copyJsonSharing that also shares every part of the value equal to `live`'s at the same place with
 * its keys in the same order, not only the very same object: a status a controller builds anew each
 * time, or one an HTTP client sends back, mostly repeats the live one. Such a part encodes to the same
 * text either way; held as the live object's own, the walks after the copy (the field manager's
 * compare, the no-op and generation checks) skip it by identity, and the stored revision keeps no
 * second copy of it. Only for writes whose pipeline never edits what it was given in place.
 */
export function copyJsonSharingEqual<T>(value: T, live: unknown): T {
  if (typeof value !== 'object' || value === null || value === live) return value;
  if (typeof live !== 'object' || live === null) return copyJson(value);
  if (Array.isArray(value)) {
    if (!Array.isArray(live)) return copyJson(value);
    const out = new Array<unknown>(value.length);
    let same = value.length === live.length;
    for (let i = 0; i < value.length; i++) {
      const copy = copyJsonSharingEqual(value[i] as unknown, live[i]);
      out[i] = copy;
      if (copy !== live[i]) same = false;
    }
    return (same ? live : out) as T;
  }
  if (Array.isArray(live)) return copyJson(value);
  const liveObject = live as Record<string, unknown>;
  const liveKeys = Object.keys(liveObject);
  const out: Record<string, unknown> = {};
  let same = true;
  let count = 0;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    // Own keys only: a key such as `__proto__` must not find Object.prototype's.
    const own = Object.hasOwn(liveObject, key);
    const at = own ? liveObject[key] : undefined;
    const copy = copyJsonSharingEqual(v, at);
    setOwn(out, key, copy);
    if (same && (!own || copy !== at || liveKeys[count] !== key)) same = false;
    count++;
  }
  return (same && count === liveKeys.length ? live : out) as T;
}
