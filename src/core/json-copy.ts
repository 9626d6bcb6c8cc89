// A deep copy of a JSON-shaped value (plain objects, arrays, scalars), several times faster than
// structuredClone for API objects. Keys set to undefined are dropped, as encoding would drop them.

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
    if (v !== undefined) out[key] = copyJson(v);
  }
  return out as T;
}
