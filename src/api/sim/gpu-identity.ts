// The identities of simulated GPUs, shared by the side that publishes them (the DRA driver) and the
// side that hands them to containers (the kubelet): the same node's GPU has the same uuid in both.
import { createHash } from 'node:crypto';

/** `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` derived from the seed: stable across restarts. */
export function deterministicUuid(seed: string): string {
  const h = createHash('sha1').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The uuid of GPU `index` of `node`, as nvidia-smi shows it. */
export function simulatedGpuUuid(node: string, index: number): string {
  return `GPU-${deterministicUuid(`${node}/gpu-${index}`)}`;
}
