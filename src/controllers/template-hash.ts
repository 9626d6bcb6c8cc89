// pod-template-hash (Deployments) and controller-revision-hash (DaemonSets): FNV-32a over the pod
// template plus the collision count, its decimal value spelled through the safe alphabet. Go
// hashes a spew dump of the struct, which JavaScript cannot reproduce; we hash canonical JSON
// instead, so the format and stability match upstream but the values do not. StatefulSet revisions
// hash JSON bytes upstream, which goMapJson writes as Go does, with FNV-1 (fnv32).
// Upstream: pkg/controller/controller_utils.go (ComputeHash), apimachinery/pkg/util/rand (SafeEncodeString).
import type { PodTemplateSpec } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** Each character maps to alphanums[byte % 27], as upstream (digits become 4-9 and b, c, d, f). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

/** JSON with object keys sorted, strings written by `quote`. */
function sortedJson(value: unknown, quote: (s: string) => string): string {
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => sortedJson(v, quote)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${quote(k)}:${sortedJson(v, quote)}`).join(',')}}`;
}

const canonicalJson = (value: unknown): string => sortedJson(value, (s) => JSON.stringify(s));

/** FNV-1, 32-bit (Go's fnv.New32): multiply, then xor. */
export function fnv32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h;
}

const goEscapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029', '\\b': '\\u0008', '\\f': '\\u000c' };

// JSON.stringify's string, with what Go writes otherwise: <, >, &, U+2028, U+2029 as \u escapes, and \b, \f spelled
// \u0008, \u000c (escape pairs are matched whole, so an escaped backslash before a b stays as it is).
const goString = (s: string): string => JSON.stringify(s).replace(/\\.|[<>&\u2028\u2029]/g, (c) => goEscapes[c] ?? c);

/** Go's json.Marshal of a value decoded into map[string]interface{} (keys sorted): the bytes upstream hashes a ControllerRevision's data from. */
export const goMapJson = (value: unknown): string => sortedJson(value, goString);

export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

export function computeHash(template: DeepReadonly<PodTemplateSpec>, collisionCount: number | undefined): string {
  let h = fnv32a(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount !== undefined) {
    // Upstream writes the count as 8 bytes: uint32 little-endian, then four zero bytes.
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}
