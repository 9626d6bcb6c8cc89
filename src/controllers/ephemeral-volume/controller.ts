// The ephemeral volume controller ("ephemeral-volume-controller"): a pod added with generic
// ephemeral volumes gets their claims. Pod updates are ignored (the volumes of a pod are
// immutable) and so are deletions (the claims go with the pod through their owner reference); a
// deleted claim a pod still names is created again.
// Upstream: pkg/controller/volume/ephemeral/controller.go (NewController, enqueuePod, onPVCDelete).
import type { PersistentVolumeClaim, Pod } from '../../api/index.ts';
import { ephemeralClaimName, refs } from '../../api/index.ts';
import type { Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { keyOf } from '../../core/index.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { syncPod } from './sync.ts';
import type { SyncContext } from './sync.ts';

// --concurrent-ephemeralvolume-syncs (RecommendedDefaultEphemeralVolumeControllerConfiguration).
const defaultWorkers = 5;
// common.PodPVCIndex: a pod by the keys of the claims it uses, its ephemeral volumes' included.
const podPvcIndex = 'pod-pvc-index';

function podClaimKeys(pod: DeepReadonly<Pod>): string[] {
  const namespace = pod.metadata.namespace ?? '';
  return (pod.spec.volumes ?? []).flatMap((v) => {
    const claim = v.persistentVolumeClaim?.claimName ?? (v.ephemeral ? ephemeralClaimName(pod, v) : '');
    return claim ? [`${namespace}/${claim}`] : [];
  });
}

export class EphemeralVolumeController {
  readonly #o: ControllerOptions;
  readonly #pods: Informer<Pod>;
  readonly #claims: Informer<PersistentVolumeClaim>;
  readonly #queue: WorkQueue<string>;
  readonly #ctx: SyncContext;

  constructor(options: ControllerOptions) {
    this.#o = options;
    const { client, clock, log } = options;
    this.#pods = informerFor<Pod>(options.informers, { client, clock, log, ref: refs.pods });
    this.#claims = informerFor<PersistentVolumeClaim>(options.informers, { client, clock, log, ref: refs.persistentVolumeClaims });
    this.#queue = new WorkQueue<string>({ clock });
    this.#pods.addIndex(podPvcIndex, podClaimKeys);
    this.#pods.addHandlers({ onAdd: (p) => this.#enqueuePod(p) });
    // Deleted on purpose or by accident: a pod that still names it needs it back.
    this.#claims.addHandlers({
      onDelete: (c) => {
        for (const p of this.#pods.byIndex(podPvcIndex, keyOf(c))) this.#enqueuePod(p);
      },
    });
    this.#ctx = {
      client,
      pods: this.#pods,
      claims: this.#claims,
      recorder: createEventRecorder({ client, clock, component: 'ephemeral_volume', log, typeOf: () => ({ apiVersion: 'v1', kind: 'Pod' }) }),
    };
  }

  start(): void {
    this.#pods.start();
    this.#claims.start();
    void Promise.all([this.#pods.waitForSync(), this.#claims.waitForSync()]).then(() => {
      if (!this.#queue.shuttingDown) void runWorkers(this.#queue, this.#o.workers ?? defaultWorkers, (key) => this.sync(key), this.#o.log);
    });
  }

  /** Idempotent: a second stop must not release the shared informers again. */
  stop(): void {
    if (this.#queue.shuttingDown) return;
    this.#queue.shutDown();
    this.#pods.stop();
    this.#claims.stop();
  }

  sync(key: string): Promise<void> {
    return syncPod(this.#ctx, key);
  }

  #enqueuePod(pod: DeepReadonly<Pod>): void {
    if (pod.metadata.deletionTimestamp) return;
    if ((pod.spec.volumes ?? []).some((v) => v.ephemeral)) this.#queue.add(keyOf(pod));
  }
}
