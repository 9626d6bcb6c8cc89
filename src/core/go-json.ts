// JSON as Go's encoding/json writes a value decoded into map[string]interface{}: object keys sorted,
// <, >, &, U+2028 and U+2029 escaped as \u sequences, \b and \f spelled \u0008 and \u000c.
// Upstream: encoding/json (Marshal, HTMLEscape), what hashes and annotations built from JSON carry.

/** JSON with object keys sorted, strings written by `quote`. */
export function sortedJson(value: unknown, quote: (s: string) => string): string {
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => sortedJson(v, quote)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${quote(k)}:${sortedJson(v, quote)}`).join(',')}}`;
}

const goEscapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029', '\\b': '\\u0008', '\\f': '\\u000c' };

// JSON.stringify's string, with what Go writes otherwise (escape pairs are matched whole, so an escaped
// backslash before a b stays as it is).
const goString = (s: string): string => JSON.stringify(s).replace(/\\.|[<>&\u2028\u2029]/g, (c) => goEscapes[c] ?? c);

/** Go's json.Marshal of a value decoded into map[string]interface{}. */
export const goMapJson = (value: unknown): string => sortedJson(value, goString);

/** How encoding/json's UnmarshalTypeError names a JSON value: `json: cannot unmarshal <this> into ...`. */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'object') return 'object';
  return typeof value;
}
