// The kubelet's DRA side: before a pod's sandbox is created, every ResourceClaim it uses must exist,
// be allocated and list the pod in status.reservedFor; then each container's environment gets the
// devices of the claims (and extended-resource requests) it references, as NVIDIA_VISIBLE_DEVICES
// with their uuids, and the container sees those GPUs (what `nvidia-smi -L` in it lists).
// Upstream: pkg/kubelet/cm/dra/manager.go (PrepareResources, GetResources),
// pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod: FailedPrepareDynamicResources).
import { deterministicUuid, refs } from '../api/index.ts';
import type { Container, Pod, resourceV1 } from '../api/index.ts';
import type { Client, Informer } from '../client/index.ts';
import type { DeepReadonly } from '../core/index.ts';

type PodRO = DeepReadonly<Pod>;
type ClaimRO = DeepReadonly<resourceV1.ResourceClaim>;
type Result = NonNullable<NonNullable<NonNullable<resourceV1.ResourceClaimStatus['allocation']>['devices']>['results']>[number];

export const failedPrepareDynamicResources = 'FailedPrepareDynamicResources';
/** A SyncPod that stops at PrepareDynamicResources returns no error: the pod is retried at the sync frequency (1m). */
export const prepareRetryMs = 60_000;
export const nvidiaDriverName = 'gpu.nvidia.com';
export const nvidiaVisibleDevices = 'NVIDIA_VISIBLE_DEVICES';

/** What the drivers give one container: environment (their CDI edits), and the GPUs it sees as `nvidia-smi -L` lists them. */
export interface ContainerDevices {
  readonly env: Readonly<Record<string, string>>;
  readonly gpuList: readonly string[];
}
/** Container name -> its devices. */
export type PreparedDevices = ReadonlyMap<string, ContainerDevices>;
/** A ResourceClaim prepared for the pod: its uid and the drivers of its allocated devices. */
export interface PreparedClaim {
  readonly uid: string;
  readonly drivers: readonly string[];
}
export type PrepareOutcome = { ok: true; devices: PreparedDevices; claims: readonly PreparedClaim[] } | { ok: false; message: string };

/** The index the slice informer needs: driver/pool -> slices. */
export const slicePoolIndex = 'driverPool';
export const slicePoolKeys = (s: DeepReadonly<resourceV1.ResourceSlice>): string[] => [`${s.spec.driver}/${s.spec.pool?.name ?? ''}`];

export interface ClaimPreparerOptions {
  client: Client;
  /** ResourceSlices, shared by the kubelets, with the slicePoolIndex: the devices' uuid attributes. */
  slices?: Informer<resourceV1.ResourceSlice>;
}

/** Whether the pod uses any claim (spec.resourceClaims or a scheduler-made extended-resource claim). */
export function usesResourceClaims(pod: PodRO): boolean {
  return (pod.spec.resourceClaims?.length ?? 0) > 0 || pod.status?.extendedResourceClaimStatus !== undefined;
}

export class ClaimPreparer {
  readonly #o: ClaimPreparerOptions;

  constructor(options: ClaimPreparerOptions) {
    this.#o = options;
  }

