// The per-pod worker: a state machine (syncing -> terminating -> terminated -> finished) that starts
// init containers in order (sidecars once started), then the main containers one by one (postStart
// blocks), restarts per policy with crash-loop back-off, runs probes, and stops containers in order.
// Upstream: pkg/kubelet/pod_workers.go, kuberuntime_manager.go (computePodActions, SyncPod),
// kuberuntime_container.go (startContainer, killContainer), kuberuntime_termination_order.go.
import { expandBehaviourEnv, refs, resolveBehaviour, shouldRestart, usesCommand } from '../api/index.ts';
import type { Container } from '../api/index.ts';
import type { KubeObject, Timer } from '../core/index.ts';
import { componentTurnOver, copyJson, isApiError } from '../core/index.ts';
import { formatGoDurationMs } from './backoff.ts';
import type { ContainerRecord, InstanceState } from './container-record.ts';
import { isRunning, isStarted } from './container-record.ts';
import { hookFailureMessage, runHandler, runProbe } from './handlers.ts';
import { LogBuffer } from './logs.ts';
import { withTerminationMessage } from './termination-message.ts';
import { ProbeWorker, probeKindName } from './prober.ts';
import type { ProbeKind } from './prober.ts';
import { resourceAmountOf } from './quantities.ts';
import { SimContainer, writePastLines } from './sim-container.ts';
import type { ContainerExit } from './sim-container.ts';
import { ProcessContainer } from './process-container.ts';
import { runHostProbe } from './host-probe.ts';
import { PodStatusWriter, statusSyncPeriodMs } from './status-writer.ts';
import type { DeepReadonlyPod } from './types.ts';
import { expandCommandAndArgs } from './container-env.ts';
import { invalidImageMessage } from './image-reference.ts';
import { hasImageVolumes, mountedPullFailure, pullImageVolumes } from './image-volumes.ts';
import type { ImageVolumePulls } from './image-volumes.ts';
import { PodResize } from './pod-resize.ts';
import { resourcesOf } from './allocation.ts';
import { idleMemoryBytes } from './usage.ts';
import type { SurvivingPod } from './surviving-containers.ts';
import type { AttachTarget, ExecTarget } from './exec-stream.ts';
import { ContainerContext, containerSpec } from './container-context.ts';
import { PodVolumes } from './pod-volumes.ts';
import { PodSandbox } from './pod-sandbox.ts';
import { ContainerKiller } from './kill-container.ts';
import type { LiveContainer } from './container-context.ts';
import type { PodWorkerDeps, WorkerState } from './pod-worker-deps.ts';
import { podHostnameError, podKernelHostname } from './container-files.ts';
import type { EnsureResult } from './image-manager.ts';
import type { ContainerStateLabel, ContainerTypeLabel } from './kubelet-metrics.ts';
import type { PreparedClaim } from './dynamic-resources.ts';

/** The commands whose files a script reads: the projected token must be there before it starts. */
const fileReaders: ReadonlySet<string> = new Set(['cat', 'tail']);

/** The pod worker's backOffPeriod: how soon a pod whose sync failed is synced again (plus up to half). */
const startRetryMs = 10_000;
/** The PLEG's relist period. */
const relistPeriodMs = 1_000;
const containerTypeLabel: Record<ContainerRecord['kind'], ContainerTypeLabel> = { regular: 'container', init: 'init_container', sidecar: 'init_container', ephemeral: 'ephemeral_container' };

export class PodWorker {
  readonly #d: PodWorkerDeps;
  #pod: DeepReadonlyPod;
  /** The pod as the informer last delivered it (the status writer's answers move #pod on, not this). */
  #delivered: DeepReadonlyPod;
  #state: WorkerState = { kind: 'syncing' };
  readonly records = new Map<string, ContainerRecord>();
  readonly #live = new Map<string, LiveContainer>();
  readonly #timers = new Set<Timer>();
  readonly #status: PodStatusWriter;
  #busy = false;
  /**
   * The main containers started in one pass, as SyncPod starts them all: the status is posted before the
   * first and held until the pass has started the last (the PLEG's next relist reports them together).
   */
  #mainPass = false;
  /** A main container's start began in the current sync. */
  #mainStarting = false;
  /** The image volume pulls of the sync that last started a container (see image-volumes.ts). */
  #imageVolumePulls: Promise<ImageVolumePulls> | undefined;
  /**
   * The status is held from a definition-change kill until the new instance started: upstream kills,
   * pulls and starts in one SyncPod, so no status shows the killed instance between them.
   */
  #restartHold = false;
  #podHasInitialized = false;
  /** The kubelet first saw the pod (its config.seen time). */
  readonly #firstSeen: number;
  /** The phase of the status last written, for the start-duration observation. */
  #phaseSeen: string | undefined;
  /** The active-deadline handler or the eviction manager evicted the pod. */
  #evicted: { reason: string; message: string; disruptionTarget?: boolean } | undefined;
  #deadline: { at: number; timer: Timer } | undefined;
  /** The API no longer has the pod, or the kubelet stopped: no final delete is retried. */
  #forgotten = false;
  #tornDown = false;
  #deleteRetry: Timer | undefined;
  /** Containers a restarted kubelet found running, waiting for their processes to be resumed. */
  #survivors: boolean;
  readonly startTime: number;
  readonly #ctx: ContainerContext;
  readonly #volumes: PodVolumes;
  readonly #sandbox: PodSandbox;
  readonly #killer: ContainerKiller;
  readonly resize: PodResize;

