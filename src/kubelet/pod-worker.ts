// The per-pod worker: a state machine (syncing -> terminating -> terminated -> finished) that syncs the
// pod on every change: its volumes, claims and sandbox first (pod-volumes.ts, pod-sandbox.ts), then the
// containers compute-pod-actions.ts picks, started by start-container.ts behind the crash-loop back-off
// (container-backoff.ts), probed (container-probes.ts) and stopped in order (kill-container.ts). It owns
// the pod's status writer and tears everything down once the pod is gone.
// Upstream: pkg/kubelet/pod_workers.go, kubelet.go (SyncPod, SyncTerminatingPod, SyncTerminatedPod).
import type { Container } from '../api/index.ts';
import type { KubeObject, Timer } from '../core/index.ts';
import { containerRecords } from './container-record.ts';
import type { ContainerRecord, InstanceState } from './container-record.ts';
import { LogBuffer } from './logs.ts';
import { withTerminationMessage } from './termination-message.ts';
import type { ProbeKind } from './prober.ts';
import type { ContainerExit } from './sim-container.ts';
import { PodStatusWriter } from './status-writer.ts';
import type { DeepReadonlyPod } from './types.ts';
import { PodResize } from './pod-resize.ts';
import type { SurvivingPod } from './surviving-containers.ts';
import type { AttachTarget, ExecTarget } from './exec-stream.ts';
import { ContainerContext, containerSpec } from './container-context.ts';
import { PodVolumes } from './pod-volumes.ts';
import { PodSandbox } from './pod-sandbox.ts';
import { ContainerKiller } from './kill-container.ts';
import { ContainerStarter } from './start-container.ts';
import { ContainerBackOff } from './container-backoff.ts';
import { ContainerProbes } from './container-probes.ts';
import { ActiveDeadline } from './active-deadline.ts';
import { FinalDelete } from './final-delete.ts';
import { countContainerStates, diskWrites, runsHostProcesses, workingSets } from './container-stats.ts';
import { shouldContainerBeRestarted, syncInitContainers, syncInitializedPod } from './compute-pod-actions.ts';
import type { PodActions } from './compute-pod-actions.ts';
import type { LiveContainer } from './container-context.ts';
import { retryDelayMs } from './pod-worker-deps.ts';
import type { PodWorkerDeps, PodWorkerView, WorkerState } from './pod-worker-deps.ts';
import { podStartObserver } from './kubelet-metrics.ts';
import type { ContainerStateLabel } from './kubelet-metrics.ts';
import type { PreparedClaim } from './dynamic-resources.ts';

/** What a pod nobody copied files into reports: one shared empty map, asked for every pod each 10 s. */
const noFiles: ReadonlyMap<string, number> = new Map();

export class PodWorker implements PodWorkerView {
  readonly #d: PodWorkerDeps;
  #pod: DeepReadonlyPod;
  /** The pod as the informer last delivered it (the status writer's answers move #pod on, not this). */
  #delivered: DeepReadonlyPod;
  #state: WorkerState = { kind: 'syncing' };
  readonly records: Map<string, ContainerRecord>;
  readonly #live = new Map<string, LiveContainer>();
  readonly #timers = new Set<Timer>();
  readonly #status: PodStatusWriter;
  #podHasInitialized = false;
  /** The active-deadline handler or the eviction manager evicted the pod. */
  #evicted: { reason: string; message: string; disruptionTarget?: boolean } | undefined;
  readonly #activeDeadline: ActiveDeadline;
  #tornDown = false;
  readonly #finalDelete: FinalDelete;
  readonly startTime: number;
  readonly #ctx: ContainerContext;
  readonly #volumes: PodVolumes;
  readonly #sandbox: PodSandbox;
  readonly #killer: ContainerKiller;
  readonly #starter: ContainerStarter;
  readonly #backOff: ContainerBackOff;
  readonly #probes: ContainerProbes;
  readonly resize: PodResize;

