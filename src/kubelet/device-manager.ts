// The kubelet's device manager for NVIDIA's device plugin on nodes that expose whole GPUs as the
// extended resource nvidia.com/gpu: at admission every container asking for GPUs gets that many of
// the node's, lowest index first among the free ones; what a regular init container had is reused
// by the containers after it; a pod's GPUs are free again once it has finished. The plugin's
// Allocate answer (envvar strategy, uuid ids) names them in NVIDIA_VISIBLE_DEVICES.
// Upstream: pkg/kubelet/cm/devicemanager/manager.go (allocateContainerResources, devicesToAllocate,
// podDevices), NVIDIA/k8s-device-plugin (deviceListStrategy envvar, deviceIDStrategy uuid).
import { simulatedGpuUuid } from '../api/index.ts';
import type { Container, Pod } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';

export const nvidiaGpuResource = 'nvidia.com/gpu';

export interface PluginGpu {
  readonly index: number;
  readonly uuid: string;
  readonly productName: string;
}

/** The node's GPUs as the device plugin reports them: the same uuids the DRA driver publishes for a node's GPUs. */
export function pluginGpus(node: string, count: number, productName: string): PluginGpu[] {
  return Array.from({ length: count }, (_, index) => ({ index, uuid: simulatedGpuUuid(node, index), productName }));
}

type PodRO = DeepReadonly<Pod>;

const gpusWanted = (c: DeepReadonly<Container>): number => Number(c.resources?.limits?.[nvidiaGpuResource] ?? c.resources?.requests?.[nvidiaGpuResource] ?? 0);

export class DeviceManager {
  readonly #gpus: readonly PluginGpu[];
  /** Pod uid -> container name -> its GPUs. */
  readonly #allocated = new Map<string, Map<string, readonly PluginGpu[]>>();

  constructor(gpus: readonly PluginGpu[]) {
    this.#gpus = gpus;
  }

  /** Allocates the pod's GPUs at admission; the upstream admission error when they are not there. */
  allocate(pod: PodRO): { ok: true } | { ok: false; message: string } {
    const uid = pod.metadata.uid ?? '';
    if (this.#allocated.has(uid)) return { ok: true };
    const inUse = new Set<number>();
    for (const containers of this.#allocated.values()) for (const gpus of containers.values()) for (const g of gpus) inUse.add(g.index);
    const byContainer = new Map<string, readonly PluginGpu[]>();
    let reusable: PluginGpu[] = [];
    const take = (c: DeepReadonly<Container>): string | undefined => {
      const wanted = gpusWanted(c);
      if (!(wanted > 0)) return undefined;
      const free = this.#gpus.filter((g) => !inUse.has(g.index) || reusable.includes(g));
      const chosen = [...reusable.filter((g) => free.includes(g)), ...free.filter((g) => !reusable.includes(g))].slice(0, wanted);
      if (chosen.length < wanted) {
        return `Allocate failed due to requested number of devices unavailable for ${nvidiaGpuResource}. Requested: ${wanted}, Available: ${free.length}, which is unexpected`;
      }
      for (const g of chosen) inUse.add(g.index);
      reusable = reusable.filter((g) => !chosen.includes(g));
      byContainer.set(c.name, chosen);
      return undefined;
    };
    for (const c of pod.spec.initContainers ?? []) {
      const problem = take(c);
      if (problem) return { ok: false, message: problem };
      // A regular init container's GPUs pass to the containers after it; a sidecar keeps what it took.
      if (c.restartPolicy !== 'Always') reusable = [...reusable, ...(byContainer.get(c.name) ?? [])];
    }
    for (const c of pod.spec.containers) {
      const problem = take(c);
      if (problem) return { ok: false, message: problem };
    }
    this.#allocated.set(uid, byContainer);
    return { ok: true };
  }

  gpusOf(podUid: string, container: string): readonly PluginGpu[] | undefined {
    return this.#allocated.get(podUid)?.get(container);
  }

  release(podUid: string): void {
    this.#allocated.delete(podUid);
  }
}
