// Starting a pod's containers: the status posted before a pass, the image pulled (and the pod's image
// volumes), the environment made, created, the process started, its probes begun and postStart run
// (the next container waits for it); a start that fails before anything is created retries on the pod
// worker's next try. Containers a restarted kubelet found running are resumed instead.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer), kuberuntime_manager.go
// (SyncPod), kubelet_pods.go (getPullSecretsForPod), kubelet.go (SyncPod's status before the pass).
import { expandBehaviourEnv, resolveBehaviour, usesCommand } from '../api/index.ts';
import type { Container, SimBehaviour } from '../api/index.ts';
import { componentTurnOver, copyJson } from '../core/index.ts';
import { resourcesOf } from './allocation.ts';
import { containerSpec } from './container-context.ts';
import type { ContainerContext, LiveContainer } from './container-context.ts';
import { expandCommandAndArgs } from './container-env.ts';
import { podHostnameError, podKernelHostname } from './container-files.ts';
import type { ContainerRecord, InstanceState } from './container-record.ts';
import { hookFailureMessage, runHandler } from './handlers.ts';
import type { EnsureResult } from './image-manager.ts';
import { invalidImageMessage } from './image-reference.ts';
import { hasImageVolumes, mountedPullFailure, pullImageVolumes } from './image-volumes.ts';
import type { ImageVolumePulls } from './image-volumes.ts';
import type { ContainerTypeLabel } from './kubelet-metrics.ts';
import { LogBuffer } from './logs.ts';
import type { PodResize } from './pod-resize.ts';
import type { PodWorkerDeps, PodWorkerView } from './pod-worker-deps.ts';
import { ProcessContainer } from './process-container.ts';
import { resourceAmountOf } from './quantities.ts';
import { SimContainer, writePastLines } from './sim-container.ts';
import type { ContainerExit, ContainerProcess } from './sim-container.ts';
import type { PodStatusWriter } from './status-writer.ts';
import type { PodSandbox } from './pod-sandbox.ts';
import type { ContainerProbes } from './container-probes.ts';
import { formatPod } from './events.ts';

export interface ContainerStarterOptions {
  deps: Pick<PodWorkerDeps, 'clock' | 'random' | 'images' | 'metrics' | 'runtime' | 'envSources'>;
  /** The runtime's containers: a start puts the new one here. */
  live: Map<string, LiveContainer>;
  ctx: ContainerContext;
  status: PodStatusWriter;
  resize: PodResize;
  /** A restarted kubelet found some of the pod's containers running. */
  survivors: boolean;
  /** firstRelist is true the first time: the PLEG's relist after the sandbox was made syncs the pod again. */
  sandbox: Pick<PodSandbox, 'firstRelist'>;
  kill: (rec: ContainerRecord, message: string) => void;
  probes: Pick<ContainerProbes, 'start'>;
  onExit: (rec: ContainerRecord, instance: InstanceState, exit: ContainerExit) => void;
}

/** The commands whose files a script reads: the projected token must be there before it starts. */
const fileReaders: ReadonlySet<string> = new Set(['cat', 'tail']);
/** The PLEG's relist period. */
const relistPeriodMs = 1_000;
const containerTypeLabel: Record<ContainerRecord['kind'], ContainerTypeLabel> = { regular: 'container', init: 'init_container', sidecar: 'init_container', ephemeral: 'ephemeral_container' };

export class ContainerStarter {
  readonly #v: PodWorkerView;
  readonly #o: ContainerStarterOptions;
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
  /** Containers a restarted kubelet found running, waiting for their processes to be resumed. */
  #survivors: boolean;

  constructor(view: PodWorkerView, options: ContainerStarterOptions) {
    this.#v = view;
    this.#o = options;
    this.#survivors = options.survivors;
  }

  /** A start is under way: the pod worker starts nothing else until it is done. */
  get busy(): boolean {
    return this.#busy;
  }

