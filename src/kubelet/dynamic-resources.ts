// The kubelet's DRA side: before a pod's sandbox is created, every ResourceClaim it uses must exist,
// be allocated and list the pod in status.reservedFor; then each container's environment gets the
// devices of the claims (and extended-resource requests) it references, as NVIDIA_VISIBLE_DEVICES.
// Upstream: pkg/kubelet/cm/dra/manager.go (PrepareResources, GetResources),
// pkg/kubelet/kuberuntime/kuberuntime_manager.go (SyncPod: FailedPrepareDynamicResources).
import { refs } from '../api/index.ts';
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

/** Container name -> environment the drivers inject. */
export type InjectedEnv = ReadonlyMap<string, Readonly<Record<string, string>>>;
export type PrepareOutcome = { ok: true; env: InjectedEnv } | { ok: false; message: string };

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
      return { ok: true, env: this.#env(pod, claims) };
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

  #env(pod: PodRO, claims: ReadonlyMap<string, ClaimRO>): InjectedEnv {
    const env = new Map<string, Record<string, string>>();
    const mappings = pod.status?.extendedResourceClaimStatus?.requestMappings ?? [];
    const containers: DeepReadonly<Container>[] = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
    for (const c of containers) {
      const results: DeepReadonly<Result>[] = [];
      for (const ref of c.resources?.claims ?? []) {
        const claim = claims.get(ref.name);
        for (const r of claim?.status?.allocation?.devices?.results ?? []) {
          if (!ref.request || r.request === ref.request || r.request.startsWith(`${ref.request}/`)) results.push(r);
        }
      }
      const extended = claims.get(extendedKey);
      for (const m of mappings) {
        if (m.containerName !== c.name) continue;
        for (const r of extended?.status?.allocation?.devices?.results ?? []) if (r.request === m.requestName) results.push(r);
      }
      const visible = results.filter((r) => r.driver === nvidiaDriverName).map((r) => this.#visibleName(r));
      if (visible.length > 0) env.set(c.name, { [nvidiaVisibleDevices]: [...new Set(visible)].join(',') });
    }
    return env;
  }

  /**
   * The device's uuid attribute (GPU-…, or MIG-… for a static MIG instance); a dynamic MIG device has
   * no uuid until the driver creates it, so its canonical device name stands in.
   */
  #visibleName(r: DeepReadonly<Result>): string {
    for (const slice of this.#o.slices?.byIndex(slicePoolIndex, `${r.driver}/${r.pool}`) ?? []) {
      const uuid = slice.spec.devices?.find((d) => d.name === r.device)?.attributes?.uuid?.string;
      if (uuid !== undefined) return uuid;
    }
    return r.device;
  }
}

/** Not a valid DNS label, so it never collides with a spec.resourceClaims name. */
const extendedKey = '<extended-resources>';