  constructor(deps: PodWorkerDeps, pod: DeepReadonlyPod, podIP: string | undefined, survivor?: SurvivingPod) {
    this.#d = deps;
    this.#pod = pod;
    this.#delivered = pod;
    this.startTime = survivor?.startTime ?? deps.clock.now();
    this.#firstSeen = deps.clock.now();
    for (const c of pod.spec.initContainers ?? []) this.records.set(c.name, { name: c.name, kind: c.restartPolicy === 'Always' ? 'sidecar' : 'init', restartCount: 0 });
    for (const c of pod.spec.containers) this.records.set(c.name, { name: c.name, kind: 'regular', restartCount: 0 });
    for (const c of pod.spec.ephemeralContainers ?? []) if (survivor?.containers.has(c.name)) this.records.set(c.name, { name: c.name, kind: 'ephemeral', restartCount: 0 });
    for (const [name, found] of survivor?.containers ?? []) {
      const rec = this.records.get(name);
      if (rec) Object.assign(rec, found);
    }
    this.#podHasInitialized = survivor?.initialized ?? false;
    this.#survivors = survivor !== undefined;
    this.#sandbox = new PodSandbox({
      deps,
      pod: () => this.#pod,
      podIP,
      survived: survivor !== undefined,
      isSyncing: () => this.#state.kind === 'syncing',
      after: (ms, fn) => this.#after(ms, fn),
      sync: () => this.#sync(),
      retryDelay: () => this.#retryDelay(),
      event: (type, reason, message) => this.#event(undefined, type, reason, message),
      gotIP: () => this.#status.markDirty(),
    });
    this.#volumes = new PodVolumes({ deps, startTime: this.startTime, pod: () => this.#pod, isSyncing: () => this.#state.kind === 'syncing', after: (ms, fn) => this.#after(ms, fn), sync: () => this.#sync() });
    this.#ctx = new ContainerContext({
      deps,
      startTime: this.startTime,
      pod: () => this.#pod,
      podIP: () => this.podIP,
      records: this.records,
      live: this.#live,
      prepared: (c) => this.#sandbox.prepared(c),
      contentSources: () => this.#volumes.contentSources(),
    });
    this.#killer = new ContainerKiller({
      deps,
      pod: () => this.#pod,
      records: this.records,
      live: this.#live,
      after: (ms, fn) => this.#after(ms, fn),
      event: (name, type, reason, message) => this.#event(name, type, reason, message),
      handlerTarget: (live, c) => this.#ctx.handlerTarget(live, c),
    });
    this.resize = new PodResize({
      clock: deps.clock,
      pod: () => this.#pod,
      records: this.records,
      sim: (name) => this.#live.get(name)?.sim,
      event: (e, detail) => deps.events.record(this.#pod, e.type, e.reason, e.prefix + detail),
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
      restart: (rec, message) => void this.#killer.kill(rec, message, undefined),
      changed: () => {
        this.#status.markDirty();
        deps.onResourcesChanged?.();
      },
    });
    this.#status = new PodStatusWriter({
      client: deps.client,
      clock: deps.clock,
      log: deps.log,
      pod: () => this.#pod,
      // Each status written (or re-read on a conflict) is one SyncPod's for the start-duration observation.
      setPod: (p: DeepReadonlyPod) => {
        if (Number(p.metadata.resourceVersion ?? 0) >= Number(this.#pod.metadata.resourceVersion ?? 0)) this.#pod = p;
        this.#observePhase(p.status?.phase);
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
    const add = (state: ContainerStateLabel): void => void into.set(state, (into.get(state) ?? 0) + 1);
    for (const rec of this.records.values()) {
      const cur = rec.current;
      if (cur) add(cur.exit ? 'exited' : cur.startedAt !== undefined ? 'running' : 'created');
      if (rec.previous) add('exited');
    }
  }

  /**
   * SyncPod's kubelet_pod_start_duration_seconds: observed at the pod's first sync (the status manager has
   * no status for it yet) and again when its phase turns from Pending to Running, from when the kubelet
   * first saw the pod.
   */
  #observePhase(phase: string | undefined): void {
    const before = this.#phaseSeen;
    this.#phaseSeen = phase ?? '';
    if (before === undefined || (before === 'Pending' && phase === 'Running')) this.#d.metrics?.podStartObserved((this.#d.clock.now() - this.#firstSeen) / 1000);
  }

  /** Whether a running container of the pod is a host process (runtime: process): it listens on the host's loopback. */
  runsHostProcesses(): boolean {
    for (const [name, live] of this.#live) if (live.sim instanceof ProcessContainer && isRunning(this.records.get(name)?.current)) return true;
    return false;
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

  /**
   * The working set of each running container from its process's memory model (the idle default
   * without one), cheaper than resolving the behaviours again: the eviction manager asks every 10 s.
   */
  workingSets(now: number): Map<string, number> {
    const out = new Map<string, number>();
    for (const [name, live] of this.#live) {
      const sim = live.sim;
      if (!sim || !isRunning(this.records.get(name)?.current)) continue;
      out.set(name, sim.hasMemoryModel ? sim.workingSetBytes(now) : idleMemoryBytes);
    }
    return out;
  }

  /** What was copied into the pod's emptyDirs (kubectl cp), by volume; empty for a pod nobody exec'd into. */
  emptyDirBytes(): Map<string, number> {
    return this.#ctx.madeFiles?.emptyDirBytes() ?? new Map();
  }

  /** The bytes copied into each container's writable layer (kubectl cp outside its volumes). */
  layerBytes(): Map<string, number> {
    return this.#ctx.madeFiles?.layerBytes() ?? new Map();
  }

  /** What each running container has written to local disk by now, and where (absent: its writable layer). */
  diskWrites(now: number): Map<string, { bytes: number; path?: string }> {
    const out = new Map<string, { bytes: number; path?: string }>();
    for (const [name, live] of this.#live) {
      const sim = live.sim;
      if (!sim || !isRunning(this.records.get(name)?.current)) continue;
      const bytes = sim.diskBytes(now);
      const path = sim.diskPath;
      if (bytes > 0) out.set(name, path === undefined ? { bytes } : { bytes, path });
    }
    return out;
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
    this.#sync();
  }

  start(): void {
    this.#status.markDirty();
    this.#sync();
  }

  /** The pod is gone from the API: drop everything without writing. */
  forget(): void {
    this.#forgotten = true;
    this.#deleteRetry?.cancel();
    this.#state = { kind: 'finished' };
    this.#teardown();
  }

  #event(name: string | undefined, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.#d.events.record(this.#pod, type, reason, message, name ? this.#spec(name)?.path : undefined);
  }

  #after(ms: number, fn: () => void): void {
    const t = this.#d.clock.after(ms, () => {
      this.#timers.delete(t);
      fn();
    });
    this.#timers.add(t);
  }

  // ---- the sync loop (computePodActions) ----

  #sync(): void {
    const state = this.#state;
    switch (state.kind) {
      case 'syncing':
        if (this.#pod.metadata.deletionTimestamp) return this.#terminate('deleted');
        if (this.#pastActiveDeadline()) return;
        this.#mainStarting = false;
        this.#syncRunning();
        // A sync that started no main container while nothing was busy ends the pass: its status is posted.
        if (!this.#mainStarting && !this.#busy) this.#endMainPass();
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
   * it is evicted (event and status reason DeadlineExceeded) and its containers are stopped. A lowered
   * deadline (the one spec change a running pod allows here) moves the timer.
   * Upstream: pkg/kubelet/active_deadline.go, kubelet_pods.go (generateAPIPodStatus).
   */
  #pastActiveDeadline(): boolean {
    const seconds = this.#pod.spec.activeDeadlineSeconds;
    const at = seconds === undefined ? undefined : this.startTime + seconds * 1000;
    // Every sync passes here: the timer is re-armed only when the deadline moved.
    if (this.#deadline?.at !== at) {
      this.#deadline?.timer.cancel();
      this.#deadline = undefined;
    }
    if (at === undefined) return false;
    const left = at - this.#d.clock.now();
    if (left > 0) {
      this.#deadline ??= { at, timer: this.#d.clock.after(left, () => this.#sync()) };
      return false;
    }
    const evicted = { reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline' };
    this.#evicted = evicted;
    this.#d.events.record(this.#pod, 'Normal', evicted.reason, evicted.message);
    this.#terminate('completed');
    return true;
  }

  #syncRunning(): void {
    if (this.#busy) return;
    if (!this.#volumes.mounted() || !this.#sandbox.claimsPrepared() || !this.#sandbox.made()) return;
    if (this.#survivors) this.#resumeSurvivors();
    this.resize.reconcile();
    if (this.#startEphemeral()) return;
    const pod = this.#pod;
    const inits = pod.spec.initContainers ?? [];
    if (!this.#podHasInitialized) {
      for (const c of inits) {
        const rec = this.records.get(c.name) as ContainerRecord;
        const cur = rec.current;
        if (!cur || (cur.exit && rec.kind === 'sidecar')) {
          this.#startOrBackOff(rec);
          return;
        }
        if (!cur.exit) {
          if (rec.kind === 'sidecar' && isStarted(cur)) {
            this.#restartIfChanged(rec, c);
            continue;
          }
          return;
        }
        if (cur.exit.exitCode === 0) continue;
        // A failed regular init container is retried as its own restartPolicy and rules (else the pod's) say.
        if (!shouldRestart(c, pod.spec.restartPolicy ?? 'Always', cur.exit.exitCode)) return this.#terminate('completed');
        this.#startOrBackOff(rec);
        return;
      }
      this.#podHasInitialized = true;
    }
    // Initialized: keep sidecars running, start/restart main containers one at a time.
    for (const c of inits) {
      const rec = this.records.get(c.name) as ContainerRecord;
      if (rec.kind !== 'sidecar') continue;
      if (!rec.current || rec.current.exit) {
        if (this.#startOrBackOff(rec)) return;
      } else if (isStarted(rec.current)) this.#restartIfChanged(rec, c);
    }
    let active = false;
    for (const c of pod.spec.containers) {
      const rec = this.records.get(c.name) as ContainerRecord;
      const cur = rec.current;
      if (!cur) {
        if (this.#startOrBackOff(rec)) return;
        // Its start failed before creating it (CreateContainerConfigError, InvalidImageName): the others start meanwhile.
        active = true;
        continue;
      }
      if (!cur.exit) {
        active = true;
        this.#restartIfChanged(rec, c);
        continue;
      }
      if (rec.resizeRestart || rec.definitionRestart || shouldRestart(c, pod.spec.restartPolicy ?? 'Always', cur.exit.exitCode)) {
        active = true;
        if (this.#startOrBackOff(rec)) return;
      }
    }
    if (!active) this.#terminate('completed');
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
      void this.#startContainer(rec);
      return true;
    }
    return false;
  }

  /**
   * The containers a restarted kubelet found go on as they were: no pull, create or start (no events),
   * their processes resumed where their behaviour has them by now, their probes running again, and a
   * terminated one's scripted log lines there for `kubectl logs`.
   */
  #resumeSurvivors(): void {
    this.#survivors = false;
    for (const rec of this.records.values()) {
      const instance = rec.current;
      const spec = this.#spec(rec.name);
      if (!instance || !spec || this.#live.has(rec.name)) continue;
      const c = spec.c;
      this.#d.images.markPresent(c.image ?? '');
      const made = this.#ctx.environment(c);
      const behaviour = expandBehaviourEnv(resolveBehaviour(this.#pod, expandCommandAndArgs(c, made.ok ? made.env : {}), rec.kind), this.#ctx.imageEnv(made.ok ? made.env : {}), this.#ctx.gpuList(c));
      const live: LiveContainer = { logs: new LogBuffer(), probes: {}, ...(made.ok ? { env: made.env } : {}) };
      this.#live.set(rec.name, live);
      const startedAt = instance.startedAt ?? instance.createdAt;
      if (instance.exit) {
        writePastLines(behaviour, startedAt, instance.exit.finishedAt - startedAt, live.logs);
        live.logs.close();
        continue;
      }
      const limit = resourceAmountOf('memory', instance.actual?.limits?.memory ?? this.resize.startWith(rec.name)?.limits?.memory);
      // A resumed script asks the kubelet as before (its token is requested again, as a restarted token manager would).
      const script = behaviour.script;
      if (script && usesCommand(script.program, fileReaders)) void this.#ctx.podFiles().requestTokens(this.#pod);
      live.sim = new SimContainer({
        clock: this.#d.clock,
        behaviour,
        startedAt,
        ...(limit !== undefined ? { memoryLimitBytes: limit } : {}),
        ...(script ? { command: this.#ctx.scriptCommands(c, instance.id, script.env ?? {}), files: this.#ctx.scriptFiles(c, instance.id) } : {}),
        logs: live.logs,
        onExit: (exit) => this.#onExit(rec, instance, exit),
      });
      this.#startProbes(rec, instance, live, c);
    }
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
    if (!this.#restartHold) {
      this.#restartHold = true;
      this.#status.hold();
    }
    const message = rec.kind === 'regular' ? `Container ${rec.name} definition changed, will be restarted` : `Init container ${rec.name} definition changed`;
    void this.#killer.kill(rec, message, undefined);
  }

  /** GetStableKey: the back-off is the container's as its spec names it now, so a new image starts afresh. */
  #key(rec: ContainerRecord): string {
    return `${this.uid}/${rec.name}/${this.#spec(rec.name)?.c.image ?? ''}`;
  }

  /** Starts (or restarts) the container unless it is backing off; true if a start began. */
  #startOrBackOff(rec: ContainerRecord): boolean {
    const now = this.#d.clock.now();
    if (rec.startRetryAt !== undefined && now < rec.startRetryAt) return false;
    const cur = rec.current;
    // A resize or definition-change restart is not a crash: no back-off.
    if (cur?.exit && !rec.resizeRestart && !rec.definitionRestart) {
      const key = this.#key(rec);
      if (this.#d.backoff.isInBackOffSince(key, cur.exit.finishedAt, now)) {
        this.#refuseStart(rec, key, cur.exit.finishedAt, now);
        return false;
      }
      this.#d.backoff.next(key, now, cur.exit.finishedAt);
    }
    delete rec.backOff;
    delete rec.backOffSyncAt;
    void this.#startContainer(rec);
    return true;
  }

  /**
   * doBackOff refused the start: a BackOff event on each refused sync, and the reason cache's entry,
   * which the status shows only from the next sync (the exit stays in view until then). The pod
   * worker syncs again after its backOffPeriod (10-15 s), or when the back-off ends if sooner, and
   * starts the container then. Passes between those syncs (an informer's update) refuse silently.
   * Upstream: kuberuntime_manager.go (doBackOff), kubelet.go (SyncPod, reasonCache.Update),
   * kubelet_pods.go (convertToAPIContainerStatuses), pod_workers.go (completeWork).
   */
  #refuseStart(rec: ContainerRecord, key: string, finishedAt: number, now: number): void {
    if (rec.backOffSyncAt !== undefined && now < rec.backOffSyncAt) return;
    const podRef = this.#podRef();
    rec.backOff = { reason: 'CrashLoopBackOff', message: `back-off ${formatGoDurationMs(this.#d.backoff.get(key))} restarting failed container=${rec.name} pod=${podRef}` };
    this.#event(rec.name, 'Warning', 'BackOff', `Back-off restarting failed container ${rec.name} in pod ${podRef}`);
    const at = Math.min(now + this.#retryDelay(), this.#d.backoff.releaseAt(key, finishedAt));
    rec.backOffSyncAt = at;
    this.#after(Math.max(0, at - now), () => {
      // generateAPIPodStatus at the start of this sync reads the reason cache.
      if (rec.backOff && rec.current?.exit?.finishedAt === finishedAt) {
        rec.waiting = rec.backOff;
        this.#status.markDirty();
      }
      this.#sync();
    });
  }

  /** format.Pod: how the kubelet names the pod in its messages. */
  #podRef(): string {
    return `${this.#pod.metadata.name}_${this.#pod.metadata.namespace}(${this.uid})`;
  }

  // ---- starting (startContainer) ----

  async #startContainer(rec: ContainerRecord): Promise<void> {
    const spec = this.#spec(rec.name);
    if (!spec) return;
    const { clock } = this.#d;
    this.#d.metrics?.containerStarted(containerTypeLabel[rec.kind]);
    this.#busy = true;
    const main = rec.kind === 'regular';
    if (main) this.#mainStarting = true;
    const laterInPass = main && this.#mainPass;
    // Like SyncPod, post the status as it stands before starting anything (Init:0/2, PodInitializing);
    // the later main containers of one pass start without a status of their own.
    if (!(main && this.#mainPass)) {
      this.#status.markDirty();
      await this.#status.flush();
      if (main) {
        this.#mainPass = true;
        this.#status.hold();
      }
    } else {
      // A pass of thousands of containers leaves the thread to the API server between starts once it has held it long.
      const turn = componentTurnOver();
      if (turn) await turn;
    }
    if (this.#state.kind !== 'syncing') {
      return this.#abandonStart();
    }
    const c = spec.c;
    const image = c.image ?? '';
    const invalidImage = invalidImageMessage(image);
    if (invalidImage !== undefined) {
      this.#event(rec.name, 'Warning', 'InspectFailed', invalidImage);
      return this.#startFailed(rec, 'InvalidImageName', invalidImage, 'InvalidImageName');
    }
    if (hasImageVolumes(this.#pod)) {
      // The main containers of one pass start in one sync, which pulls the pod's image volumes once.
      if (!laterInPass || !this.#imageVolumePulls) this.#imageVolumePulls = pullImageVolumes(this.#d.images, this.#pod, this.uid, (type, reason, message) => this.#event(undefined, type, reason, message));
      const failed = mountedPullFailure(await this.#imageVolumePulls, c);
      if (this.#state.kind !== 'syncing') return this.#abandonStart();
      if (failed) return this.#pullFailed(rec, failed);
    }
    const planned = resolveBehaviour(this.#pod, c, rec.kind);
    // SyncPod fetches the pod's pull secrets on every pass, whatever the image needs.
    const secretsFound = this.#pullSecretsFound();
    const pulled = await this.#d.images.ensure({
      podUID: this.uid,
      image,
      policy: c.imagePullPolicy ?? 'IfNotPresent',
      pullMs: planned.pullMs,
      notFound: planned.pullNotFound,
      unauthorized: planned.pullUnauthorized && !secretsFound,
      event: (type, reason, message) => this.#event(rec.name, type, reason, message),
    });
    if (this.#state.kind !== 'syncing') {
      return this.#abandonStart();
    }
    if (!pulled.ok) return this.#pullFailed(rec, pulled);
    // GenerateRunContainerOptions: the hostname before the environment.
    const hostnameError = podHostnameError(this.#pod);
    if (hostnameError !== undefined) return this.#startFailed(rec, 'CreateContainerConfigError', hostnameError, hostnameError);
    const environment = this.#ctx.environment(c);
    if (!environment.ok) return this.#startFailed(rec, 'CreateContainerConfigError', environment.message, environment.message);
    delete rec.startRetryAt;
    if (rec.current) {
      rec.previous = rec.current;
      rec.restartCount++;
    }
    delete rec.waiting;
    // The command and args run with $(VAR) replaced; the behaviour planned for the pull holds unless they change.
    const run = expandCommandAndArgs(c, environment.env);
    const behaviour = expandBehaviourEnv(run === c ? planned : resolveBehaviour(this.#pod, run, rec.kind), this.#ctx.imageEnv(environment.env), this.#ctx.gpuList(c));
    const actual = copyJson(this.resize.startWith(rec.name) ?? resourcesOf(c));
    const instance: InstanceState = { id: this.#d.random.hex(32), image, createdAt: clock.now(), postStartDone: !c.lifecycle?.postStart, startupPassed: !c.startupProbe, readinessPassed: !c.readinessProbe, actual };
    rec.current = instance;
    delete rec.resizeRestart;
    delete rec.definitionRestart;
    const old = this.#live.get(rec.name);
    const live: LiveContainer = { logs: new LogBuffer(), probes: {}, env: environment.env, ...(old ? { previousLogs: old.logs } : {}) };
    this.#live.set(rec.name, live);
    this.#event(rec.name, 'Normal', 'Created', 'Container created');
    this.#status.markDirty();
    const argv = [...(run.command ?? []), ...(run.args ?? [])];
    const onHost = this.#d.runtime === 'process' && argv.length > 0;
    if (behaviour.startupDelayMs > 0 && !onHost) {
      await new Promise<void>((resolve) => (live.creating = clock.after(behaviour.startupDelayMs, resolve)));
      delete live.creating;
    }
    // The projected token is in the volume before the process starts: a script's `cat` finds it there.
    if (behaviour.script && !onHost && usesCommand(behaviour.script.program, fileReaders)) await this.#ctx.podFiles().requestTokens(this.#pod);
    if (this.#state.kind !== 'syncing' || rec.current !== instance) {
      return this.#abandonStart();
    }
    const limit = resourceAmountOf('memory', actual.limits?.memory);
    const onExit = (exit: ContainerExit): void => this.#onExit(rec, instance, exit);
    const script = behaviour.script && !onHost ? { command: this.#ctx.scriptCommands(c, instance.id, behaviour.script.env ?? {}), files: this.#ctx.scriptFiles(c, instance.id) } : {};
    live.sim = onHost
      ? new ProcessContainer({ clock, argv, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOSTNAME: podKernelHostname(this.#pod), ...environment.env }, ...(c.workingDir ? { workingDir: c.workingDir } : {}), logs: live.logs, onExit })
      : new SimContainer({ clock, behaviour, ...(limit !== undefined ? { memoryLimitBytes: limit } : {}), logs: live.logs, onExit, ...script });
    // A host process has started (or failed to) once spawned settles; a simulated one is up already.
    if (live.sim.spawned) await live.sim.spawned;
    instance.startedAt = live.sim.startedAt;
    if (instance.exit?.reason === 'StartError') {
      // The runtime could not start it: no Started event; it restarts as its policy says.
      this.#event(rec.name, 'Warning', 'Failed', `Error: ${instance.exit.message ?? ''}`);
      this.#d.metrics?.containerStartFailed(containerTypeLabel[rec.kind], 'RunContainerError');
      this.#busy = false;
      this.#sync();
      return;
    }
    this.#event(rec.name, 'Normal', 'Started', 'Container started');
    this.#startProbes(rec, instance, live, c);
    this.#status.markDirty();
    const postStart = c.lifecycle?.postStart;
    if (postStart) {
      const res = runHandler(postStart, this.#ctx.handlerTarget(live, c));
      if (res.durationMs > 0) await clock.sleep(res.durationMs);
      if (!res.ok && !instance.exit) {
        this.#event(rec.name, 'Warning', 'FailedPostStartHook', 'PostStartHook failed');
        this.#d.metrics?.containerStartFailed(containerTypeLabel[rec.kind], 'PostStartHookError');
        instance.startError = { reason: 'PostStartHookError', message: hookFailureMessage(postStart, res, rec.name, this.#podRef()) };
        this.#busy = false;
        void this.#killer.kill(rec, 'FailedPostStartHook', undefined);
        return;
      }
      instance.postStartDone = true;
      this.#status.markDirty();
    }
    this.#busy = false;
    this.#sync();
  }

  /**
   * getPullSecretsForPod: the pod's image pull secrets that exist; a named one missing is a Warning
   * FailedToRetrieveImagePullSecret event, and the pull goes on without it. True when one was found.
   */
  #pullSecretsFound(): boolean {
    const names = (this.#pod.spec.imagePullSecrets ?? []).map((s) => s.name ?? '').filter((n) => n !== '');
    const secrets = this.#d.envSources?.secrets;
    const missing = names.filter((n) => !secrets?.getByName(this.#pod.metadata.namespace, n));
    if (missing.length > 0) this.#event(undefined, 'Warning', 'FailedToRetrieveImagePullSecret', `Unable to retrieve some image pull secrets (${missing.join(', ')}); attempting to pull the image may not succeed.`);
    return missing.length < names.length;
  }

  /**
   * startContainer failed before creating anything (an image reference that does not parse, a
   * configuration naming what is missing): the container waits with `reason` until the pod worker's
   * next try, 10-15 s on (backOffPeriod, jittered by half), while the pod's other containers start.
   */
  #pullFailed(rec: ContainerRecord, pulled: Exclude<EnsureResult, { ok: true }>): void {
    // The PLEG's relist (every 1 s) sees the pod's new sandbox and syncs it again, inside the pull's back-off.
    const relistMs = this.#sandbox.firstRelist() ? relistPeriodMs : undefined;
    this.#startFailed(rec, pulled.reason, pulled.message, pulled.reason, relistMs);
  }

  #startFailed(rec: ContainerRecord, reason: string, message: string, error: string, retryMs?: number): void {
    // The start a definition change asked for was tried: from now on the restart policy decides.
    delete rec.definitionRestart;
    this.#event(rec.name, 'Warning', 'Failed', `Error: ${error}`);
    this.#d.metrics?.containerStartFailed(containerTypeLabel[rec.kind], reason);
    rec.waiting = { reason, message };
    const delay = retryMs ?? this.#retryDelay();
    rec.startRetryAt = this.#d.clock.now() + delay;
    this.#status.markDirty();
    this.#busy = false;
    this.#after(delay, () => this.#sync());
    this.#sync();
  }

  /** A start the pod's state overtook (it terminates, or the container was replaced): nothing waits on it. */
  #abandonStart(): void {
    this.#busy = false;
    this.#endMainPass();
  }

  /** Ends the held pass; a definition-change restart keeps its hold until its start was tried (unless `force`). */
  #endMainPass(force = false): void {
    if (this.#restartHold && !force && this.#state.kind === 'syncing' && [...this.records.values()].some((r) => r.definitionRestart)) return;
    if (!this.#mainPass && !this.#restartHold) return;
    this.#mainPass = false;
    this.#restartHold = false;
    this.#status.release();
  }

  /** The pod worker's next try after a failed sync: backOffPeriod, jittered by half. */
  #retryDelay(): number {
    return startRetryMs + Math.floor(this.#d.random.float() * startRetryMs * 0.5);
  }

  #startProbes(rec: ContainerRecord, instance: InstanceState, live: LiveContainer, c: Readonly<Container>): void {
    const kinds: [ProbeKind, Container['startupProbe']][] = [['startup', c.startupProbe], ['liveness', c.livenessProbe], ['readiness', c.readinessProbe]];
    for (const [kind, probe] of kinds) {
      if (!probe) continue;
      live.probes[kind] = new ProbeWorker({
        clock: this.#d.clock,
        kind,
        probe,
        startedAt: instance.startedAt ?? this.#d.clock.now(),
        isStarted: () => instance.startupPassed,
        run: () => (live.sim instanceof ProcessContainer ? runHostProbe(probe, this.#ctx.handlerTarget(live, c), live.sim.env, this.#d.clock) : runProbe(probe, this.#ctx.handlerTarget(live, c))),
        onFailedAttempt: (output) => this.#event(rec.name, 'Warning', 'Unhealthy', `${probeKindName[kind]} probe failed: ${output}`),
        onAttempt: (ok, durationMs) => this.#d.metrics?.probed({ probeType: probeKindName[kind], container: rec.name, pod: this.#pod.metadata.name ?? '', namespace: this.#pod.metadata.namespace ?? '', podUID: this.uid }, ok, durationMs / 1000),
        onResult: (ok) => this.#onProbeResult(rec, instance, kind, ok),
      });
    }
  }

  #onProbeResult(rec: ContainerRecord, instance: InstanceState, kind: ProbeKind, ok: boolean): void {
    if (rec.current !== instance || instance.exit) return;
    if (kind === 'readiness') instance.readinessPassed = ok;
    else if (kind === 'startup' && ok) instance.startupPassed = true;
    else if (!ok && this.#state.kind === 'syncing') {
      const what = rec.kind === 'regular' ? 'Container' : 'Init container';
      const restart = rec.kind !== 'regular' || shouldRestart(this.#spec(rec.name)?.c ?? { name: rec.name }, this.#pod.spec.restartPolicy ?? 'Always', 137);
      const message = `${what} ${rec.name} failed ${kind} probe${rec.kind === 'regular' && restart ? ', will be restarted' : ''}`;
      const grace = this.#spec(rec.name)?.c[kind === 'liveness' ? 'livenessProbe' : 'startupProbe']?.terminationGracePeriodSeconds;
      void this.#killer.kill(rec, message, grace);
    }
    this.#status.markDirty();
    this.#sync();
  }

  #onExit(rec: ContainerRecord, instance: InstanceState, exit: ContainerExit): void {
    const live = this.#live.get(rec.name);
    instance.exit = withTerminationMessage(exit, this.#spec(rec.name)?.c, this.#ctx.madeFiles?.terminationLog(rec.name, instance.id), live?.logs);
    // The failed start's reason (cached as SyncPod ends) shows as the container's waiting state while a
    // restart is due, until a later sync replaces it (convertToAPIContainerStatuses).
    if (instance.startError && rec.current === instance && this.#willRestart(rec, exit.exitCode)) rec.waiting = instance.startError;
    live?.logs.close();
    for (const p of Object.values(live?.probes ?? {})) p.stop();
    this.#killer.wake();
    this.#status.markDirty();
    this.#sync();
  }

  /** ShouldContainerBeRestarted: a sidecar always is while the pod runs; a regular container as its restart policy says. */
  #willRestart(rec: ContainerRecord, exitCode: number): boolean {
    if (this.#state.kind !== 'syncing') return false;
    if (rec.kind === 'sidecar') return true;
    const c = this.#spec(rec.name)?.c;
    return rec.kind === 'regular' && c !== undefined && shouldRestart(c, this.#pod.spec.restartPolicy ?? 'Always', exitCode);
  }

  // ---- stopping (killContainer, termination ordering) ----

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
    this.#endMainPass(true);
    // Found running after a restart and stopped before their devices were prepared: still stopped in order.
    if (this.#survivors) this.#resumeSurvivors();
    const graceSeconds = graceOverride ?? this.#killer.gracePeriod();
    this.#state = { kind: 'terminating', since: this.#d.clock.now(), graceSeconds, cause };
    this.#stopLivenessAndStartup();
    for (const t of this.#timers) t.cancel();
    this.#timers.clear();
    const hasSidecars = (this.#pod.spec.initContainers ?? []).some((c) => c.restartPolicy === 'Always');
    const kills = [...this.records.values()].filter((r) => r.current && !r.current.exit).map((r) => this.#killer.kill(r, undefined, graceOverride, hasSidecars));
    this.#status.markDirty();
    void Promise.all(kills).then(() => this.#terminated(cause));
  }

  /**
   * SyncTerminatingPod stops the liveness and startup probes of the pod's regular containers before it
   * kills them: no restart and no Unhealthy event while they stop; readiness goes on. With its startup
   * worker gone, the prober manager counts a running container as started (isContainerStarted).
   * Upstream: pkg/kubelet/kubelet.go (SyncTerminatingPod), prober/prober_manager.go (StopLivenessAndStartup).
   */
  #stopLivenessAndStartup(): void {
    for (const c of this.#pod.spec.containers) {
      const live = this.#live.get(c.name);
      if (!live) continue;
      for (const kind of ['liveness', 'startup'] as const) {
        live.probes[kind]?.stop();
        delete live.probes[kind];
      }
      const cur = this.records.get(c.name)?.current;
      if (cur && !cur.exit && !cur.startupPassed) {
        cur.startupPassed = true;
        this.#status.markDirty();
      }
    }
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
    await this.#finalDelete();
    this.#teardown();
  }

  /**
   * The status manager's final delete (grace 0, this pod's uid). One that fails (a webhook on DELETE
   * that is down, a timeout) is tried again at the next 10 s sync, as syncBatch does for a pod that
   * can be deleted; gone or replaced (NotFound, uid Conflict) ends it.
   */
  async #finalDelete(): Promise<void> {
    const pod = this.#pod;
    try {
      await this.#d.client.delete(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', { gracePeriodSeconds: 0, ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}) });
    } catch (error) {
      if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'Conflict')) return;
      this.#d.log(`kubelet ${this.#d.node}: deleting pod ${pod.metadata.namespace}/${pod.metadata.name}: ${error instanceof Error ? error.message : String(error)}`);
      if (!this.#forgotten) this.#deleteRetry = this.#d.clock.after(statusSyncPeriodMs, () => void this.#finalDelete());
    }
  }

  /**
   * Once: the final delete's own DELETED event reaches forget() while #deleteFromApi still awaits
   * that delete, and a second teardown would free the pod's IP twice (two later pods got one IP).
   */
  #teardown(): void {
    if (this.#tornDown) return;
    this.#tornDown = true;
    this.#deadline?.timer.cancel();
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