  get #uid(): string {
    return this.#v.pod.metadata.uid ?? '';
  }

  /** One sync's pass over the containers: one that started no main container while nothing was busy ends the held pass. */
  syncPass(run: () => void): void {
    this.#mainStarting = false;
    run();
    if (!this.#mainStarting && !this.#busy) this.endMainPass();
  }

  /** A definition-change kill holds the status until the new instance started. */
  holdForRestart(): void {
    if (this.#restartHold) return;
    this.#restartHold = true;
    this.#o.status.hold();
  }

  /**
   * The containers a restarted kubelet found go on as they were: no pull, create or start (no events),
   * their processes resumed where their behaviour has them by now, their probes running again, and a
   * terminated one's scripted log lines there for `kubectl logs`.
   */
  resumeSurvivors(): void {
    if (!this.#survivors) return;
    this.#survivors = false;
    for (const rec of this.#v.records.values()) {
      const instance = rec.current;
      const spec = containerSpec(this.#v.pod, rec.name);
      if (!instance || !spec || this.#o.live.has(rec.name)) continue;
      const c = spec.c;
      this.#o.deps.images.markPresent(c.image ?? '');
      const made = this.#o.ctx.environment(c);
      const behaviour = expandBehaviourEnv(resolveBehaviour(this.#v.pod, expandCommandAndArgs(c, made.ok ? made.env : {}), rec.kind), this.#o.ctx.imageEnv(made.ok ? made.env : {}), this.#o.ctx.gpuList(c));
      const live: LiveContainer = { logs: new LogBuffer(), probes: {}, ...(made.ok ? { env: made.env } : {}) };
      this.#o.live.set(rec.name, live);
      const startedAt = instance.startedAt ?? instance.createdAt;
      if (instance.exit) {
        writePastLines(behaviour, startedAt, instance.exit.finishedAt - startedAt, live.logs);
        live.logs.close();
        continue;
      }
      const limit = resourceAmountOf('memory', instance.actual?.limits?.memory ?? this.#o.resize.startWith(rec.name)?.limits?.memory);
      // A resumed script asks the kubelet as before (its token is requested again, as a restarted token manager would).
      const script = behaviour.script;
      if (script && usesCommand(script.program, fileReaders)) void this.#o.ctx.podFiles().requestTokens(this.#v.pod);
      live.sim = new SimContainer({
        clock: this.#o.deps.clock,
        behaviour,
        startedAt,
        ...(limit !== undefined ? { memoryLimitBytes: limit } : {}),
        ...(script ? { command: this.#o.ctx.scriptCommands(c, instance.id, script.env ?? {}), files: this.#o.ctx.scriptFiles(c, instance.id) } : {}),
        logs: live.logs,
        onExit: (exit) => this.#o.onExit(rec, instance, exit),
      });
      this.#o.probes.start(rec, instance, live, c);
    }
  }

  async start(rec: ContainerRecord): Promise<void> {
    const spec = containerSpec(this.#v.pod, rec.name);
    if (!spec) return;
    const { clock } = this.#o.deps;
    this.#o.deps.metrics?.containerStarted(containerTypeLabel[rec.kind]);
    this.#busy = true;
    const main = rec.kind === 'regular';
    if (main) this.#mainStarting = true;
    const laterInPass = main && this.#mainPass;
    // Like SyncPod, post the status as it stands before starting anything (Init:0/2, PodInitializing);
    // the later main containers of one pass start without a status of their own.
    if (!(main && this.#mainPass)) {
      this.#o.status.markDirty();
      await this.#o.status.flush();
      if (main) {
        this.#mainPass = true;
        this.#o.status.hold();
      }
    } else {
      // A pass of thousands of containers leaves the thread to the API server between starts once it has held it long.
      const turn = componentTurnOver();
      if (turn) await turn;
    }
    if (!this.#v.isSyncing()) {
      return this.#abandonStart();
    }
    const c = spec.c;
    const image = c.image ?? '';
    const invalidImage = invalidImageMessage(image);
    if (invalidImage !== undefined) {
      this.#v.event(rec.name, 'Warning', 'InspectFailed', invalidImage);
      return this.#startFailed(rec, 'InvalidImageName', invalidImage, 'InvalidImageName');
    }
    if (hasImageVolumes(this.#v.pod)) {
      // The main containers of one pass start in one sync, which pulls the pod's image volumes once.
      if (!laterInPass || !this.#imageVolumePulls) this.#imageVolumePulls = pullImageVolumes(this.#o.deps.images, this.#v.pod, this.#uid, (type, reason, message) => this.#v.event(undefined, type, reason, message));
      const failed = mountedPullFailure(await this.#imageVolumePulls, c);
      if (!this.#v.isSyncing()) return this.#abandonStart();
      if (failed) return this.#pullFailed(rec, failed);
    }
    const planned = resolveBehaviour(this.#v.pod, c, rec.kind);
    // SyncPod fetches the pod's pull secrets on every pass, whatever the image needs.
    const secretsFound = this.#pullSecretsFound();
    const pulled = await this.#o.deps.images.ensure({
      podUID: this.#uid,
      image,
      policy: c.imagePullPolicy ?? 'IfNotPresent',
      pullMs: planned.pullMs,
      notFound: planned.pullNotFound,
      unauthorized: planned.pullUnauthorized && !secretsFound,
      event: (type, reason, message) => this.#v.event(rec.name, type, reason, message),
    });
    if (!this.#v.isSyncing()) {
      return this.#abandonStart();
    }
    if (!pulled.ok) return this.#pullFailed(rec, pulled);
    // GenerateRunContainerOptions: the hostname before the environment.
    const hostnameError = podHostnameError(this.#v.pod);
    if (hostnameError !== undefined) return this.#startFailed(rec, 'CreateContainerConfigError', hostnameError, hostnameError);
    const environment = this.#o.ctx.environment(c);
    if (!environment.ok) return this.#startFailed(rec, 'CreateContainerConfigError', environment.message, environment.message);
    // The command and args run with $(VAR) replaced; the behaviour planned for the pull holds unless they change.
    const run = expandCommandAndArgs(c, environment.env);
    const behaviour = expandBehaviourEnv(run === c ? planned : resolveBehaviour(this.#v.pod, run, rec.kind), this.#o.ctx.imageEnv(environment.env), this.#o.ctx.gpuList(c));
    const { instance, live } = this.#create(rec, c, image, environment.env);
    const argv = [...(run.command ?? []), ...(run.args ?? [])];
    const onHost = this.#o.deps.runtime === 'process' && argv.length > 0;
    if (behaviour.startupDelayMs > 0 && !onHost) {
      await new Promise<void>((resolve) => (live.creating = clock.after(behaviour.startupDelayMs, resolve)));
      delete live.creating;
    }
    // The projected token is in the volume before the process starts: a script's `cat` finds it there.
    if (behaviour.script && !onHost && usesCommand(behaviour.script.program, fileReaders)) await this.#o.ctx.podFiles().requestTokens(this.#v.pod);
    if (!this.#v.isSyncing() || rec.current !== instance) {
      return this.#abandonStart();
    }
    live.sim = this.#process(rec, c, instance, live, onHost ? argv : undefined, behaviour);
    // A host process has started (or failed to) once spawned settles; a simulated one is up already.
    if (live.sim.spawned) await live.sim.spawned;
    instance.startedAt = live.sim.startedAt;
    if (instance.exit?.reason === 'StartError') return this.#runFailed(rec, instance.exit);
    this.#v.event(rec.name, 'Normal', 'Started', 'Container started');
    this.#o.probes.start(rec, instance, live, c);
    this.#o.status.markDirty();
    const postStart = c.lifecycle?.postStart;
    if (postStart) {
      const res = runHandler(postStart, this.#o.ctx.handlerTarget(live, c));
      if (res.durationMs > 0) await clock.sleep(res.durationMs);
      if (!res.ok && !instance.exit) return this.#postStartFailed(rec, instance, hookFailureMessage(postStart, res, rec.name, formatPod(this.#v.pod)));
      instance.postStartDone = true;
      this.#o.status.markDirty();
    }
    this.#busy = false;
    this.#v.sync();
  }

  /** CreateContainer: the new instance (the current one becomes the previous) and its log, a Created event. */
  #create(rec: ContainerRecord, c: Readonly<Container>, image: string, env: Readonly<Record<string, string>>): { instance: InstanceState; live: LiveContainer } {
    delete rec.startRetryAt;
    if (rec.current) {
      rec.previous = rec.current;
      rec.restartCount++;
    }
    delete rec.waiting;
    const actual = copyJson(this.#o.resize.startWith(rec.name) ?? resourcesOf(c));
    const instance: InstanceState = { id: this.#o.deps.random.hex(32), image, createdAt: this.#o.deps.clock.now(), postStartDone: !c.lifecycle?.postStart, startupPassed: !c.startupProbe, readinessPassed: !c.readinessProbe, actual };
    rec.current = instance;
    delete rec.resizeRestart;
    delete rec.definitionRestart;
    const old = this.#o.live.get(rec.name);
    const live: LiveContainer = { logs: new LogBuffer(), probes: {}, env, ...(old ? { previousLogs: old.logs } : {}) };
    this.#o.live.set(rec.name, live);
    this.#v.event(rec.name, 'Normal', 'Created', 'Container created');
    this.#o.status.markDirty();
    return { instance, live };
  }

  /** StartContainer: a host process for `argv` (runtime: process), else the simulated one its behaviour models. */
  #process(rec: ContainerRecord, c: Readonly<Container>, instance: InstanceState, live: LiveContainer, argv: string[] | undefined, behaviour: SimBehaviour): ContainerProcess {
    const { clock } = this.#o.deps;
    const onExit = (exit: ContainerExit): void => this.#o.onExit(rec, instance, exit);
    if (argv) return new ProcessContainer({ clock, argv, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOSTNAME: podKernelHostname(this.#v.pod), ...live.env }, ...(c.workingDir ? { workingDir: c.workingDir } : {}), logs: live.logs, onExit });
    const limit = resourceAmountOf('memory', instance.actual?.limits?.memory);
    const script = behaviour.script ? { command: this.#o.ctx.scriptCommands(c, instance.id, behaviour.script.env ?? {}), files: this.#o.ctx.scriptFiles(c, instance.id) } : {};
    return new SimContainer({ clock, behaviour, ...(limit !== undefined ? { memoryLimitBytes: limit } : {}), logs: live.logs, onExit, ...script });
  }

  /** The runtime could not start it: no Started event; it restarts as its policy says. */
  #runFailed(rec: ContainerRecord, exit: ContainerExit): void {
    this.#v.event(rec.name, 'Warning', 'Failed', `Error: ${exit.message ?? ''}`);
    this.#o.deps.metrics?.containerStartFailed(containerTypeLabel[rec.kind], 'RunContainerError');
    this.#busy = false;
    this.#v.sync();
  }

  /** The postStart hook failed: the container is killed and waits in PostStartHookError while its restart is due. */
  #postStartFailed(rec: ContainerRecord, instance: InstanceState, message: string): void {
    this.#v.event(rec.name, 'Warning', 'FailedPostStartHook', 'PostStartHook failed');
    this.#o.deps.metrics?.containerStartFailed(containerTypeLabel[rec.kind], 'PostStartHookError');
    instance.startError = { reason: 'PostStartHookError', message };
    this.#busy = false;
    this.#o.kill(rec, 'FailedPostStartHook');
  }

  /**
   * getPullSecretsForPod: the pod's image pull secrets that exist; a named one missing is a Warning
   * FailedToRetrieveImagePullSecret event, and the pull goes on without it. True when one was found.
   */
  #pullSecretsFound(): boolean {
    const names = (this.#v.pod.spec.imagePullSecrets ?? []).map((s) => s.name ?? '').filter((n) => n !== '');
    const secrets = this.#o.deps.envSources?.secrets;
    const missing = names.filter((n) => !secrets?.getByName(this.#v.pod.metadata.namespace, n));
    if (missing.length > 0) this.#v.event(undefined, 'Warning', 'FailedToRetrieveImagePullSecret', `Unable to retrieve some image pull secrets (${missing.join(', ')}); attempting to pull the image may not succeed.`);
    return missing.length < names.length;
  }

  /**
   * startContainer failed before creating anything (an image reference that does not parse, a
   * configuration naming what is missing): the container waits with `reason` until the pod worker's
   * next try, 10-15 s on (backOffPeriod, jittered by half), while the pod's other containers start.
   */
  #pullFailed(rec: ContainerRecord, pulled: Exclude<EnsureResult, { ok: true }>): void {
    // The PLEG's relist (every 1 s) sees the pod's new sandbox and syncs it again, inside the pull's back-off.
    const relistMs = this.#o.sandbox.firstRelist() ? relistPeriodMs : undefined;
    this.#startFailed(rec, pulled.reason, pulled.message, pulled.reason, relistMs);
  }

  #startFailed(rec: ContainerRecord, reason: string, message: string, error: string, retryMs?: number): void {
    // The start a definition change asked for was tried: from now on the restart policy decides.
    delete rec.definitionRestart;
    this.#v.event(rec.name, 'Warning', 'Failed', `Error: ${error}`);
    this.#o.deps.metrics?.containerStartFailed(containerTypeLabel[rec.kind], reason);
    rec.waiting = { reason, message };
    const delay = retryMs ?? this.#v.retryDelay();
    rec.startRetryAt = this.#o.deps.clock.now() + delay;
    this.#o.status.markDirty();
    this.#busy = false;
    this.#v.after(delay, () => this.#v.sync());
    this.#v.sync();
  }

  /** A start the pod's state overtook (it terminates, or the container was replaced): nothing waits on it. */
  #abandonStart(): void {
    this.#busy = false;
    this.endMainPass();
  }

  /** Ends the held pass; a definition-change restart keeps its hold until its start was tried (unless `force`). */
  endMainPass(force = false): void {
    if (this.#restartHold && !force && this.#v.isSyncing() && [...this.#v.records.values()].some((r) => r.definitionRestart)) return;
    if (!this.#mainPass && !this.#restartHold) return;
    this.#mainPass = false;
    this.#restartHold = false;
    this.#o.status.release();
  }
}
