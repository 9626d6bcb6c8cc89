// Decoded JSON values and the narrowing helpers the patch engines share.

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** Kind of a value in the sense of reflect.TypeOf after decoding: objects, lists and each scalar type differ. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export function kindOf(v: JsonValue): JsonKind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'object':
      return 'object';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default: {
      const never: never = v;
      return never;
    }
  }
}

/**
 * Structural equality of two JSON values (object key order ignored; a key set to undefined counts
 * as absent, as it does once encoded). Shared subtrees compare by identity first.
 */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  let count = 0;
  for (const k in a) {
    const v = a[k];
    if (v === undefined) continue;
    count++;
    if (!jsonEqual(v, b[k])) return false;
  }
  for (const k in b) if (b[k] !== undefined) count--;
  return count === 0;
}
