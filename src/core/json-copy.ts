// A deep copy of a JSON-shaped value (plain objects, arrays, scalars), several times faster than
// structuredClone for API objects. Keys set to undefined are dropped, as encoding would drop them.

/**
 * Sets `key` as an own property of `obj`, a JSON object. A key may be `__proto__` (a ConfigMap's or
 * Secret's data key, a custom resource's field: JSON.parse makes it an ordinary key), and assigning
 * that one would set the object's prototype instead, and the key would be lost.
 */
export function setOwn(obj: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else (obj as Record<string, unknown>)[key] = value;
}

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
 * A lookup table for keys that come from users (a field label, a unit, a controller's name): an
 * object without a prototype, so that `constructor` or `toString` finds nothing rather than
 * Object.prototype's member.
 */
export function lookupTable<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}
