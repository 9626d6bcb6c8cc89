// The ResourceClaim controller ("resource-claim-controller"): one work queue of `pod:<key>` and
// `claim:<key>` items. Pods with template entries get their claims; claims whose consumers
// finished or went away lose their reservations, their allocation and, if generated, themselves.
// Upstream: pkg/controller/resourceclaim/controller.go (NewController, enqueuePod, enqueueResourceClaim).
import type { Pod } from '../../api/index.ts';
import { refs, resourceV1 } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { WorkQueue, informerFor, runWorkers } from '../../client/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { keyOf, objectKey } from '../../core/index.ts';
import { createEventRecorder } from '../event-recorder.ts';
import { podClaimName, podNeedsClaims } from './naming.ts';
import type { DeepReadonlyPod } from './naming.ts';
import { claimPodOwnerIndex, syncClaim, syncPod } from './sync.ts';
import type { SyncContext } from './sync.ts';

export interface ResourceClaimControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  workers?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

const podKeyPrefix = 'pod:';
const claimKeyPrefix = 'claim:';
const podResourceClaimIndex = 'podResourceClaim';
const maxDeletedPods = 10_000;

/** The claim names a pod refers to (for requeueing pods when one of them is deleted). */
function podClaimKeys(pod: DeepReadonlyPod): string[] {
  const out: string[] = [];
  for (const c of pod.spec.resourceClaims ?? []) {
    const n = podClaimName(pod, c);
    if (n.kind === 'name' && n.name !== undefined) out.push(objectKey(pod.metadata.namespace, n.name));
  }
  return out;
}

export class ResourceClaimController {
  readonly #o: ResourceClaimControllerOptions;
  readonly #pods: Informer<Pod>;
  readonly #claims: Informer<resourceV1.ResourceClaim>;
  readonly #templates: Informer<resourceV1.ResourceClaimTemplate>;
  readonly #queue: WorkQueue<string>;
  readonly #deleted = new Set<string>();
  readonly #ctx: SyncContext;

  constructor(options: ResourceClaimControllerOptions) {
    this.#o = options;
    const { client, clock, log } = options;
    this.#pods = informerFor<Pod>(options.informers, { client, ref: refs.pods, clock, log });
    this.#claims = informerFor<resourceV1.ResourceClaim>(options.informers, { client, ref: refs.resourceClaims, clock, log });
    this.#templates = informerFor<resourceV1.ResourceClaimTemplate>(options.informers, { client, ref: refs.resourceClaimTemplates, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    this.#pods.addIndex(podResourceClaimIndex, podClaimKeys);
    this.#claims.addIndex(claimPodOwnerIndex, (c) => (c.metadata.ownerReferences ?? []).filter((r) => r.controller === true && r.kind === 'Pod').map((r) => r.uid));
    this.#pods.addHandlers({
      onAdd: (p) => this.#enqueuePod(p, false),
      onUpdate: (_o, p) => this.#enqueuePod(p, false),
      onDelete: (p) => {
        this.#rememberDeleted(p.metadata.uid ?? '');
        this.#enqueuePod(p, true);
      },
    });
    const enqueueClaim = (c: DeepReadonly<resourceV1.ResourceClaim>): void => this.#queue.add(claimKeyPrefix + keyOf(c));
    this.#claims.addHandlers({
      onAdd: enqueueClaim,
      onUpdate: (_o, c) => enqueueClaim(c),
      // A deleted claim a pod still needs is created again.
      onDelete: (c) => {
        for (const p of this.#pods.byIndex(podResourceClaimIndex, keyOf(c))) this.#enqueuePod(p, false);
      },
    });
    // A template that appears lets waiting pods proceed without waiting out their back-off.
    this.#templates.addHandlers({
      onAdd: (t) => {
        for (const p of this.#pods.list()) {
          if (p.metadata.namespace === t.metadata.namespace && (p.spec.resourceClaims ?? []).some((c) => c.resourceClaimTemplateName === t.metadata.name)) this.#enqueuePod(p, false);
        }
      },
    });
    this.#ctx = {
      client,
      pods: this.#pods,
      claims: this.#claims,
      templates: this.#templates,
      recorder: createEventRecorder({ client, clock, component: 'resource_claim', log, typeOf: () => ({ apiVersion: 'v1', kind: 'Pod' }) }),
      deletedPods: this.#deleted,
      created: new Map(),
    };
  }

  start(): void {
    this.#pods.start();
    this.#claims.start();
    this.#templates.start();
    void Promise.all([this.#pods.waitForSync(), this.#claims.waitForSync(), this.#templates.waitForSync()]).then(() => {
      if (!this.#queue.shuttingDown) void runWorkers(this.#queue, this.#o.workers ?? 4, (key) => this.sync(key), this.#o.log);
    });
  }

  stop(): void {
    this.#queue.shutDown();
    this.#pods.stop();
    this.#claims.stop();
    this.#templates.stop();
  }

  sync(key: string): Promise<void> {
    if (key.startsWith(podKeyPrefix)) return syncPod(this.#ctx, key.slice(podKeyPrefix.length));
    return syncClaim(this.#ctx, key.slice(claimKeyPrefix.length));
  }

  #rememberDeleted(uid: string): void {
    this.#deleted.add(uid);
    if (this.#deleted.size > maxDeletedPods) this.#deleted.delete(this.#deleted.values().next().value ?? '');
  }

  #enqueuePod(pod: DeepReadonlyPod, deleted: boolean): void {
    const claims = pod.spec.resourceClaims ?? [];
    const extended = pod.status?.extendedResourceClaimStatus?.resourceClaimName;
    if (claims.length === 0 && !extended) return;
    // Release the reservations of a pod that is gone or done, the claim the scheduler made for its
    // extended resources too (kubernetes#134312, in 1.35).
    if (!podNeedsClaims(pod, deleted)) {
      for (const key of podClaimKeys(pod)) this.#queue.add(claimKeyPrefix + key);
      if (extended) this.#queue.add(claimKeyPrefix + objectKey(pod.metadata.namespace, extended));
    }
    if (claims.length === 0) return;
    if (deleted) {
      for (const c of claims) this.#ctx.created.delete(`${pod.metadata.uid ?? ''}/${c.name}`);
      return;
    }
    if (!pod.metadata.deletionTimestamp && claims.some((c) => c.resourceClaimTemplateName !== undefined)) this.#queue.add(podKeyPrefix + keyOf(pod));
    // Bound without the scheduler: its allocated claims need a reservation.
    else if (pod.spec.nodeName && !pod.metadata.deletionTimestamp) this.#queue.add(podKeyPrefix + keyOf(pod));
  }
}