  /** One PrepareResources pass: the claims are read from the API (not a cache), as upstream does. */
  async prepare(pod: PodRO): Promise<PrepareOutcome> {
    try {
      const claims = await this.#claims(pod);
      if (typeof claims === 'string') return { ok: false, message: `Failed to prepare dynamic resources: prepare dynamic resources: ${claims}` };
      const prepared = [...claims.values()].map((c) => ({ uid: c.metadata.uid ?? '', drivers: [...new Set((c.status?.allocation?.devices?.results ?? []).map((r) => r.driver))] }));
      return { ok: true, devices: this.#devices(pod, claims), claims: prepared };
    } catch (error) {
      return { ok: false, message: `Failed to prepare dynamic resources: prepare dynamic resources: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** Pod claim name (or the extended-resource claim's name) -> claim; or the first error. */
  async #claims(pod: PodRO): Promise<Map<string, ClaimRO> | string> {
    const ns = pod.metadata.namespace ?? '';
    const podName = pod.metadata.name ?? '';
    const entries: { key: string; claimName: string | undefined; mustCheckOwner: boolean }[] = [];
    for (const entry of pod.spec.resourceClaims ?? []) {
      if (entry.resourceClaimName !== undefined) entries.push({ key: entry.name, claimName: entry.resourceClaimName, mustCheckOwner: false });
      else if (entry.resourceClaimTemplateName !== undefined) {
        const status = pod.status?.resourceClaimStatuses?.find((s) => s.name === entry.name);
        if (!status) return `pod "${ns}/${podName}": ResourceClaim not created yet`;
        entries.push({ key: entry.name, claimName: status.resourceClaimName, mustCheckOwner: true });
      } else return `pod "${ns}/${podName}", spec.resourceClaim "${entry.name}": none of the supported fields are set`;
    }
    const extended = pod.status?.extendedResourceClaimStatus?.resourceClaimName;
    if (extended !== undefined) entries.push({ key: extendedKey, claimName: extended, mustCheckOwner: false });
    const out = new Map<string, ClaimRO>();
    for (const e of entries) {
      if (e.claimName === undefined) continue;
      let claim: ClaimRO;
      try {
        claim = await this.#o.client.get<resourceV1.ResourceClaim>(refs.resourceClaims, ns, e.claimName);
      } catch (error) {
        return `fetch ResourceClaim ${e.claimName}: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (e.mustCheckOwner) {
        const owner = claim.metadata.ownerReferences?.find((r) => r.controller === true);
        if (!owner || owner.uid !== pod.metadata.uid) return `ResourceClaim ${ns}/${e.claimName} was not created for pod ${ns}/${podName} (pod is not owner)`;
      }
      if (!(claim.status?.reservedFor ?? []).some((r) => r.uid === pod.metadata.uid)) {
        return `pod ${podName} (${pod.metadata.uid ?? ''}) is not allowed to use ResourceClaim ${e.claimName} (${claim.metadata.uid ?? ''})`;
      }
      out.set(e.key, claim);
    }
    return out;
  }

  #devices(pod: PodRO, claims: ReadonlyMap<string, ClaimRO>): PreparedDevices {
    const out = new Map<string, ContainerDevices>();
    const mappings = pod.status?.extendedResourceClaimStatus?.requestMappings ?? [];
    const containers: DeepReadonly<Container>[] = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
    for (const c of containers) {
      const results: { claim: ClaimRO; result: DeepReadonly<Result> }[] = [];
      for (const ref of c.resources?.claims ?? []) {
        const claim = claims.get(ref.name);
        for (const r of claim?.status?.allocation?.devices?.results ?? []) {
          if (!ref.request || r.request === ref.request || r.request.startsWith(`${ref.request}/`)) results.push({ claim: claim as ClaimRO, result: r });
        }
      }
      const extended = claims.get(extendedKey);
      for (const m of mappings) {
        if (m.containerName !== c.name) continue;
        for (const r of extended?.status?.allocation?.devices?.results ?? []) if (r.request === m.requestName) results.push({ claim: extended as ClaimRO, result: r });
      }
      const gpus = results.filter((r) => r.result.driver === nvidiaDriverName).map((r) => this.#gpu(r.claim, r.result));
      if (gpus.length === 0) continue;
      const visible = gpus.map((g) => g.mig?.uuid ?? g.gpuUuid);
      out.set(c.name, { env: { [nvidiaVisibleDevices]: [...new Set(visible)].join(',') }, gpuList: nvidiaSmiList(gpus) });
    }
    return out;
  }

  #device(r: DeepReadonly<Result>): DeepReadonly<resourceV1.Device> | undefined {
    for (const slice of this.#o.slices?.byIndex(slicePoolIndex, `${r.driver}/${r.pool}`) ?? []) {
      const device = slice.spec.devices?.find((d) => d.name === r.device);
      if (device) return device;
    }
    return undefined;
  }

  /**
   * A GPU or MIG device as the container sees it, by its uuid attribute (GPU-…, or MIG-… for a static
   * MIG instance); a dynamic MIG instance has none until the driver creates it when the claim is
   * prepared, so it gets one then.
   */
  #gpu(claim: ClaimRO, r: DeepReadonly<Result>): VisibleGpu {
    const attributes = this.#device(r)?.attributes ?? {};
    const text = (name: string): string | undefined => attributes[name]?.string;
    const productName = text('productName') ?? 'NVIDIA GPU';
    const uuid = text('uuid');
    const parent = text('parentUUID');
    if (parent === undefined) return { gpuUuid: uuid ?? r.device, productName };
    return { gpuUuid: parent, productName, mig: { profile: text('profile') ?? '', uuid: uuid ?? `MIG-${deterministicUuid(`${parent}/${r.device}/${claim.metadata.uid ?? ''}`)}` } };
  }
}

interface VisibleGpu {
  readonly gpuUuid: string;
  readonly productName: string;
  readonly mig?: { readonly profile: string; readonly uuid: string };
}

/**
 * `nvidia-smi -L` inside a container: the GPUs it sees numbered from 0, each MIG device under its
 * parent GPU numbered from 0 within it.
 */
export function nvidiaSmiList(devices: readonly VisibleGpu[]): string[] {
  const gpus = new Map<string, { productName: string; migs: { profile: string; uuid: string }[] }>();
  for (const d of devices) {
    let gpu = gpus.get(d.gpuUuid);
    if (!gpu) gpus.set(d.gpuUuid, (gpu = { productName: d.productName, migs: [] }));
    if (d.mig && !gpu.migs.some((m) => m.uuid === d.mig?.uuid)) gpu.migs.push(d.mig);
  }
  const lines: string[] = [];
  let index = 0;
  for (const [uuid, gpu] of gpus) {
    lines.push(`GPU ${index++}: ${gpu.productName} (UUID: ${uuid})`);
    gpu.migs.forEach((m, i) => lines.push(`  MIG ${m.profile.padEnd(11)} Device ${String(i).padStart(2)}: (UUID: ${m.uuid})`));
  }
  return lines;
}


/** Not a valid DNS label, so it never collides with a spec.resourceClaims name. */
const extendedKey = '<extended-resources>';
