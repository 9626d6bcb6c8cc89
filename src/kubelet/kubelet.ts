// One simulated kubelet: the node agent plus a pod worker per pod bound to the node. Pods arrive from
// a pod informer shared by every kubelet (indexed by spec.nodeName); each is admitted once, then run.
// Upstream: pkg/kubelet/kubelet.go (HandlePodAdditions, canAdmitPod, rejectPod).
import { PartitionGate, gatedClient } from './partition.ts';
import { refs } from '../api/index.ts';
import type { Node, Pod } from '../api/index.ts';
import type { Client, Informer } from '../client/index.ts';
import type { Clock, KubeObject, Random } from '../core/index.ts';
import { formatTime, isApiError } from '../core/index.ts';
import { admitPod } from './admission.ts';
import { DeviceManager, pluginGpus } from './device-manager.ts';
import { compareResizePriority, decideResize, resizeOperations } from './allocation.ts';
import type { FeatureGates, ResourceAmounts } from '../api/index.ts';
import { Backoff } from './backoff.ts';
import { EventRecorder } from './events.ts';
import { NodeAgent } from './node-agent.ts';
import { gpuProductName, nodeInternalIP, nodePodCIDRBase } from './node-object.ts';
import type { NodePoolSpec } from './node-object.ts';
import { PodWorker } from './pod-worker.ts';
import { informerDnsView } from './cluster-dns.ts';
import type { ClusterDnsView } from './cluster-dns.ts';
import { VolumeMounter, mountsSource } from './volumes.ts';
import { VolumeSourceIndex } from './volume-source-index.ts';
import { ClaimPreparer } from './dynamic-resources.ts';
import type { ClaimPreparerOptions } from './dynamic-resources.ts';
import type { VolumeSources } from './volumes.ts';
import type { DeepReadonlyPod } from './types.ts';
import { poolRuntimeHandlers, sandboxRuntimeFailure } from './runtime-handlers.ts';
import { nodeImages } from './images.ts';
import { KubeletVersionSkewError, hasInPlaceResize, hasSupplementalGroupsPolicy, kubeletVersionSkewProblem } from './version-skew.ts';
import { statusSyncPeriodMs } from './status-writer.ts';
import { survivingPod } from './surviving-containers.ts';
import { ImageManager } from './image-manager.ts';
import { EvictionManager } from './eviction-manager.ts';
import type { MemoryObservation, PodDisk, PodMemory } from './eviction.ts';
import { resourceAmountOf } from './quantities.ts';
import { KubeletMetrics } from './kubelet-metrics.ts';
import { configzText } from './kubelet-config.ts';
import type { ContainerStateLabel, KubeletGauges, ResizeRetryTrigger } from './kubelet-metrics.ts';

export interface KubeletOptions {
  client: Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  name: string;
  ordinal: number;
  pool: NodePoolSpec;
  /** The API server's version (config kubernetesVersion). */
  serverVersion: string;
  /** Pods, shared by all kubelets, with the `nodeName` index. */
  pods: Informer<Pod>;
  /** ConfigMaps, Secrets, claims and volumes, shared by all kubelets (no volume checks without). */
  volumeSources?: VolumeSources;
  /** ResourceSlices shared by all kubelets (absent: no DRA claim checks before containers start). */
  resourceSlices?: ClaimPreparerOptions['slices'];
  /** RuntimeClasses, shared by all kubelets (absent: a pod's class is not checked against the node's handlers). */
  runtimeClasses?: { getByName(namespace: string | undefined, name: string): { handler?: string } | undefined };
  /** The cluster's feature gates, as the kubelet's config has them. */
  featureGates?: FeatureGates;
}

export const nodeNameIndex = 'nodeName';

