// Structural equality of decoded JSON values, the semantic equality upstream's DeepEqual gives
// decoded API objects: object key order ignored, a key set to undefined counts as absent (as it
// does once encoded). Shared subtrees compare by identity first.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined) continue;
    count++;
    if (!jsonEqual(v, y[k])) return false;
  }
  for (const k in y) if (y[k] !== undefined) count--;
  return count === 0;
}
