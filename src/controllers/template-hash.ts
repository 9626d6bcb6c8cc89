// pod-template-hash (Deployments) and controller-revision-hash (DaemonSets): FNV-32a over the pod
// template plus the collision count, its decimal value spelled through the safe alphabet. Go
// hashes a spew dump of the struct, which JavaScript cannot reproduce; we hash canonical JSON
// instead, so the format and stability match upstream but the values do not. StatefulSet revisions
// hash JSON bytes upstream, which core's goMapJson writes as Go does, with FNV-1 (fnv32).
// Upstream: pkg/controller/controller_utils.go (ComputeHash), apimachinery/pkg/util/rand (SafeEncodeString).
import type { PodTemplateSpec } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { sortedJson } from '../core/index.ts';

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** Each character maps to alphanums[byte % 27], as upstream (digits become 4-9 and b, c, d, f). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

const canonicalJson = (value: unknown): string => sortedJson(value, (s) => JSON.stringify(s));

/** FNV-1, 32-bit (Go's fnv.New32): multiply, then xor. */
export function fnv32(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h;
}

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
