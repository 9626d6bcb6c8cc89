// The crash-loop back-off between a container's exit and its next start: a refused start is a BackOff
// event and, from the next sync, a CrashLoopBackOff waiting reason; the pod worker syncs again when the
// back-off ends or after its backOffPeriod, whichever is sooner.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff), kubelet.go (SyncPod,
// reasonCache.Update), kubelet_pods.go (convertToAPIContainerStatuses), pod_workers.go (completeWork).
import { formatGoDurationMs } from './backoff.ts';
import { containerSpec } from './container-context.ts';
import type { ContainerRecord } from './container-record.ts';
import type { PodWorkerDeps, PodWorkerView } from './pod-worker-deps.ts';
import type { ContainerStarter } from './start-container.ts';
import { formatPod } from './events.ts';

export interface ContainerBackOffOptions {
  deps: Pick<PodWorkerDeps, 'clock' | 'backoff'>;
  starter: Pick<ContainerStarter, 'start'>;
}

export class ContainerBackOff {
  readonly #v: PodWorkerView;
  readonly #o: ContainerBackOffOptions;

  constructor(view: PodWorkerView, options: ContainerBackOffOptions) {
    this.#v = view;
    this.#o = options;
  }

  /** Starts (or restarts) the container unless it is backing off; true if a start began. */
  startOrBackOff(rec: ContainerRecord): boolean {
    const { clock, backoff } = this.#o.deps;
    const now = clock.now();
    if (rec.startRetryAt !== undefined && now < rec.startRetryAt) return false;
    const cur = rec.current;
    // A resize or definition-change restart is not a crash: no back-off.
    if (cur?.exit && !rec.resizeRestart && !rec.definitionRestart) {
      const key = this.#key(rec);
      if (backoff.isInBackOffSince(key, cur.exit.finishedAt, now)) {
        this.#refuseStart(rec, key, cur.exit.finishedAt, now);
        return false;
      }
      backoff.next(key, now, cur.exit.finishedAt);
    }
    delete rec.backOff;
    delete rec.backOffSyncAt;
    void this.#o.starter.start(rec);
    return true;
  }

  /** GetStableKey: the back-off is the container's as its spec names it now, so a new image starts afresh. */
  #key(rec: ContainerRecord): string {
    const pod = this.#v.pod;
    return `${pod.metadata.uid ?? ''}/${rec.name}/${containerSpec(pod, rec.name)?.c.image ?? ''}`;
  }

  /**
   * doBackOff refused the start: a BackOff event on each refused sync, and the reason cache's entry,
   * which the status shows only from the next sync (the exit stays in view until then). The pod
   * worker syncs again after its backOffPeriod (10-15 s), or when the back-off ends if sooner, and
   * starts the container then. Passes between those syncs (an informer's update) refuse silently.
   */
  #refuseStart(rec: ContainerRecord, key: string, finishedAt: number, now: number): void {
    if (rec.backOffSyncAt !== undefined && now < rec.backOffSyncAt) return;
    const { backoff } = this.#o.deps;
    const podRef = formatPod(this.#v.pod);
    rec.backOff = { reason: 'CrashLoopBackOff', message: `back-off ${formatGoDurationMs(backoff.get(key))} restarting failed container=${rec.name} pod=${podRef}` };
    this.#v.event(rec.name, 'Warning', 'BackOff', `Back-off restarting failed container ${rec.name} in pod ${podRef}`);
    const at = Math.min(now + this.#v.retryDelay(), backoff.releaseAt(key, finishedAt));
    rec.backOffSyncAt = at;
    this.#v.after(Math.max(0, at - now), () => {
      // generateAPIPodStatus at the start of this sync reads the reason cache.
      if (rec.backOff && rec.current?.exit?.finishedAt === finishedAt) {
        rec.waiting = rec.backOff;
        this.#v.markDirty();
      }
      this.#v.sync();
    });
  }
}
