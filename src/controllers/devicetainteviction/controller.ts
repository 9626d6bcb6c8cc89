// The device-taint-eviction controller: a scheduled pod whose allocated ResourceClaim (reserved for
// it) has a device with a NoExecute taint the allocation does not tolerate is deleted, at the taint's
// timeAdded plus the shortest matching tolerationSeconds, after an event and a DisruptionTarget
// condition. A taint removed before then cancels the deletion. kube-controller-manager runs it when
// DRADeviceTaints is on.
// Taints come from ResourceSlices only: Drydock serves no DeviceTaintRule (resource.k8s.io/v1alpha3
// in 1.35, behind the alpha DRADeviceTaintRules gate), so there is no rule status to write either.
// Upstream: pkg/controller/devicetainteviction/device_taint_eviction.go (1.35).
import { refs } from '../../api/index.ts';
import type { Pod, resourceV1 } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { isApiError, jsonEqual, keyOf, objectKey } from '../../core/index.ts';
import type { ControllerOptions } from '../controller-options.ts';
import { createEventRecorder } from '../event-recorder.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { updatePodCondition } from '../node-lifecycle/pod-conditions.ts';
import { isReservedForPod, notForPod, podClaimName } from '../resourceclaim/naming.ts';
import { DevicePools, claimEvictionTime, usesDevice } from './eviction-time.ts';

/** Built as every kube-controller-manager controller is. */
export type DeviceTaintEvictionControllerOptions = ControllerOptions;

export const deviceTaintEvictionControllerName = 'device-taint-eviction-controller';
const evictionReason = 'DeviceTaintManagerEviction';

type Claim = DeepReadonly<resourceV1.ResourceClaim>;
type Slice = DeepReadonly<resourceV1.ResourceSlice>;
type ReadonlyPod = DeepReadonly<Pod>;

interface AllocatedClaim {
  claim: Claim;
  /** When its pods go (ms), undefined while no untolerated NoExecute taint applies. */
  eviction: number | undefined;
}

interface PendingEviction {
  namespace: string;
  name: string;
  at: number;
}

export class DeviceTaintEvictionController {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #recorder: EventRecorder;
  readonly #pods: Informer<Pod>;
  readonly #claims: Informer<resourceV1.ResourceClaim>;
  readonly #slices: Informer<resourceV1.ResourceSlice>;
  /** Pod uids whose deletion is due or to be checked again. */
  readonly #queue: WorkQueue<string>;
  readonly #pools = new DevicePools();
  /** claim key → every allocated claim and its eviction time. */
  readonly #allocated = new Map<string, AllocatedClaim>();
  /** pod uid → when it is to be deleted: the source of truth the queue's items are checked against. */
  readonly #deletePodAt = new Map<string, PendingEviction>();
  #stopped = false;

