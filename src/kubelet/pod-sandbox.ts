// What a pod needs before its first container: its ResourceClaims prepared by the DRA drivers, then
// its sandbox made (the RuntimeClass's handler found, an IP from the node's pod CIDR). Each failure
// leaves the pod in ContainerCreating until the pod worker's next try.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (createPodSandbox), kubelet.go (SyncPod,
// PrepareDynamicResources), cm/dra/manager.go.
import type { Container } from '../api/index.ts';
import { failedPrepareDynamicResources, prepareRetryMs, usesResourceClaims } from './dynamic-resources.ts';
import type { ContainerDevices, PreparedClaim, PreparedDevices } from './dynamic-resources.ts';
import type { PodWorkerDeps, PodWorkerView } from './pod-worker-deps.ts';

export interface PodSandboxOptions {
  deps: Pick<PodWorkerDeps, 'claims' | 'sandboxRuntimeFailure' | 'allocateIP' | 'podIPRange' | 'random' | 'metrics'>;
  /** The IP the pod has from the start: a host-network pod's node IP, or a surviving pod's. */
  podIP: string | undefined;
  /** A restarted kubelet found the pod's sandbox: containerd found its runtime handler before. */
  survived: boolean;
}

/** What a pod without claims gets injected: one shared empty map, never written. */
const noDevices: PreparedDevices = new Map();
const noClaims: readonly PreparedClaim[] = [];

export class PodSandbox {
  readonly #v: PodWorkerView;
  readonly #o: PodSandboxOptions;
  /** Set once the sandbox has its network (a host-network pod has the node's IP from the start). */
  podIP: string | undefined;
  /** containerd found the runtime handler for the pod's sandbox (a surviving pod's sandbox was made before). */
  #runtimeFound: boolean;
  #retry = false;
  /** The PLEG has relisted since the sandbox was made (an early failure is synced again 1 s on). */
  #relisted = false;
  #stopped = false;
  /** Set once PrepareResources succeeded; 'pending' while a pass or its retry wait is running. */
  #devices: PreparedDevices | 'pending' | undefined;
  #claims: readonly PreparedClaim[] = noClaims;

  constructor(view: PodWorkerView, options: PodSandboxOptions) {
    this.#v = view;
    this.#o = options;
    this.podIP = options.podIP;
    this.#runtimeFound = options.survived;
  }

  /** The sandbox is made, has its network and was not stopped. */
  get ready(): boolean {
    return !this.#stopped && this.podIP !== undefined;
  }

  /** The runtime runs the sandbox (its handler found, its network set up, not stopped). */
  get running(): boolean {
    return this.#runtimeFound && this.ready;
  }

  /** The claims PrepareResources reserved for the pod. */
  get claims(): readonly PreparedClaim[] {
    return this.#claims;
  }

  stop(): void {
    this.#stopped = true;
  }

  /** True the first time: the PLEG's relist after the sandbox was made syncs the pod again (1 s on). */
  firstRelist(): boolean {
    const first = !this.#relisted;
    this.#relisted = true;
    return first;
  }

  /** What the DRA drivers prepared for container `c` (nothing before its claims are prepared). */
  prepared(c: Readonly<Container>): ContainerDevices | undefined {
    const devices = this.#devices;
    return devices && devices !== 'pending' ? devices.get(c.name) : undefined;
  }

  /** PrepareDynamicResources: no sandbox (ContainerCreating) until every claim is reserved for the pod. */
  claimsPrepared(): boolean {
    if (this.#devices !== undefined) return this.#devices !== 'pending';
    const { claims } = this.#o.deps;
    const pod = this.#v.pod;
    if (!claims || !usesResourceClaims(pod)) return (this.#devices = noDevices), true;
    this.#devices = 'pending';
    void claims.prepare(pod).then((r) => {
      if (!this.#v.isSyncing()) return;
      if (r.ok) {
        this.#devices = r.devices;
        this.#claims = r.claims;
        return this.#v.sync();
      }
      this.#v.event(undefined, 'Warning', failedPrepareDynamicResources, r.message);
      this.#v.after(prepareRetryMs, () => {
        this.#devices = undefined;
        this.#v.sync();
      });
    });
    return false;
  }

  /**
   * RunPodSandbox: containerd finds the runtime handler the pod's RuntimeClass names, then the network
   * setup takes an IP from the node's pod CIDR (host-local IPAM). Either failing as containerd and the
   * CNI plugin do, the pod waits in ContainerCreating until the pod worker's next try.
   */
  made(): boolean {
    if (this.#runtimeFound && this.podIP !== undefined) return true;
    if (this.#retry) return false;
    let failure = this.#runtimeFound ? undefined : this.#o.deps.sandboxRuntimeFailure?.(this.#v.pod);
    this.#runtimeFound = failure === undefined;
    // A host-network pod has the node's IP from the start.
    if (failure === undefined && this.podIP === undefined) failure = this.#takePodIP();
    this.#o.deps.metrics?.sandboxCreated(failure !== undefined);
    if (failure === undefined) return true;
    this.#v.event(undefined, 'Warning', 'FailedCreatePodSandBox', failure);
    this.#retry = true;
    this.#v.after(this.#v.retryDelay(), () => {
      this.#retry = false;
      this.#v.sync();
    });
    return false;
  }

  /** The pod's IP taken; with none left, why not. */
  #takePodIP(): string | undefined {
    const { allocateIP, random, podIPRange } = this.#o.deps;
    const ip = allocateIP();
    if (ip !== undefined) {
      this.podIP = ip;
      this.#v.markDirty();
      return undefined;
    }
    return `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${random.hex(32)}": plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${podIPRange}`;
  }
}
