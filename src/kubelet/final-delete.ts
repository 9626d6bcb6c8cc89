// The status manager's final delete of a pod whose containers have all stopped: grace 0 and this pod's
// uid as a precondition. One that fails (a webhook on DELETE that is down, a timeout) is tried again at
// the next 10 s sync, as syncBatch does for a pod that can be deleted; gone or replaced (NotFound, uid
// Conflict) ends it, as does the kubelet forgetting the pod.
// Upstream: pkg/kubelet/status/status_manager.go (syncPod, canBeDeleted).
import { refs } from '../api/index.ts';
import type { Timer } from '../core/index.ts';
import { isApiError } from '../core/index.ts';
import type { PodWorkerDeps } from './pod-worker-deps.ts';
import { statusSyncPeriodMs } from './status-writer.ts';
import type { DeepReadonlyPod } from './types.ts';

export class FinalDelete {
  readonly #d: Pick<PodWorkerDeps, 'client' | 'clock' | 'log' | 'node'>;
  readonly #pod: () => DeepReadonlyPod;
  /** The API no longer has the pod, or the kubelet stopped: no final delete is retried. */
  #forgotten = false;
  #retry: Timer | undefined;

  constructor(deps: Pick<PodWorkerDeps, 'client' | 'clock' | 'log' | 'node'>, pod: () => DeepReadonlyPod) {
    this.#d = deps;
    this.#pod = pod;
  }

  async run(): Promise<void> {
    const pod = this.#pod();
    try {
      await this.#d.client.delete(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', { gracePeriodSeconds: 0, ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}) });
    } catch (error) {
      if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'Conflict')) return;
      this.#d.log(`kubelet ${this.#d.node}: deleting pod ${pod.metadata.namespace}/${pod.metadata.name}: ${error instanceof Error ? error.message : String(error)}`);
      if (!this.#forgotten) this.#retry = this.#d.clock.after(statusSyncPeriodMs, () => void this.run());
    }
  }

  /** The pod is gone from the API (or the kubelet stops): a pending retry is dropped. */
  forget(): void {
    this.#forgotten = true;
    this.#retry?.cancel();
  }
}