  constructor(options: DeviceTaintEvictionControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#clock = clock;
    this.#log = log;
    this.#recorder = createEventRecorder({ client, clock, component: deviceTaintEvictionControllerName, log });
    this.#pods = informerFor<Pod>(options.informers, { client, clock, log, ref: refs.pods });
    this.#claims = informerFor<resourceV1.ResourceClaim>(options.informers, { client, clock, log, ref: refs.resourceClaims });
    this.#slices = informerFor<resourceV1.ResourceSlice>(options.informers, { client, clock, log, ref: refs.resourceSlices });
    this.#queue = new WorkQueue<string>({ clock });
    this.#claims.addHandlers({
      onAdd: (c) => this.#handleClaimChange(undefined, c),
      onUpdate: (old, c) => this.#handleClaimChange(old, c),
      onDelete: (c) => this.#handleClaimChange(c, undefined),
    });
    this.#pods.addHandlers({
      onAdd: (p) => this.#handlePodChange(undefined, p),
      onUpdate: (old, p) => this.#handlePodChange(old, p),
      onDelete: (p) => this.#handlePodChange(p, undefined),
    });
    this.#slices.addHandlers({
      onAdd: (s) => this.#handleSliceChange(undefined, s),
      onUpdate: (old, s) => this.#handleSliceChange(old, s),
      onDelete: (s) => this.#handleSliceChange(s, undefined),
    });
  }

  start(): void {
    this.#pods.start();
    this.#claims.start();
    this.#slices.start();
    void (async () => {
      await Promise.all([this.#pods.waitForSync(), this.#claims.waitForSync(), this.#slices.waitForSync()]);
      if (this.#stopped) return;
      void runWorkers(this.#queue, 1, (uid) => this.#maybeDeletePod(uid), (line) => this.#log(`${deviceTaintEvictionControllerName}: ${line}`));
    })();
  }

  stop(): void {
    this.#stopped = true;
    this.#queue.shutDown();
    this.#pods.stop();
    this.#claims.stop();
    this.#slices.stop();
  }

  /** When each pending eviction is due (ms), by pod key: for tests. */
  scheduledEvictions(): Map<string, number> {
    return new Map([...this.#deletePodAt.values()].map((e) => [objectKey(e.namespace, e.name), e.at]));
  }

  #handleClaimChange(old: Claim | undefined, claim: Claim | undefined): void {
    if (!claim) {
      if (old) {
        this.#allocated.delete(keyOf(old));
        this.#handlePods(old);
      }
      return;
    }
    const key = keyOf(claim);
    if (!old) {
      if (!claim.status?.allocation) return;
      this.#allocated.set(key, { claim, eviction: this.#evictionTime(claim) });
      this.#handlePods(claim);
      return;
    }
    if (old.metadata.uid !== claim.metadata.uid) {
      this.#handleClaimChange(old, undefined);
      this.#handleClaimChange(undefined, claim);
      return;
    }
    const wasAllocated = old.status?.allocation !== undefined;
    const isAllocated = claim.status?.allocation !== undefined;
    if (!wasAllocated && !isAllocated) return;
    if (!isAllocated) this.#allocated.delete(key);
    // An allocation is immutable: one that stays keeps its eviction time.
    else this.#allocated.set(key, { claim, eviction: wasAllocated ? this.#allocated.get(key)?.eviction : this.#evictionTime(claim) });
    // reservedFor may have changed: then the pods of both lists.
    if (!jsonEqual(old.status?.reservedFor ?? [], claim.status?.reservedFor ?? [])) this.#handlePods(old);
    this.#handlePods(claim);
  }

  #handleSliceChange(old: Slice | undefined, slice: Slice | undefined): void {
    const { driver, pool, modified } = this.#pools.update(old, slice);
    if (modified.size === 0) return;
    for (const [key, allocated] of this.#allocated) {
      if (!usesDevice(allocated.claim, driver, pool, modified)) continue;
      const eviction = this.#evictionTime(allocated.claim);
      if (eviction === allocated.eviction) continue;
      this.#allocated.set(key, { claim: allocated.claim, eviction });
      this.#handlePods(allocated.claim);
    }
  }

  #handlePodChange(old: ReadonlyPod | undefined, pod: ReadonlyPod | undefined): void {
    if (!pod) {
      // Gone: nothing left to do, and no event for it.
      if (old) this.#deletePodAt.delete(old.metadata.uid ?? '');
      return;
    }
    // Only scheduling and the claims a pod uses matter; this also keeps the condition written
    // before the deletion from requeueing the pod.
    if (old && old.spec.nodeName === pod.spec.nodeName && jsonEqual(old.status?.resourceClaimStatuses ?? [], pod.status?.resourceClaimStatuses ?? [])) return;
    this.#handlePod(pod);
  }

  /** The pods a claim is reserved for. */
  #handlePods(claim: Claim): void {
    for (const consumer of claim.status?.reservedFor ?? []) {
      if ((consumer.apiGroup ?? '') !== '' || consumer.resource !== 'pods') continue;
      const pod = this.#pods.getByName(claim.metadata.namespace, consumer.name);
      if (pod && pod.metadata.uid === consumer.uid) this.#handlePod(pod);
    }
  }

  #handlePod(pod: ReadonlyPod): void {
    const uid = pod.metadata.uid ?? '';
    const at = this.#podEvictionTime(pod);
    if (at === undefined) {
      if (this.#deletePodAt.delete(uid)) this.#event(pod.metadata.namespace ?? '', pod.metadata.name ?? '', uid, 'Cancelling deletion');
      return;
    }
    this.#deletePodAt.set(uid, { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', at });
    const delay = at - this.#clock.now();
    if (delay <= 0) this.#queue.add(uid);
    else this.#queue.addAfter(uid, delay);
  }

  /** The earliest eviction time of the allocated claims the pod uses and holds a reservation of. */
  #podEvictionTime(pod: ReadonlyPod): number | undefined {
    if (!pod.spec.nodeName) return undefined;
    let at: number | undefined;
    for (const entry of pod.spec.resourceClaims ?? []) {
      const claimName = podClaimName(pod, entry);
      if (claimName.kind === 'error' || claimName.name === undefined) continue;
      const allocated = this.#allocated.get(objectKey(pod.metadata.namespace, claimName.name));
      if (!allocated) continue;
      if (claimName.mustCheckOwner && notForPod(pod, allocated.claim) !== undefined) continue;
      // Another pod of the same name (a replacement) is not the claim's user.
      if (!isReservedForPod(pod, allocated.claim)) continue;
      if (allocated.eviction !== undefined && (at === undefined || allocated.eviction < at)) at = allocated.eviction;
    }
    return at;
  }

  #evictionTime(claim: Claim): number | undefined {
    return claimEvictionTime(claim, (driver, pool, device) => this.#pools.taintsOf(driver, pool, device));
  }

  /** Deletes the pod when its time has come; checks again later when it has not. Throws to be retried. */
  async #maybeDeletePod(uid: string): Promise<void> {
    const eviction = this.#deletePodAt.get(uid);
    if (!eviction || this.#stopped) return;
    const wait = eviction.at - this.#clock.now();
    if (wait > 0) {
      this.#queue.addAfter(uid, wait);
      return;
    }
    await this.#addConditionAndDeletePod(uid, eviction);
    this.#deletePodAt.delete(uid);
  }

  async #addConditionAndDeletePod(uid: string, { namespace, name }: PendingEviction): Promise<void> {
    let pod: Pod;
    try {
      pod = await this.#client.get<Pod>(refs.pods, namespace, name);
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      throw error;
    }
    // Replaced by another pod of the same name, or already being deleted: nothing to do.
    if (pod.metadata.uid !== uid || pod.metadata.deletionTimestamp) return;
    this.#event(namespace, name, uid, 'Marking for deletion');
    const conditions = updatePodCondition(
      pod.status?.conditions,
      { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByDeviceTaintManager', message: 'Device Taint manager: deleting due to NoExecute taint' },
      this.#clock.now(),
    );
    if (conditions) await this.#client.updateStatus<Pod>(refs.pods, { ...pod, status: { ...pod.status, conditions } });
    try {
      // The uid precondition keeps a replacement of the same name alive; the retry then finds it.
      await this.#client.delete(refs.pods, namespace, name, { preconditions: { uid } });
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      throw error;
    }
  }

  #event(namespace: string, name: string, uid: string, message: string): void {
    this.#recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name, uid } }, 'Normal', evictionReason, message);
  }
}
