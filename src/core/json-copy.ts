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
