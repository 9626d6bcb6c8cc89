// The pvc-protection and pv-protection controllers: a claim being deleted keeps its
// kubernetes.io/pvc-protection finalizer while a scheduled pod names it (checked in the cache,
// then with a live list, as upstream), and a volume its kubernetes.io/pv-protection finalizer while
// it is Bound. Objects made before protection get the finalizer.
// Upstream: pkg/controller/volume/pvcprotection/pvc_protection_controller.go, pvprotection.
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { isApiError, keyOf, splitObjectKey } from '../../core/index.ts';
import { claimsOf, isDeletionCandidate, needsFinalizer, podUsesClaim, pvProtectionFinalizer, pvcProtectionFinalizer, volumeInUse, withFinalizer } from './protection.ts';

export interface ProtectionControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

// Not 'claim': the volume controller's index of that name on the shared pod informer leaves out ephemeral claims.
const byClaim = 'claimInUse';

export class PvcProtectionController {
  readonly #o: ProtectionControllerOptions;
  readonly #claims: Informer<PersistentVolumeClaim>;
  readonly #pods: Informer<Pod>;
  readonly #queue: WorkQueue<string>;

  constructor(options: ProtectionControllerOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#claims = informerFor<PersistentVolumeClaim>(options.informers, { client, clock, log, ref: refs.persistentVolumeClaims });
    this.#pods = informerFor<Pod>(options.informers, { client, clock, log, ref: refs.pods });
    this.#pods.addIndex(byClaim, (p) => claimsOf(p).map((c) => `${p.metadata.namespace ?? ''}/${c}`));
    this.#queue = new WorkQueue<string>({ clock, baseDelayMs: 5 });
    const claimChanged = (c: DeepReadonly<PersistentVolumeClaim>): void => {
      if (needsFinalizer(c, pvcProtectionFinalizer) || isDeletionCandidate(c, pvcProtectionFinalizer)) this.#queue.add(keyOf(c));
    };
    // Only a pod that goes, ends or was never scheduled can free a claim.
    const podChanged = (p: DeepReadonly<Pod>, deleted: boolean): void => {
      const ended = p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
      if (!deleted && !ended && p.spec.nodeName) return;
      for (const c of claimsOf(p)) this.#queue.add(`${p.metadata.namespace ?? ''}/${c}`);
    };
    this.#claims.addHandlers({ onAdd: claimChanged, onUpdate: (_old, c) => claimChanged(c) });
    this.#pods.addHandlers({
      onAdd: (p) => podChanged(p, false),
      onUpdate: (old, p) => {
        podChanged(p, false);
        if (old.metadata.uid !== p.metadata.uid) podChanged(old, true);
      },
      onDelete: (p) => podChanged(p, true),
    });
  }

  start(): void {
    this.#claims.start();
    this.#pods.start();
    void Promise.all([this.#claims.waitForSync(), this.#pods.waitForSync()]).then(() => {
      if (!this.#queue.shuttingDown) void runWorkers(this.#queue, 1, (key) => this.sync(key), this.#o.log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    this.#claims.stop();
    this.#pods.stop();
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitObjectKey(key);
    const claim = this.#claims.getByName(namespace, name);
    if (!claim) return;
    if (isDeletionCandidate(claim, pvcProtectionFinalizer)) {
      if (!(await this.#inUse(namespace, name))) await updateQuietly(this.#o.client, refs.persistentVolumeClaims, withFinalizer(claim, pvcProtectionFinalizer, false));
      return;
    }
    if (needsFinalizer(claim, pvcProtectionFinalizer)) await updateQuietly(this.#o.client, refs.persistentVolumeClaims, withFinalizer(claim, pvcProtectionFinalizer, true));
  }

  /** The cache first; a pod it lacks yet may exist, so "unused" is confirmed by a live list. */
  async #inUse(namespace: string, name: string): Promise<boolean> {
    if (this.#pods.byIndex(byClaim, `${namespace}/${name}`).some((p) => podUsesClaim(p, name))) return true;
    const live = await this.#o.client.list<Pod>(refs.pods, { namespace });
    return live.items.some((p) => podUsesClaim(p, name));
  }
}

export class PvProtectionController {
  readonly #o: ProtectionControllerOptions;
  readonly #volumes: Informer<PersistentVolume>;
  readonly #queue: WorkQueue<string>;

  constructor(options: ProtectionControllerOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#volumes = informerFor<PersistentVolume>(options.informers, { client, clock, log, ref: refs.persistentVolumes });
    this.#queue = new WorkQueue<string>({ clock, baseDelayMs: 5 });
    const changed = (v: DeepReadonly<PersistentVolume>): void => {
      if (needsFinalizer(v, pvProtectionFinalizer) || isDeletionCandidate(v, pvProtectionFinalizer)) this.#queue.add(v.metadata.name ?? '');
    };
    this.#volumes.addHandlers({ onAdd: changed, onUpdate: (_old, v) => changed(v) });
  }

  start(): void {
    this.#volumes.start();
    void this.#volumes.waitForSync().then(() => {
      if (!this.#queue.shuttingDown) void runWorkers(this.#queue, 1, (key) => this.sync(key), this.#o.log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    this.#volumes.stop();
  }

  async sync(name: string): Promise<void> {
    const pv = this.#volumes.getByName(undefined, name);
    if (!pv) return;
    if (isDeletionCandidate(pv, pvProtectionFinalizer)) {
      if (!volumeInUse(pv)) await updateQuietly(this.#o.client, refs.persistentVolumes, withFinalizer(pv, pvProtectionFinalizer, false));
      return;
    }
    if (needsFinalizer(pv, pvProtectionFinalizer)) await updateQuietly(this.#o.client, refs.persistentVolumes, withFinalizer(pv, pvProtectionFinalizer, true));
  }
}

/** A conflict or a vanished object means the informer brings a newer version, which syncs again. */
async function updateQuietly(client: Client, ref: Parameters<Client['update']>[0], obj: Parameters<Client['update']>[1]): Promise<void> {
  try {
    await client.update(ref, obj);
  } catch (error) {
    if (isApiError(error) && (error.reason === 'Conflict' || error.reason === 'NotFound')) return;
    throw error;
  }
}
