// The built-in dynamic provisioner for `drydock.dev/local-path`, run as an external provisioner
// would be: it acts on claims the PV controller annotated for it, creates the volume (the PV
// controller then binds it) and deletes released volumes of the Delete policy.
// Upstream: kubernetes-sigs/sig-storage-lib-external-provisioner controller/controller.go
// (provisionClaimOperation, deleteVolumeOperation); rancher/local-path-provisioner.
import { refs } from '../../api/index.ts';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { Informer, WorkQueue, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { isApiError, keyOf } from '../../core/index.ts';
import { createEventRecorder } from '../event-recorder.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { localPathProvisionerName, localPathVolume, provisionedVolumeName, shouldDelete, shouldProvision } from './local-path.ts';
import { annSelectedNode, claimClass } from './matching.ts';

export interface LocalPathProvisionerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
}

type Work = { kind: 'claim'; key: string } | { kind: 'volume'; name: string };

export class LocalPathProvisioner {
  readonly #o: LocalPathProvisionerOptions;
  readonly #claims: Informer<PersistentVolumeClaim>;
  readonly #volumes: Informer<PersistentVolume>;
  readonly #classes: Informer<StorageClass>;
  readonly #queue: WorkQueue<string>;
  readonly #recorder: EventRecorder;
  #stopped = false;

  constructor(options: LocalPathProvisionerOptions) {
    this.#o = options;
    const { client, clock, log } = options;
    this.#claims = new Informer<PersistentVolumeClaim>({ client, ref: refs.persistentVolumeClaims, clock, log });
    this.#volumes = new Informer<PersistentVolume>({ client, ref: refs.persistentVolumes, clock, log });
    this.#classes = new Informer<StorageClass>({ client, ref: refs.storageClasses, clock, log });
    this.#queue = new WorkQueue<string>({ clock, baseDelayMs: 5 });
    // lib-external-provisioner reports as "<provisioner>_<identity>".
    this.#recorder = createEventRecorder({
      client,
      clock,
      component: `${localPathProvisionerName}_drydock`,
      log,
      typeOf: (obj) => ({ apiVersion: 'v1', kind: obj.metadata.namespace ? 'PersistentVolumeClaim' : 'PersistentVolume' }),
    });
    const claim = (c: DeepReadonly<PersistentVolumeClaim>): void => this.#queue.add(JSON.stringify({ kind: 'claim', key: keyOf(c) } satisfies Work));
    const volume = (v: DeepReadonly<PersistentVolume>): void => this.#queue.add(JSON.stringify({ kind: 'volume', name: v.metadata.name ?? '' } satisfies Work));
    this.#claims.addHandlers({ onAdd: claim, onUpdate: (_o, c) => claim(c) });
    this.#volumes.addHandlers({ onAdd: volume, onUpdate: (_o, v) => volume(v) });
  }

  start(): void {
    for (const inf of [this.#claims, this.#volumes, this.#classes]) inf.start();
    void Promise.all([this.#claims, this.#volumes, this.#classes].map((i) => i.waitForSync())).then(() => {
      if (!this.#stopped) void runWorkers(this.#queue, 1, (w) => this.#sync(JSON.parse(w) as Work), this.#o.log);
    });
  }

  stop(): void {
    this.#stopped = true;
    this.#queue.shutDown();
    for (const inf of [this.#claims, this.#volumes, this.#classes]) inf.stop();
  }

  async #sync(work: Work): Promise<void> {
    switch (work.kind) {
      case 'claim':
        return this.#provision(work.key);
      case 'volume':
        return this.#delete(work.name);
      default: {
        const never: never = work;
        throw new Error(`unknown work ${JSON.stringify(never)}`);
      }
    }
  }

  async #provision(key: string): Promise<void> {
    const claim = this.#claims.get(key);
    if (!claim) return;
    const cls = this.#classes.get(claimClass(claim));
    if (!shouldProvision(claim, cls) || !cls) return;
    if (this.#volumes.get(provisionedVolumeName(claim))) return;
    this.#recorder.event(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim ${JSON.stringify(key)}`);
    const node = claim.metadata.annotations?.[annSelectedNode];
    if (!node) {
      // local-path volumes live on one node, so the class must wait for the pod's.
      this.#recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass ${JSON.stringify(cls.metadata.name ?? '')}: configuration error, no node was specified`);
      return;
    }
    try {
      await this.#o.client.create(refs.persistentVolumes, localPathVolume(claim, cls, node));
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'AlreadyExists')) {
        this.#recorder.event(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass ${JSON.stringify(cls.metadata.name ?? '')}: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
    }
    this.#recorder.event(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${provisionedVolumeName(claim)}`);
  }

  async #delete(name: string): Promise<void> {
    const pv = this.#volumes.get(name);
    if (!pv || !shouldDelete(pv)) return;
    try {
      await this.#o.client.delete(refs.persistentVolumes, undefined, name, { preconditions: { uid: pv.metadata.uid ?? '' } });
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      this.#recorder.event(pv, 'Warning', 'VolumeFailedDelete', error instanceof Error ? error.message : String(error));
      throw error;
    }
  }
}