const pageBytes = 4096;
const isTerminal = (p: DeepReadonlyPod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

export class Kubelet {
  readonly #o: KubeletOptions;
  readonly #runtimeHandlers: readonly string[];
  readonly agent: NodeAgent;
  readonly #events: EventRecorder;
  readonly #volumes: VolumeMounter | undefined;
  readonly #claims: ClaimPreparer | undefined;
  /** Whole GPUs of a device-plugin node, handed to containers (MIG strategies are counted only). */
  readonly #devices: DeviceManager | undefined;
  readonly #backoff = new Backoff();
  readonly #images: ImageManager;
  readonly #eviction: EvictionManager;
  readonly #workers = new Map<string, PodWorker>();
  /** The pods here by the ConfigMaps and Secrets they mount. */
  readonly #sourceMounts = new VolumeSourceIndex<PodWorker>();
  /** What the cluster DNS answers the pods here (absent without the shared informers). */
  readonly #dns: ClusterDnsView | undefined;
  readonly #rejected = new Set<string>();
  /** The host part (2-254) of each pod IP in use on this node. */
  readonly #usedIPs = new Set<number>();
  /** host-local's last_reserved_ip: the next allocation starts after it. */
  #lastIP = 1;
  readonly hostIP: string;
  #node: Node | undefined;
  /** Pods whose spec asks for a resize not yet allocated (Deferred, or just changed). */
  readonly #pendingResizes = new Set<PodWorker>();
  #resizing = false;
  #stopped = false;
  #resizeAgain = false;
  /** Fixed by the kubelet's version: before 1.33 a spec's new resources are never allocated. */
  readonly #inPlaceResize: boolean;
  readonly #supplementalGroupsPolicy: boolean;
  readonly #partition: PartitionGate;
  /** What the kubelet counts as it works (its /metrics and /metrics/probes). */
  readonly metrics: KubeletMetrics;
  /** When this kubelet started (its process_start_time_seconds). */
  readonly startedAt: number;

  constructor(options: KubeletOptions) {
    this.#partition = new PartitionGate();
    this.#o = { ...options, client: gatedClient(options.client, this.#partition) };
    this.#runtimeHandlers = poolRuntimeHandlers(options.pool);
    const problem = kubeletVersionSkewProblem(options.name, options.pool.kubeletVersion, options.serverVersion);
    if (problem) throw new KubeletVersionSkewError(problem);
    this.#inPlaceResize = hasInPlaceResize(options.pool.kubeletVersion);
    this.#supplementalGroupsPolicy = hasSupplementalGroupsPolicy(options.pool.kubeletVersion);
    this.hostIP = nodeInternalIP(options.ordinal);
    this.metrics = new KubeletMetrics(options.name, options.pool.kubeletVersion);
    this.startedAt = options.clock.now();
    this.#images = new ImageManager(
      options.clock,
      () => this.agent.setImages(nodeImages(this.#images.present)),
      (sizeBytes, seconds) => this.metrics.imagePulled(sizeBytes, seconds),
    );
    this.#eviction = new EvictionManager({
      clock: options.clock,
      observe: () => this.#memoryObservation(),
      observeLocalStorage: () => this.#diskObservation(),
      evict: (pod, message, disruptionTarget, signal) => {
        const worker = this.#workers.get(pod.metadata.uid ?? '');
        if (!worker) return;
        worker.evict(message, disruptionTarget);
        this.metrics.podEvicted(signal);
      },
      pressureChanged: (underPressure) => this.agent.setMemoryPressure(underPressure),
    });
    this.#events = new EventRecorder({ client: this.#o.client, clock: options.clock, node: options.name, log: options.log });
    this.agent = new NodeAgent({
      client: this.#o.client,
      partition: this.#partition,
      clock: options.clock,
      random: options.random,
      log: options.log,
      events: this.#events,
      identity: { name: options.name, ordinal: options.ordinal, pool: options.pool, machineID: options.random.hex(16), bootID: options.random.hex(16) },
    });
    if (options.resourceSlices) this.#claims = new ClaimPreparer({ client: this.#o.client, slices: options.resourceSlices });
    const gpus = options.pool.gpus;
    if (gpus?.expose === 'device-plugin' && (!Array.isArray(gpus.mig) || gpus.mig.length === 0)) {
      this.#devices = new DeviceManager(pluginGpus(options.name, gpus.count, gpuProductName(gpus.model)));
    }
    if (options.volumeSources) this.#volumes = new VolumeMounter({ sources: options.volumeSources, events: this.#events, clock: options.clock });
    const { services, endpointSlices, namespaces } = options.volumeSources ?? {};
    this.#dns = services && endpointSlices && namespaces ? informerDnsView({ services, endpointSlices, namespaces }) : undefined;
  }

  get name(): string {
    return this.#o.name;
  }

  /** Whether its server answers: a failed node's kubelet (drydock node fail) is down, its port closed. */
  get serving(): boolean {
    return !this.#partition.closed;
  }

  async start(): Promise<void> {
    this.#node = await this.agent.register();
    this.#eviction.start();
  }

  stop(): void {
    this.#stopped = true;
    this.#eviction.stop();
    this.agent.stop();
    for (const w of [...this.#workers.values()]) w.forget();
  }

  /** The pods this kubelet runs (its pod manager's), one worker each. */
  workers(): IterableIterator<PodWorker> {
    return this.#workers.values();
  }

  worker(namespace: string, name: string): PodWorker | undefined {
    for (const w of this.#workers.values()) if (w.pod.metadata.namespace === namespace && w.pod.metadata.name === name) return w;
    return undefined;
  }

  /** Called by the shared Node informer: admission and the status setters see the Node as it is now. */
  nodeChanged(node: Node): void {
    this.agent.observe(node);
  }

  /** Called by the shared informer for pods bound to this node. */
  podChanged(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const existing = this.#workers.get(uid);
    // A pod that has finished holds no devices (upstream's device manager keeps only active pods').
    if (isTerminal(pod)) this.#devices?.release(uid);
    if (existing) {
      // Only a spec change bumps the generation: a status update (most of them) changes no resources.
      const before = existing.deliveredPod;
      const operations = before.metadata.generation === pod.metadata.generation || !this.#inPlaceResize ? [] : resizeOperations(before, pod);
      for (const r of operations) this.metrics.resizeRequested(r.resource, r.requirement, r.operation);
      existing.update(pod);
      // A pod whose status turns terminal frees what it held (HandlePodReconcile's retry).
      return this.#handleResizes(isTerminal(pod) ? 'pod_terminated' : 'pod_updated', existing, operations.length > 0);
    }
    if (this.#rejected.has(uid) || isTerminal(pod)) return;
    // Containers this node ran before a restart go on; a pod with none starts afresh. Host processes
    // (runtime: process) ended with the previous drydock: theirs start again.
    const survivor = this.#o.pool.runtime === 'process' ? undefined : survivingPod(pod);
    if (pod.metadata.deletionTimestamp && !survivor) {
      // Deleted before it ever ran here: nothing to stop.
      void this.#o.client.delete(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid } }).catch(() => {});
      return;
    }
    const node = this.agent.node ?? this.#node;
    if (!node) return;
    const underPressure = this.#eviction.admit(pod);
    if (!underPressure.admit) return this.#reject(pod, underPressure.reason, underPressure.message);
    const admitted: DeepReadonlyPod[] = [];
    for (const w of this.#workers.values()) if (w.state.kind === 'syncing' || w.state.kind === 'terminating') admitted.push(w.pod);
    const verdict = admitPod(pod, node, admitted, this.#supplementalGroupsPolicy);
    if (!verdict.admit) return this.#reject(pod, verdict.reason, verdict.message);
    const devices = this.#devices?.allocate(pod);
    if (devices && !devices.ok) return this.#reject(pod, 'UnexpectedAdmissionError', devices.message);
    const worker = new PodWorker(
      {
        client: this.#o.client,
        clock: this.#o.clock,
        random: this.#o.random,
        node: this.#o.name,
        hostIP: this.hostIP,
        events: this.#events,
        backoff: this.#backoff,
        images: this.#images,
        log: this.#o.log,
        onFinished: (id) => {
          const w = this.#workers.get(id);
          this.#workers.delete(id);
          if (w) this.#sourceMounts.remove(w, w.pod);
          this.#devices?.release(id);
          if (w) this.#pendingResizes.delete(w);
          this.#handleResizes('pod_terminated');
        },
        podIPRange: `${nodePodCIDRBase(this.#o.ordinal)}.1-${nodePodCIDRBase(this.#o.ordinal)}.254`,
        allocateIP: () => this.#allocateIP(),
        releaseIP: (ip) => this.#releaseIP(ip),
        ...(this.#volumes ? { volumes: this.#volumes } : {}),
        ...(this.#o.volumeSources ? { envSources: this.#o.volumeSources } : {}),
        ...(this.#dns ? { dns: this.#dns } : {}),
        ...(this.#claims ? { claims: this.#claims } : {}),
        ...(this.#devices ? { devices: this.#devices } : {}),
        onResourcesChanged: () => this.#handleResizes('pod_resized'),
        ...(this.#inPlaceResize ? {} : { inPlaceResize: false }),
        ...(this.#supplementalGroupsPolicy ? {} : { supplementalGroupsPolicy: false }),
        metrics: this.metrics,
        ...(this.#o.pool.runtime ? { runtime: this.#o.pool.runtime } : {}),
        nodeAllocatable: () => (this.agent.node ?? this.#node)?.status?.allocatable,
        ...(this.#o.runtimeClasses ? { sandboxRuntimeFailure: (p: DeepReadonlyPod) => this.#sandboxRuntimeFailure(p) } : {}),
      },
      pod,
      // A new pod's IP comes with its sandbox (the worker asks); a survivor's is the one it has.
      pod.spec.hostNetwork ? this.hostIP : survivor?.podIP && this.#claimIP(survivor.podIP),
      survivor,
    );
    this.#workers.set(uid, worker);
    this.#sourceMounts.add(worker, pod);
    worker.start();
  }

  podDeleted(pod: Pod): void {
    this.#rejected.delete(pod.metadata.uid ?? '');
    const w = this.#workers.get(pod.metadata.uid ?? '');
    w?.forget();
    if (w) this.#pendingResizes.delete(w);
    this.#handleResizes('pods_removed');
  }

  /** A config map or secret was deleted: the running pods here that mount it will fail to remount it. */
  volumeSourceDeleted(kind: 'configMap' | 'secret', namespace: string, name: string): void {
    for (const w of this.#sourceMounts.mounting(kind, namespace, name)) if (mountsSource(w.pod, kind, name)) w.volumeSourceDeleted();
  }

  /** A config map or secret changed: the running pods here that mount it keep its old content until they sync. */
  volumeSourceChanged(kind: 'configMap' | 'secret', old: KubeObject): void {
    const namespace = old.metadata.namespace;
    const name = old.metadata.name ?? '';
    for (const w of this.#sourceMounts.mounting(kind, namespace ?? '', name)) w.volumeSourceChanged(kind, old);
  }

  /** The kubelet's /configz body. */
  configz(): string {
    return configzText(this.#o.name, this.#o.pool, this.#o.featureGates);
  }

  /** The pods as the kubelet's gauges read them now. */
  gauges(): KubeletGauges {
    const containers = new Map<ContainerStateLabel, number>();
    const pendingResizes = new Map<string, number>();
    const claims = new Map<string, readonly string[]>();
    let runningPods = 0;
    let inProgressResizes = 0;
    for (const w of this.#workers.values()) {
      if (w.sandboxRunning) runningPods++;
      w.countContainerStates(containers);
      const pending = w.resize.pendingReason;
      if (pending !== undefined && w.state.kind === 'syncing') pendingResizes.set(pending, (pendingResizes.get(pending) ?? 0) + 1);
      if (w.resize.inProgress && w.state.kind === 'syncing') inProgressResizes++;
      // A claim shared by several pods is one claim in use.
      for (const c of w.preparedClaims()) claims.set(c.uid, c.drivers);
    }
    const claimsByDriver = new Map<string, number>();
    for (const drivers of claims.values()) for (const d of drivers) claimsByDriver.set(d, (claimsByDriver.get(d) ?? 0) + 1);
    return { runningPods, containers, pendingResizes, inProgressResizes, claimsByDriver, claims: claims.size };
  }

  /**
   * Allocates pending resizes in upstream's priority order, each against the node's allocatable minus what
   * every other active pod occupies. Runs when a pod changes and whenever resources may have freed up.
   * `trigger` names what brought this pass (the retry metric's label), `changed` the pod whose update did,
   * and `resized` says its spec's resources changed: the one update that has an infeasible resize judged again.
   * Upstream: pkg/kubelet/allocation/allocation_manager.go (RetryPendingResizes, handlePodResourcesResize).
   */
  #handleResizes(trigger: ResizeRetryTrigger, changed?: PodWorker, resized = false): void {
    if (!this.#inPlaceResize) return;
    if (changed && changed.state.kind === 'syncing') {
      if (changed.resize.wantsResize()) this.#pendingResizes.add(changed);
      else {
        this.#pendingResizes.delete(changed);
        changed.resize.clearPending();
      }
    }
    if (this.#resizing) {
      this.#resizeAgain = true;
      return;
    }
    const node = this.agent.node ?? this.#node;
    if (!node || this.#pendingResizes.size === 0) return;
    this.#resizing = true;
    try {
      do {
        this.#resizeAgain = false;
        this.#allocatePending(node, trigger, resized ? changed : undefined);
        changed = undefined;
        resized = false;
      } while (this.#resizeAgain);
    } finally {
      this.#resizing = false;
    }
  }

  #allocatePending(node: Node, trigger: ResizeRetryTrigger, resized: PodWorker | undefined): void {
    const queue = [...this.#pendingResizes].filter((w) => {
      const keep = w.state.kind === 'syncing' && w.resize.wantsResize();
      if (!keep) this.#pendingResizes.delete(w);
      return keep;
    });
    if (queue.length === 0) return;
    const total: ResourceAmounts = {};
    for (const w of this.#workers.values()) {
      if (w.state.kind !== 'syncing' && w.state.kind !== 'terminating') continue;
      const u = w.resize.usage();
      for (const k in u) total[k] = (total[k] ?? 0) + (u[k] ?? 0);
    }
    queue.sort((a, b) => compareResizePriority(a.resize.candidate(), b.resize.candidate()));
    const policy = { ...(this.#o.pool.cpuManagerPolicy ? { cpuManagerPolicy: this.#o.pool.cpuManagerPolicy } : {}), ...(this.#o.pool.memoryManagerPolicy ? { memoryManagerPolicy: this.#o.pool.memoryManagerPolicy } : {}) };
    for (const w of queue) {
      // Infeasible resizes leave the queue; only a new resize of the pod brings them back.
      if (w.resize.pendingReason === 'Infeasible' && w !== resized) {
        this.#pendingResizes.delete(w);
        continue;
      }
      const own = w.resize.usage();
      const others: ResourceAmounts = {};
      for (const [k, v] of Object.entries(total)) others[k] = v - (own[k] ?? 0);
      const verdict = decideResize(w.pod, w.resize.allocated, node, policy, others);
      if (verdict.kind !== 'Deferred') this.#pendingResizes.delete(w);
      if (verdict.kind === 'Infeasible') this.metrics.resizeInfeasible(verdict.detail);
      if (verdict.kind !== 'fits') this.metrics.resizePending(verdict.kind);
      if (verdict.kind === 'fits' && w.resize.pendingReason === 'Deferred') this.metrics.deferredResizeAccepted(trigger);
      w.resize.decide(verdict);
      if (verdict.kind === 'fits') {
        const now = w.resize.usage();
        for (const k of new Set([...Object.keys(own), ...Object.keys(now)])) total[k] = (total[k] ?? 0) - (own[k] ?? 0) + (now[k] ?? 0);
      }
    }
  }

  #sandboxRuntimeFailure(pod: DeepReadonlyPod): string | undefined {
    const classes = this.#o.runtimeClasses;
    return classes && sandboxRuntimeFailure(pod.spec.runtimeClassName ?? undefined, (name) => classes.getByName(undefined, name), this.#runtimeHandlers);
  }

  /** What the eviction manager compares: the Node's memory and the working sets of the pods still running here. */
  #memoryObservation(): MemoryObservation | undefined {
    const status = (this.agent.node ?? this.#node)?.status;
    const capacity = resourceAmountOf('memory', status?.capacity?.memory);
    const allocatable = resourceAmountOf('memory', status?.allocatable?.memory);
    if (capacity === undefined || allocatable === undefined) return undefined;
    const now = this.#o.clock.now();
    const pods: PodMemory[] = [];
    for (const w of this.#workers.values()) {
      if (w.state.kind !== 'syncing') continue;
      // Working sets come in pages, as the cgroups report them.
      const containers = w.workingSets(now);
      for (const [name, bytes] of containers) containers.set(name, Math.ceil(bytes / pageBytes) * pageBytes);
      pods.push({ pod: w.pod, containers });
    }
    return { capacity, allocatable, pods };
  }

  /** What the eviction manager's local storage check reads: the running pods' disk writes. */
  #diskObservation(): PodDisk[] {
    const now = this.#o.clock.now();
    const pods: PodDisk[] = [];
    for (const w of this.#workers.values()) {
      if (w.state.kind !== 'syncing') continue;
      const writes = w.diskWrites(now);
      const emptyDirBytes = w.emptyDirBytes();
      const layerBytes = w.layerBytes();
      if (writes.size > 0 || emptyDirBytes.size > 0 || layerBytes.size > 0) pods.push({ pod: w.pod, writes, emptyDirBytes, layerBytes });
    }
    return pods;
  }

  #reject(pod: Pod, reason: string, message: string): void {
    this.#rejected.add(pod.metadata.uid ?? '');
    this.#events.record(pod, 'Warning', reason, message);
    void this.#writeRejection(pod, reason, message, 0);
  }

  /**
   * The rejected pod's Failed status, through the status manager's retries: a conflict is written
   * again on the pod as it now is, another failure at the next 10 s sync, until the pod is gone.
   */
  async #writeRejection(pod: Pod, reason: string, message: string, conflicts: number): Promise<void> {
    const status = { ...pod.status, phase: 'Failed' as const, reason, message: `Pod was rejected: ${message}`, startTime: pod.status?.startTime ?? formatTime(this.#o.clock.now()) };
    try {
      await this.#o.client.updateStatus(refs.pods, { ...pod, status });
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      if (isApiError(error) && error.reason === 'Conflict' && conflicts < 5) {
        const fresh = await this.#o.client.get<Pod>(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '').catch(() => undefined);
        if (fresh && fresh.metadata.uid === pod.metadata.uid) return this.#writeRejection(fresh, reason, message, conflicts + 1);
        return;
      }
      this.#o.log(`kubelet ${this.#o.name}: rejecting pod: ${String(error)}`);
      if (!this.#stopped) this.#o.clock.after(statusSyncPeriodMs, () => void (this.#stopped ? undefined : this.#writeRejection(pod, reason, message, 0)));
    }
  }

  /**
   * The next free IP of the node's /24 after the last one handed out, wrapping round (host-local IPAM's
   * round-robin over .2 to .254, the gateway has .1): a deleted pod's IP goes to another pod only once
   * the range has been run through, as upstream's allocator says of a crash-looping container.
   */
  #allocateIP(): string | undefined {
    for (let k = 1; k <= 253; k++) {
      const n = ((this.#lastIP - 2 + k) % 253) + 2;
      if (this.#usedIPs.has(n)) continue;
      this.#usedIPs.add(n);
      this.#lastIP = n;
      return `${nodePodCIDRBase(this.#o.ordinal)}.${n}`;
    }
    return undefined;
  }

  /** Takes the IP a pod found running after a restart already has, if it is this node's and free. */
  #claimIP(ip: string): string | undefined {
    const base = nodePodCIDRBase(this.#o.ordinal);
    const n = Number(ip.slice(base.length + 1));
    if (!ip.startsWith(`${base}.`) || !Number.isInteger(n) || n < 2 || n > 254 || this.#usedIPs.has(n)) return undefined;
    this.#usedIPs.add(n);
    // The node's last_reserved_ip file is not kept across a restart here; going on after the highest
    // IP in use hands out what host-local would for pods created in order.
    this.#lastIP = Math.max(this.#lastIP, n);
    return ip;
  }

  #releaseIP(ip: string): void {
    const base = nodePodCIDRBase(this.#o.ordinal);
    if (ip.startsWith(`${base}.`)) this.#usedIPs.delete(Number(ip.slice(base.length + 1)));
  }
}