  constructor(deps: PodWorkerDeps, pod: DeepReadonlyPod, podIP: string | undefined, survivor?: SurvivingPod) {
    this.#d = deps;
    this.#pod = pod;
    this.#delivered = pod;
    this.startTime = survivor?.startTime ?? deps.clock.now();
    this.records = containerRecords(pod, survivor);
    this.#podHasInitialized = survivor?.initialized ?? false;
    const live = this.#live;
    this.#sandbox = new PodSandbox(this, { deps, podIP, survived: survivor !== undefined });
    this.#finalDelete = new FinalDelete(deps, () => this.#pod);
    this.#activeDeadline = new ActiveDeadline({ clock: deps.clock, startTime: this.startTime, sync: () => this.sync() });
    this.#volumes = new PodVolumes(this, { deps, startTime: this.startTime });
    this.#ctx = new ContainerContext(this, { deps, startTime: this.startTime, live, sandbox: this.#sandbox, volumes: this.#volumes });
    this.#probes = new ContainerProbes(this, { deps, live, ctx: this.#ctx, onResult: (rec, instance, kind, ok) => this.#onProbeResult(rec, instance, kind, ok) });
    this.#killer = new ContainerKiller(this, { deps, live, ctx: this.#ctx });
    const kill = (rec: ContainerRecord, message: string): void => void this.#killer.kill(rec, message, undefined);
    this.resize = new PodResize({
      clock: deps.clock,
      pod: () => this.#pod,
      records: this.records,
      sim: (name) => live.get(name)?.sim,
      event: (e, detail) => deps.events.record(this.#pod, e.type, e.reason, e.prefix + detail),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
      restart: kill,
      changed: () => {
        this.#status.markDirty();
        deps.onResourcesChanged?.();
      },
    });
    this.#status = this.#statusWriter();
    this.#starter = new ContainerStarter(this, {
      deps,
      live,
      ctx: this.#ctx,
      status: this.#status,
      resize: this.resize,
      survivors: survivor !== undefined,
      sandbox: this.#sandbox,
      kill,
      probes: this.#probes,
      onExit: (rec, instance, exit) => this.#onExit(rec, instance, exit),
    });
    this.#backOff = new ContainerBackOff(this, { deps, starter: this.#starter });
  }

  #statusWriter(): PodStatusWriter {
    const deps = this.#d;
    const observePhase = podStartObserver(deps.metrics, deps.clock);
    return new PodStatusWriter({
      client: deps.client,
      clock: deps.clock,
      log: deps.log,
      pod: () => this.#pod,
      // Each status written (or re-read on a conflict) is one SyncPod's for the start-duration observation.
      setPod: (p: DeepReadonlyPod) => {
        if (Number(p.metadata.resourceVersion ?? 0) >= Number(this.#pod.metadata.resourceVersion ?? 0)) this.#pod = p;
        observePhase(p.status?.phase);
      },
      input: () => ({
        records: this.records,
        hostIP: deps.hostIP,
        ...(this.podIP ? { podIP: this.podIP } : {}),
        sandboxReady: this.#sandbox.ready,
        podIsTerminal: this.#state.kind !== 'syncing',
        podHasInitialized: this.#podHasInitialized,
        startTime: this.startTime,
        resize: this.resize.status(),
        ...(deps.inPlaceResize === false ? { inPlaceResize: false } : {}),
        ...(deps.supplementalGroupsPolicy === false ? { supplementalGroupsPolicy: false } : {}),
        ...(this.#evicted ? { evicted: this.#evicted } : {}),
      }),
    });
  }

  get pod(): DeepReadonlyPod {
    return this.#pod;
  }
  get state(): WorkerState {
    return this.#state;
  }
  /** The pod's IP, once its sandbox has its network (a host-network pod has the node's IP from the start). */
  get podIP(): string | undefined {
    return this.#sandbox.podIP;
  }

  get uid(): string {
    return this.#pod.metadata.uid ?? '';
  }

  /** The pod's sandbox runs: made, with its network, and not yet stopped. */
  get sandboxRunning(): boolean {
    return this.#sandbox.running && (this.#state.kind === 'syncing' || this.#state.kind === 'terminating');
  }

  /** The claims prepared for the pod and not yet unprepared (its containers all stopped). */
  preparedClaims(): readonly PreparedClaim[] {
    return this.#state.kind === 'syncing' || this.#state.kind === 'terminating' ? this.#sandbox.claims : [];
  }

  /** The runtime's containers of the pod by state: each current instance, and the dead one the container GC keeps. */
  countContainerStates(into: Map<ContainerStateLabel, number>): void {
    countContainerStates(this.records, into);
  }

  /** Whether a running container of the pod is a host process (runtime: process): it listens on the host's loopback. */
  runsHostProcesses(): boolean {
    return runsHostProcesses(this.#live, this.records);
  }

  /** Log buffers of a container's current and previous instances. */
  logsOf(name: string): { current?: LogBuffer; previous?: LogBuffer } | undefined {
    const live = this.#live.get(name);
    if (!live) return undefined;
    return { current: live.logs, ...(live.previousLogs ? { previous: live.previousLogs } : {}) };
  }

  /** What `kubectl exec` into container `name` runs against, or why it cannot. */
  execTarget(name: string): ExecTarget | { error: string } {
    return this.#ctx.execTarget(name);
  }

  /** What `kubectl attach` to container `name` joins, or why it cannot. */
  attachTarget(name: string): AttachTarget | { error: string } {
    return this.#ctx.attachTarget(name);
  }

  #spec(name: string): { c: Readonly<Container>; path: string } | undefined {
    return containerSpec(this.#pod, name);
  }

  /** Readies what exec reads that takes a request: the projected service account tokens. */
  prepareExec(): Promise<void> {
    return this.#ctx.podFiles().requestTokens(this.#pod);
  }

  /** The working set of each running container (the eviction manager asks every 10 s). */
  workingSets(now: number): Map<string, number> {
    return workingSets(this.#live, this.records, now);
  }

  /** What was copied into the pod's emptyDirs (kubectl cp), by volume; empty for a pod nobody exec'd into. */
  emptyDirBytes(): ReadonlyMap<string, number> {
    return this.#ctx.madeFiles?.emptyDirBytes() ?? noFiles;
  }

  /** The bytes copied into each container's writable layer (kubectl cp outside its volumes). */
  layerBytes(): ReadonlyMap<string, number> {
    return this.#ctx.madeFiles?.layerBytes() ?? noFiles;
  }

  /** What each running container has written to local disk by now, and where (absent: its writable layer). */
  diskWrites(now: number): ReadonlyMap<string, { bytes: number; path?: string }> {
    return diskWrites(this.#live, this.records, now);
  }

  /** A config map or secret the pod mounts was deleted: its volumes are remounted at the pod's next sync. */
  volumeSourceDeleted(): void {
    this.#volumes.sourceDeleted();
  }

  /** A config map or secret the pod mounts changed: its volumes show the old content until the pod's next sync. */
  volumeSourceChanged(kind: 'configMap' | 'secret', old: KubeObject): void {
    this.#volumes.sourceChanged(kind, old);
  }

  /** The pod as its last update from the API delivered it (the pod manager's copy). */
  get deliveredPod(): DeepReadonlyPod {
    return this.#delivered;
  }

  update(pod: DeepReadonlyPod): void {
    const generationChanged = pod.metadata.generation !== this.#delivered.metadata.generation;
    this.#delivered = pod;
    const rv = (p: DeepReadonlyPod): number => Number(p.metadata.resourceVersion ?? 0);
    if (rv(pod) >= rv(this.#pod)) this.#pod = pod;
    // HandlePodReconcile: a readiness gate's condition is someone else's write, and Ready follows it
    // (NeedToReconcilePodReadiness); the writer skips the write when the status holds.
    if (this.#pod.spec.readinessGates?.length && this.#state.kind === 'syncing') this.#status.markDirty();
    // A spec change (activeDeadlineSeconds, an image, a toleration) is a SyncPod whose generated status
    // reports the new generation (PodObservedGenerationTracking), which differs from the cached one
    // and so is written, even when nothing else in the status moved.
    if (generationChanged && this.#state.kind !== 'finished') this.#status.markDirty();
    this.sync();
  }

  start(): void {
    this.#status.markDirty();
    this.sync();
  }

  /** The pod is gone from the API: drop everything without writing. */
  forget(): void {
    this.#finalDelete.forget();
    this.#state = { kind: 'finished' };
    this.#teardown();
  }

  event(name: string | undefined, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.#d.events.record(this.#pod, type, reason, message, name ? this.#spec(name)?.path : undefined);
  }

  isSyncing(): boolean {
    return this.#state.kind === 'syncing';
  }

  retryDelay(): number {
    return retryDelayMs(this.#d.random);
  }

  markDirty(): void {
    this.#status.markDirty();
  }

  after(ms: number, fn: () => void): void {
    const t = this.#d.clock.after(ms, () => {
      this.#timers.delete(t);
      fn();
    });
    this.#timers.add(t);
  }

  // ---- the sync loop (SyncPod) ----

  sync(): void {
    const state = this.#state;
    switch (state.kind) {
      case 'syncing':
        if (this.#pod.metadata.deletionTimestamp) return this.#terminate('deleted');
        if (this.#pastActiveDeadline()) return;
        // A sync that started no main container while nothing was busy ends the pass: its status is posted.
        this.#starter.syncPass(() => this.#syncRunning());
        return;
      case 'terminating':
        return this.#shortenGrace(state);
      case 'terminated':
        if (state.cause === 'completed' && this.#pod.metadata.deletionTimestamp) void this.#deleteFromApi();
        return;
      case 'finished':
        return;
      default: {
        const never: never = state;
        throw new Error(`unknown worker state ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * The active-deadline pod sync handler: once the pod has run activeDeadlineSeconds since its start
   * it is evicted (event and status reason DeadlineExceeded) and its containers are stopped.
   * Upstream: pkg/kubelet/active_deadline.go, kubelet_pods.go (generateAPIPodStatus).
   */
  #pastActiveDeadline(): boolean {
    if (!this.#activeDeadline.passed(this.#pod.spec.activeDeadlineSeconds)) return false;
    const evicted = { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' };
    this.#evicted = evicted;
    this.#d.events.record(this.#pod, 'Normal', evicted.reason, evicted.message);
    this.#terminate('completed');
    return true;
  }

  #syncRunning(): void {
    if (this.#starter.busy) return;
    if (!this.#volumes.mounted() || !this.#sandbox.claimsPrepared() || !this.#sandbox.made()) return;
    this.#starter.resumeSurvivors();
    this.resize.reconcile();
    if (this.#startEphemeral()) return;
    const actions: PodActions = {
      startOrBackOff: (rec) => this.#backOff.startOrBackOff(rec),
      restartIfChanged: (rec, c) => this.#restartIfChanged(rec, c),
      complete: () => this.#terminate('completed'),
    };
    if (!this.#podHasInitialized) {
      if (!syncInitContainers(this.#pod, this.records, actions)) return;
      this.#podHasInitialized = true;
    }
    syncInitializedPod(this.#pod, this.records, actions);
  }

  /**
   * Ephemeral containers (kubectl debug) start before the init containers, so a pod stuck in
   * initialization can still be debugged, and run once: never restarted. True if a start began.
   */
  #startEphemeral(): boolean {
    for (const c of this.#pod.spec.ephemeralContainers ?? []) {
      let rec = this.records.get(c.name);
      if (rec?.current || (rec?.startRetryAt !== undefined && this.#d.clock.now() < rec.startRetryAt)) continue;
      if (!rec) this.records.set(c.name, (rec = { name: c.name, kind: 'ephemeral', restartCount: 0 }));
      void this.#starter.start(rec);
      return true;
    }
    return false;
  }

  /**
   * computePodActions' containerChanged: a running container (a sidecar once started) whose spec names
   * another image than its instance runs is killed with the grace period (preStop too) and started
   * again at once, whatever the restart policy. Regular init containers are left to finish.
   */
  #restartIfChanged(rec: ContainerRecord, c: { readonly image?: string }): void {
    const cur = rec.current;
    if (!cur || cur.exit || rec.definitionRestart || cur.image === (c.image ?? '')) return;
    rec.definitionRestart = true;
    this.#starter.holdForRestart();
    const message = rec.kind === 'regular' ? `Container ${rec.name} definition changed, will be restarted` : `Init container ${rec.name} definition changed`;
    void this.#killer.kill(rec, message, undefined);
  }

  // ---- what the running containers report (probe results, exits) ----

  #onProbeResult(rec: ContainerRecord, instance: InstanceState, kind: ProbeKind, ok: boolean): void {
    if (rec.current !== instance || instance.exit) return;
    if (kind === 'readiness') instance.readinessPassed = ok;
    else if (kind === 'startup' && ok) instance.startupPassed = true;
    else if (!ok && this.#state.kind === 'syncing') {
      const { message, grace } = this.#probes.failureKill(rec, kind);
      void this.#killer.kill(rec, message, grace);
    }
    this.#status.markDirty();
    this.sync();
  }

  #onExit(rec: ContainerRecord, instance: InstanceState, exit: ContainerExit): void {
    const live = this.#live.get(rec.name);
    instance.exit = withTerminationMessage(exit, this.#spec(rec.name)?.c, this.#ctx.madeFiles?.terminationLog(rec.name, instance.id), live?.logs);
    // The failed start's reason (cached as SyncPod ends) shows as the container's waiting state while a
    // restart is due, until a later sync replaces it (convertToAPIContainerStatuses).
    const willRestart = this.#state.kind === 'syncing' && shouldContainerBeRestarted(this.#pod, rec, exit.exitCode);
    if (instance.startError && rec.current === instance && willRestart) rec.waiting = instance.startError;
    live?.logs.close();
    for (const p of Object.values(live?.probes ?? {})) p.stop();
    this.#killer.wake();
    this.#status.markDirty();
    this.sync();
  }

  // ---- terminating (SyncTerminatingPod, SyncTerminatedPod) ----

  /**
   * A second delete with a shorter grace period (the API server moved deletionTimestamp closer)
   * cuts the running kills short, as the pod worker restarts termination with the smaller grace.
   * Upstream: pkg/kubelet/pod_workers.go (UpdatePod, calculateEffectiveGracePeriod).
   */
  #shortenGrace(state: Extract<WorkerState, { kind: 'terminating' }>): void {
    const grace = this.#pod.metadata.deletionGracePeriodSeconds;
    if (grace === undefined || grace >= state.graceSeconds) return;
    this.#state = { ...state, graceSeconds: grace };
    this.#killer.killBy(grace);
  }

  /**
   * The eviction manager's killPod: a Warning Evicted event, then phase Failed with reason Evicted and
   * a DisruptionTarget condition, the containers stopped with a grace period of 0 (raised to the
   * kubelet's minimum of 2 s).
   */
  evict(message: string, disruptionTarget: boolean): void {
    if (this.#state.kind !== 'syncing') return;
    this.#evicted = { reason: 'Evicted', message, disruptionTarget };
    this.#d.events.record(this.#pod, 'Warning', 'Evicted', message);
    this.#terminate('completed', 0);
  }

  #terminate(cause: 'deleted' | 'completed', graceOverride?: number): void {
    this.#starter.endMainPass(true);
    // Found running after a restart and stopped before their devices were prepared: still stopped in order.
    this.#starter.resumeSurvivors();
    const graceSeconds = graceOverride ?? this.#killer.gracePeriod();
    this.#state = { kind: 'terminating', since: this.#d.clock.now(), graceSeconds, cause };
    this.#probes.stopLivenessAndStartup();
    for (const t of this.#timers) t.cancel();
    this.#timers.clear();
    const hasSidecars = (this.#pod.spec.initContainers ?? []).some((c) => c.restartPolicy === 'Always');
    const kills = [...this.records.values()].filter((r) => r.current && !r.current.exit).map((r) => this.#killer.kill(r, undefined, graceOverride, hasSidecars));
    this.#status.markDirty();
    void Promise.all(kills).then(() => this.#terminated(cause));
  }

  async #terminated(cause: 'deleted' | 'completed'): Promise<void> {
    this.#state = { kind: 'terminated', cause };
    this.#d.metrics?.podProbesStopped(this.uid);
    this.#d.volumes?.tearDown(this.uid);
    this.#sandbox.stop();
    this.#status.markDirty();
    await this.#status.flush();
    if (cause === 'deleted' || this.#pod.metadata.deletionTimestamp) await this.#deleteFromApi();
  }

  async #deleteFromApi(): Promise<void> {
    if (this.#state.kind === 'finished') return;
    this.#state = { kind: 'finished' };
    await this.#finalDelete.run();
    this.#teardown();
  }

  /**
   * Once: the final delete's own DELETED event reaches forget() while #deleteFromApi still awaits
   * that delete, and a second teardown would free the pod's IP twice (two later pods got one IP).
   */
  #teardown(): void {
    if (this.#tornDown) return;
    this.#tornDown = true;
    this.#activeDeadline.stop();
    this.#d.volumes?.tearDown(this.uid);
    for (const t of this.#timers) t.cancel();
    this.#timers.clear();
    for (const live of this.#live.values()) {
      live.creating?.cancel();
      live.sim?.discard();
      live.logs.close();
      for (const p of Object.values(live.probes)) p.stop();
    }
    this.#status.stop();
    this.resize.stop();
    this.#d.backoff.forget(`${this.uid}/`);
    this.#d.images.forget(this.uid);
    this.#d.metrics?.podProbesStopped(this.uid);
    if (this.podIP) this.#d.releaseIP(this.podIP);
    this.#d.onFinished(this.uid);
  }
}
