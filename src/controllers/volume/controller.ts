// The persistent-volume controller: informers on claims, volumes, classes and pods feed two
// queues (claims by ns/name, volumes by name) drained by syncClaim / syncVolume, plus a
// resync every 15 s as kube-controller-manager's --pvclaimbinder-sync-period.
// Upstream: pkg/controller/volume/persistentvolume/pv_controller_base.go.
import { refs } from '../../api/index.ts';
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly, Timer } from '../../core/index.ts';
import { keyOf, objectKey } from '../../core/index.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { FreshCache } from './fresh-cache.ts';
import type { PVC } from './matching.ts';
import { syncClaim, syncVolume } from './sync.ts';
import type { VolumeSyncContext } from './sync.ts';

export interface PersistentVolumeControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** Default 15 s. */
  resyncPeriodMs?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

const claimIndex = 'claim';

export class PersistentVolumeController {
  readonly #o: PersistentVolumeControllerOptions;
  readonly #claimInformer: Informer<PersistentVolumeClaim>;
  readonly #volumeInformer: Informer<PersistentVolume>;
  readonly #classes: Informer<StorageClass>;
  readonly #pods: Informer<Pod>;
  readonly #claimQueue: WorkQueue<string>;
  readonly #volumeQueue: WorkQueue<string>;
  readonly #ctx: VolumeSyncContext;
  #resync: Timer | undefined;
  #stopped = false;

  constructor(options: PersistentVolumeControllerOptions) {
    this.#o = options;
    const { client, clock, log } = options;
    this.#claimInformer = informerFor<PersistentVolumeClaim>(options.informers, { client, ref: refs.persistentVolumeClaims, clock, log });
    this.#volumeInformer = informerFor<PersistentVolume>(options.informers, { client, ref: refs.persistentVolumes, clock, log });
    this.#classes = informerFor<StorageClass>(options.informers, { client, ref: refs.storageClasses, clock, log });
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#pods.addIndex(claimIndex, (p) => (p.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [objectKey(p.metadata.namespace, v.persistentVolumeClaim.claimName)] : [])));
    this.#claimQueue = new WorkQueue<string>({ clock, baseDelayMs: 5 });
    this.#volumeQueue = new WorkQueue<string>({ clock, baseDelayMs: 5 });
    const claims = new FreshCache(this.#claimInformer);
    const volumes = new FreshCache(this.#volumeInformer);
    this.#ctx = {
      client,
      recorder: createEventRecorder({
        client,
        clock,
        component: 'persistentvolume-controller',
        log,
        typeOf: (obj) => ({ apiVersion: 'v1', kind: obj.metadata.namespace ? 'PersistentVolumeClaim' : 'PersistentVolume' }),
      }),
      claims,
      volumes,
      classes: { get: (name) => this.#classes.get(name), list: () => this.#classes.list() },
      unscheduledPodsUsing: (claim: PVC) =>
        this.#pods
          .byIndex(claimIndex, keyOf(claim))
          .filter((p) => !p.spec.nodeName && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed')
          .map((p) => p.metadata.name ?? ''),
      enqueueClaim: (key) => this.#claimQueue.add(key),
    };
    const enqueueClaim = (c: DeepReadonly<PersistentVolumeClaim>): void => this.#claimQueue.add(keyOf(c));
    const enqueueVolume = (v: DeepReadonly<PersistentVolume>): void => this.#volumeQueue.add(v.metadata.name ?? '');
    this.#claimInformer.addHandlers({
      onAdd: enqueueClaim,
      onUpdate: (_old, c) => enqueueClaim(c),
      onDelete: (c) => {
        claims.forget(keyOf(c));
        // The volume it was bound to is now Released (or will be reclaimed).
        if (c.spec?.volumeName) this.#volumeQueue.add(c.spec.volumeName);
      },
    });
    this.#volumeInformer.addHandlers({
      onAdd: enqueueVolume,
      onUpdate: (_old, v) => enqueueVolume(v),
      onDelete: (v) => {
        volumes.forget(v.metadata.name ?? '');
        const ref = v.spec?.claimRef;
        if (ref?.name) this.#claimQueue.add(objectKey(ref.namespace, ref.name));
      },
    });
    // A new default class may unblock claims with no class.
    this.#classes.addHandlers({ onAdd: () => this.#enqueueAll(), onUpdate: () => this.#enqueueAll() });
  }

  #enqueueAll(): void {
    for (const c of this.#claimInformer.list()) this.#claimQueue.add(keyOf(c));
    for (const v of this.#volumeInformer.list()) this.#volumeQueue.add(v.metadata.name ?? '');
  }

  #scheduleResync(): void {
    if (this.#stopped) return;
    this.#resync = this.#o.clock.after(this.#o.resyncPeriodMs ?? 15_000, () => {
      this.#enqueueAll();
      this.#scheduleResync();
    });
  }

  start(): void {
    for (const inf of [this.#claimInformer, this.#volumeInformer, this.#classes, this.#pods]) inf.start();
    void Promise.all([this.#claimInformer, this.#volumeInformer, this.#classes, this.#pods].map((i) => i.waitForSync())).then(() => {
      if (this.#stopped) return;
      void runWorkers(this.#volumeQueue, 1, (name) => syncVolume(this.#ctx, name), this.#o.log);
      void runWorkers(this.#claimQueue, 1, (key) => syncClaim(this.#ctx, key), this.#o.log);
      this.#scheduleResync();
    });
  }

  stop(): void {
    this.#stopped = true;
    this.#resync?.cancel();
    this.#claimQueue.shutDown();
    this.#volumeQueue.shutDown();
    for (const inf of [this.#claimInformer, this.#volumeInformer, this.#classes, this.#pods]) inf.stop();
  }
}
