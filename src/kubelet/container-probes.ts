// A container's probe workers: started with the container (startup, liveness, readiness), each attempt
// counted and a failed one an Unhealthy event; a failed liveness or startup probe restarts the container
// with the probe's own grace period if it has one; a terminating pod's liveness and startup probes stop.
// Upstream: pkg/kubelet/prober/prober_manager.go (AddPod, StopLivenessAndStartup), prober/worker.go,
// kuberuntime_manager.go (computePodActions: a failed liveness or startup probe kills the container).
import { shouldRestart } from '../api/index.ts';
import type { Container } from '../api/index.ts';
import { containerSpec } from './container-context.ts';
import type { ContainerContext, LiveContainer } from './container-context.ts';
import type { ContainerRecord, InstanceState } from './container-record.ts';
import { runProbe } from './handlers.ts';
import { runHostProbe } from './host-probe.ts';
import type { PodWorkerDeps, PodWorkerView } from './pod-worker-deps.ts';
import { ProbeWorker, probeKindName } from './prober.ts';
import type { ProbeKind } from './prober.ts';
import { ProcessContainer } from './process-container.ts';

export interface ContainerProbesOptions {
  deps: Pick<PodWorkerDeps, 'clock' | 'metrics'>;
  live: ReadonlyMap<string, LiveContainer>;
  ctx: Pick<ContainerContext, 'handlerTarget'>;
  onResult: (rec: ContainerRecord, instance: InstanceState, kind: ProbeKind, ok: boolean) => void;
}

export class ContainerProbes {
  readonly #v: PodWorkerView;
  readonly #o: ContainerProbesOptions;

  constructor(view: PodWorkerView, options: ContainerProbesOptions) {
    this.#v = view;
    this.#o = options;
  }

  start(rec: ContainerRecord, instance: InstanceState, live: LiveContainer, c: Readonly<Container>): void {
    const { clock } = this.#o.deps;
    const kinds: [ProbeKind, Container['startupProbe']][] = [['startup', c.startupProbe], ['liveness', c.livenessProbe], ['readiness', c.readinessProbe]];
    for (const [kind, probe] of kinds) {
      if (!probe) continue;
      live.probes[kind] = new ProbeWorker({
        clock,
        kind,
        probe,
        startedAt: instance.startedAt ?? clock.now(),
        isStarted: () => instance.startupPassed,
        run: () => (live.sim instanceof ProcessContainer ? runHostProbe(probe, this.#o.ctx.handlerTarget(live, c), live.sim.env, clock) : runProbe(probe, this.#o.ctx.handlerTarget(live, c))),
        onFailedAttempt: (output) => this.#v.event(rec.name, 'Warning', 'Unhealthy', `${probeKindName[kind]} probe failed: ${output}`),
        onAttempt: (ok, durationMs) => this.#probed(rec, kind, ok, durationMs),
        onResult: (ok) => this.#o.onResult(rec, instance, kind, ok),
      });
    }
  }

  #probed(rec: ContainerRecord, kind: ProbeKind, ok: boolean, durationMs: number): void {
    const pod = this.#v.pod;
    this.#o.deps.metrics?.probed({ probeType: probeKindName[kind], container: rec.name, pod: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', podUID: pod.metadata.uid ?? '' }, ok, durationMs / 1000);
  }

  /** The Killing message and grace period of a container whose liveness or startup probe failed. */
  failureKill(rec: ContainerRecord, kind: ProbeKind): { message: string; grace: number | undefined } {
    const pod = this.#v.pod;
    const c = containerSpec(pod, rec.name)?.c;
    const what = rec.kind === 'regular' ? 'Container' : 'Init container';
    const restart = rec.kind !== 'regular' || shouldRestart(c ?? { name: rec.name }, pod.spec.restartPolicy ?? 'Always', 137);
    const message = `${what} ${rec.name} failed ${kind} probe${rec.kind === 'regular' && restart ? ', will be restarted' : ''}`;
    const grace = c?.[kind === 'liveness' ? 'livenessProbe' : 'startupProbe']?.terminationGracePeriodSeconds;
    return { message, grace };
  }

  /**
   * SyncTerminatingPod stops the liveness and startup probes of the pod's regular containers before it
   * kills them: no restart and no Unhealthy event while they stop; readiness goes on. With its startup
   * worker gone, the prober manager counts a running container as started (isContainerStarted).
   * Upstream: pkg/kubelet/kubelet.go (SyncTerminatingPod), prober/prober_manager.go (StopLivenessAndStartup).
   */
  stopLivenessAndStartup(): void {
    for (const c of this.#v.pod.spec.containers) {
      const live = this.#o.live.get(c.name);
      if (!live) continue;
      for (const kind of ['liveness', 'startup'] as const) {
        live.probes[kind]?.stop();
        delete live.probes[kind];
      }
      const cur = this.#v.records.get(c.name)?.current;
      if (cur && !cur.exit && !cur.startupPassed) {
        cur.startupPassed = true;
        this.#v.markDirty();
      }
    }
  }
}
