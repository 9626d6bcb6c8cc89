// Objects keyed by what users write (a ConfigMap's data key, a label, a unit, a controller's name):
// only own keys count, since a key may be named as one of Object.prototype's members.

/**
 * Sets `key` as an own property of `obj`, a JSON object. A key may be `__proto__` (a ConfigMap's or
 * Secret's data key, a custom resource's field: JSON.parse makes it an ordinary key), and assigning
 * that one would set the object's prototype instead, and the key would be lost.
 */
export function setOwn(obj: object, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else (obj as Record<string, unknown>)[key] = value;
}

/**
 * `obj[key]` when `key` is an own property of `obj`: a key from a request (a field named
 * `constructor` or `valueOf`) looked up in a table built from JSON finds nothing, rather than
 * Object.prototype's member.
 */
export function ownValue<T>(obj: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return obj !== undefined && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * A lookup table for keys that come from users (a field label, a unit, a controller's name): an
 * object without a prototype, so that `constructor` or `toString` finds nothing rather than
 * Object.prototype's member.
 */
export function lookupTable<T>(entries: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}
