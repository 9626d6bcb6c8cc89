// Stopping a pod's containers: preStop within the grace period, SIGTERM, SIGKILL when the grace runs
// out, sidecars after the main containers and later sidecars, and a second delete's shorter grace
// cutting every running kill short.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer, executePreStopHook),
// kuberuntime_termination_order.go, pod_workers.go (calculateEffectiveGracePeriod).
import { containerSpec } from './container-context.ts';
import type { ContainerContext, LiveContainer } from './container-context.ts';
import { isRunning } from './container-record.ts';
import type { ContainerRecord } from './container-record.ts';
import { runHandler } from './handlers.ts';
import type { PodWorkerDeps, PodWorkerView } from './pod-worker-deps.ts';

export interface ContainerKillerOptions {
  deps: Pick<PodWorkerDeps, 'clock'>;
  live: ReadonlyMap<string, LiveContainer>;
  ctx: Pick<ContainerContext, 'handlerTarget'>;
}

/** The kubelet's minimum grace period: a container gets at least this long between SIGTERM and SIGKILL. */
export const minimumGracePeriodSeconds = 2;

export class ContainerKiller {
  readonly #v: PodWorkerView;
  readonly #o: ContainerKillerOptions;
  readonly #exitWaiters: (() => void)[] = [];
  /** When a delete shortened the grace period while terminating: every container is killed by then. */
  #killBy: number | undefined;

  constructor(view: PodWorkerView, options: ContainerKillerOptions) {
    this.#v = view;
    this.#o = options;
  }

  /** The pod's grace period: the delete's, else the spec's, else 30 s. */
  gracePeriod(): number {
    const pod = this.#v.pod;
    return pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
  }

  /** A container exited: the kills waiting on it (or on the termination order) look again. */
  wake(): void {
    for (const w of [...this.#exitWaiters]) w();
  }

  /** A second delete shortened the grace period to `grace` seconds: every running kill ends by then. */
  killBy(grace: number): void {
    const now = this.#o.deps.clock.now();
    const by = now + Math.max(grace, minimumGracePeriodSeconds) * 1000;
    if (this.#killBy !== undefined && this.#killBy <= by) return;
    this.#killBy = by;
    this.#v.after(by - now, () => this.wake());
  }

  /**
   * Stops the container's current instance: `message` (or Stopping container) as the Killing event,
   * `graceOverride` instead of the pod's grace period; `ordered`, a sidecar first waits for the
   * termination order. A container still being created is dropped at once.
   */
  async kill(rec: ContainerRecord, message: string | undefined, graceOverride: number | undefined, ordered = false): Promise<void> {
    const spec = containerSpec(this.#v.pod, rec.name);
    const live = this.#o.live.get(rec.name);
    const instance = rec.current;
    if (!spec || !live || !instance || instance.exit) return;
    this.#v.event(rec.name, 'Normal', 'Killing', message ?? `Stopping container ${rec.name}`);
    if (live.creating) {
      live.creating.cancel();
      delete rec.current;
      if (rec.previous) rec.current = rec.previous;
      return;
    }
    let grace = graceOverride ?? this.gracePeriod();
    const preStop = spec.c.lifecycle?.preStop;
    if (preStop && grace > 0) {
      const res = runHandler(preStop, this.#o.ctx.handlerTarget(live, spec.c));
      const ms = Math.min(res.durationMs, grace * 1000);
      // No await when the hook took no time: SIGTERM follows in the same turn.
      const ran = ms > 0 ? await this.#waitUntil(() => this.#killDue(), ms) : 0;
      if (!res.ok) this.#v.event(rec.name, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
      grace -= Math.floor(ran / 1000);
    }
    if (ordered && rec.kind === 'sidecar' && grace > 0) {
      const waited = await this.#waitUntil(() => this.#mayStop(rec.name) || this.#killDue(), grace * 1000);
      grace -= Math.floor(waited / 1000);
    }
    grace = Math.max(grace, minimumGracePeriodSeconds);
    const sim = live.sim;
    if (!sim || instance.exit) return;
    sim.sigterm();
    if (instance.exit) return;
    await this.#waitUntil(() => instance.exit !== undefined || this.#killDue(), grace * 1000);
    if (!instance.exit) sim.sigkill();
  }

  #killDue(): boolean {
    return this.#killBy !== undefined && this.#o.deps.clock.now() >= this.#killBy;
  }

  /** Resolves once `cond` holds (re-checked on every container exit) or `maxMs` passed; returns ms waited. */
  #waitUntil(cond: () => boolean, maxMs: number): Promise<number> {
    const { clock } = this.#o.deps;
    const start = clock.now();
    if (cond() || maxMs <= 0) return Promise.resolve(0);
    return new Promise((resolve) => {
      const done = (): void => {
        const i = this.#exitWaiters.indexOf(check);
        if (i >= 0) this.#exitWaiters.splice(i, 1);
        timer.cancel();
        resolve(clock.now() - start);
      };
      const check = (): void => {
        if (cond()) done();
      };
      const timer = clock.after(maxMs, done);
      this.#exitWaiters.push(check);
    });
  }

  /** Termination order: a sidecar stops after every main container and every later sidecar. */
  #mayStop(name: string): boolean {
    const pod = this.#v.pod;
    const stopped = (n: string): boolean => !isRunning(this.#v.records.get(n)?.current);
    if (!pod.spec.containers.every((c) => stopped(c.name))) return false;
    const sidecars = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name);
    return sidecars.slice(sidecars.indexOf(name) + 1).every(stopped);
  }
}
