// syncPod (create claims from templates, record them in the pod status, reserve allocated claims
// for pods bound without the scheduler) and syncClaim (drop stale reservations, deallocate, drop
// the delete-protection finalizer, delete generated claims of finished pods).
// Upstream: pkg/controller/resourceclaim/controller.go (syncPod, handleClaim, syncClaim).
import { refs, resourceV1 } from '../../api/index.ts';
import type { Pod, PodResourceClaim } from '../../api/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { isApiError, splitObjectKey } from '../../core/index.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { claimGenerateName, isPodDone, isReservedForPod, notForPod, owningPod, podClaimName } from './naming.ts';
import type { DeepReadonlyPod } from './naming.ts';

type Claim = resourceV1.ResourceClaim;
type ClaimRO = DeepReadonly<Claim>;

export const fieldManager = 'ResourceClaimController';
export const claimPodOwnerIndex = 'claimPodOwner';
const finalizer = resourceV1.ResourceClaimDeleteProtectionFinalizer;

export interface SyncContext {
  client: Client;
  pods: Informer<Pod>;
  claims: Informer<Claim>;
  templates: Informer<resourceV1.ResourceClaimTemplate>;
  recorder: EventRecorder;
  /** UIDs of pods seen deleted (upstream's deletedObjects LRU). */
  deletedPods: ReadonlySet<string>;
  /** Claims created but perhaps not yet in the informer (upstream's mutation cache), by `<podUID>/<podClaim>`. */
  created: Map<string, ClaimRO>;
}

const isNotFound = (e: unknown): boolean => isApiError(e) && e.reason === 'NotFound';
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export async function syncPod(ctx: SyncContext, key: string): Promise<void> {
  const pod = ctx.pods.get(key);
  if (!pod || pod.metadata.deletionTimestamp) return;
  const newClaims = new Map<string, string>();
  for (const podClaim of pod.spec.resourceClaims ?? []) {
    try {
      await handleClaim(ctx, pod, podClaim, newClaims);
    } catch (error) {
      ctx.recorder.event(pod, 'Warning', 'FailedResourceClaimCreation', `PodResourceClaim ${podClaim.name}: ${message(error)}`);
      throw new Error(`pod ${key}, PodResourceClaim ${podClaim.name}: ${message(error)}`);
    }
  }
  if (newClaims.size > 0) {
    const statuses = [...newClaims].map(([name, resourceClaimName]) => ({ name, resourceClaimName }));
    const apply = { apiVersion: 'v1', kind: 'Pod', metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace }, status: { resourceClaimStatuses: statuses } };
    try {
      await ctx.client.patch(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', 'apply', apply, { subresource: 'status', fieldManager, force: true });
    } catch (error) {
      throw new Error(`update pod ${key} ResourceClaimStatuses: ${message(error)}`);
    }
  }
  if (!pod.spec.nodeName) return; // The scheduler allocates and reserves.
  // A pod bound without the scheduler: reserve its allocated claims for it.
  for (const podClaim of pod.spec.resourceClaims ?? []) {
    const n = podClaimName(pod, podClaim);
    if (n.kind === 'error') {
      if (n.notCreated) return; // The status patch above will bring us back.
      throw new Error(n.message);
    }
    if (n.name === undefined) continue;
    const claim = ctx.claims.getByName(pod.metadata.namespace, n.name);
    if (!claim) return;
    if (n.mustCheckOwner) {
      const err = notForPod(pod, claim);
      if (err) throw new Error(err);
    }
    if (claim.status?.allocation && !isReservedForPod(pod, claim) && (claim.status.reservedFor ?? []).length < resourceV1.ResourceLimits.ResourceClaimReservedForMaxSize) {
      const reservedFor = [...(claim.status.reservedFor ?? []), { resource: 'pods', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' }];
      try {
        await ctx.client.updateStatus<Claim>(refs.resourceClaims, { ...(claim as Claim), status: { ...(claim.status as resourceV1.ResourceClaimStatus), reservedFor } });
      } catch (error) {
        throw new Error(`reserve claim ${n.name} for pod: ${message(error)}`);
      }
    }
  }
}

async function handleClaim(ctx: SyncContext, pod: DeepReadonlyPod, podClaim: DeepReadonly<PodResourceClaim>, newClaims: Map<string, string>): Promise<void> {
  const n = podClaimName(pod, podClaim);
  if (n.kind === 'error' && !n.notCreated) throw new Error(`checking for claim before creating it: ${n.message}`);
  if (n.kind === 'name') {
    if (n.name === undefined) return; // No claim needed.
    // Recorded in the status: done if it exists and is ours; re-created if it was deleted by accident.
    const existing = ctx.claims.getByName(pod.metadata.namespace, n.name);
    if (existing && (!n.mustCheckOwner || notForPod(pod, existing) === undefined)) return;
  }
  const templateName = podClaim.resourceClaimTemplateName;
  if (templateName === undefined) return;
  // An orphan we created before failing to record it in the pod status?
  let claim = findPodResourceClaim(ctx, pod, podClaim.name);
  if (!claim) {
    const template = ctx.templates.getByName(pod.metadata.namespace, templateName);
    if (!template) throw new Error(`resource claim template "${templateName}": resourceclaimtemplate.resource.k8s.io "${templateName}" not found`);
    const annotations = { ...(template.spec.metadata?.annotations ?? {}), [resourceV1.PodClaimNameAnnotation]: podClaim.name };
    const labels = template.spec.metadata?.labels;
    const generateName = claimGenerateName(pod.metadata.name ?? '', podClaim.name);
    const body: Claim = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        generateName,
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
        annotations,
        ...(labels ? { labels: { ...labels } } : {}),
      },
      spec: structuredClone(template.spec.spec) as resourceV1.ResourceClaimSpec,
    };
    try {
      claim = await ctx.client.create<Claim>(refs.resourceClaims, body, { namespace: pod.metadata.namespace ?? 'default' });
    } catch (error) {
      throw new Error(`create ResourceClaim ${generateName}: ${message(error)}`);
    }
    ctx.created.set(`${pod.metadata.uid ?? ''}/${podClaim.name}`, claim);
  }
  newClaims.set(podClaim.name, claim.metadata.name ?? '');
}

function findPodResourceClaim(ctx: SyncContext, pod: DeepReadonlyPod, podClaim: string): ClaimRO | undefined {
  const uid = pod.metadata.uid ?? '';
  const deterministicName = `${pod.metadata.name ?? ''}-${podClaim}`; // Kubernetes <= 1.27.
  for (const claim of ctx.claims.byIndex(claimPodOwnerIndex, uid)) {
    const annotated = claim.metadata.annotations?.[resourceV1.PodClaimNameAnnotation];
    if (annotated !== undefined ? annotated === podClaim : claim.metadata.name === deterministicName) return claim;
  }
  const created = ctx.created.get(`${uid}/${podClaim}`);
  return created && !ctx.claims.get(`${created.metadata.namespace ?? ''}/${created.metadata.name ?? ''}`) ? created : undefined;
}

export async function syncClaim(ctx: SyncContext, key: string): Promise<void> {
  const claim = ctx.claims.get(key);
  if (!claim) return;
  const { namespace } = splitObjectKey(key);
  const reservedFor = claim.status?.reservedFor ?? [];
  const valid: resourceV1.ResourceClaimConsumerReference[] = [];
  for (const r of reservedFor) {
    if ((r.apiGroup ?? '') !== '' || r.resource !== 'pods') throw new Error(`unsupported ReservedFor entry: ${JSON.stringify(r)}`);
    let keep = true;
    if (ctx.deletedPods.has(r.uid)) keep = false;
    else {
      const pod = ctx.pods.getByName(namespace, r.name);
      if (!pod) {
        // Perhaps not in our cache yet: removing a pod the scheduler is binding would be bad.
        const live = await ctx.client.get<Pod>(refs.pods, namespace, r.name).catch((e: unknown) => {
          if (isNotFound(e)) return undefined;
          throw e;
        });
        if (!live || live.metadata.uid !== r.uid) keep = false;
      } else if (pod.metadata.uid !== r.uid || isPodDone(pod)) keep = false;
    }
    if (keep) valid.push({ ...r });
  }
  const hasFinalizer = (c: ClaimRO): boolean => (c.metadata.finalizers ?? []).includes(finalizer);
  const withoutFinalizer = (c: Claim): Claim => ({ ...c, metadata: { ...c.metadata, finalizers: (c.metadata.finalizers ?? []).filter((f) => f !== finalizer) } });
  if (valid.length < reservedFor.length) {
    const status: resourceV1.ResourceClaimStatus = { ...(claim.status as resourceV1.ResourceClaimStatus), reservedFor: valid };
    if (valid.length === 0) delete status.reservedFor;
    // The last consumer is gone: deallocate, so the devices are free and the next consumer may land anywhere.
    if (valid.length === 0 && hasFinalizer(claim)) delete status.allocation;
    const updated = await ctx.client.updateStatus<Claim>(refs.resourceClaims, { ...(claim as Claim), status });
    if (hasFinalizer(updated) && !updated.status?.allocation) await ctx.client.update<Claim>(refs.resourceClaims, withoutFinalizer(updated));
  } else if (hasFinalizer(claim) && claim.metadata.deletionTimestamp && valid.length === 0) {
    let current = claim as Claim;
    if (current.status?.allocation) {
      const status: resourceV1.ResourceClaimStatus = { ...current.status };
      delete status.allocation;
      current = await ctx.client.updateStatus<Claim>(refs.resourceClaims, { ...current, status });
    }
    await ctx.client.update<Claim>(refs.resourceClaims, withoutFinalizer(current));
  }
  if (valid.length > 0) return;
  // Unreserved and generated for a pod that will not run (again): delete it now rather than wait for the pod's deletion.
  const owner = owningPod(claim);
  if (!owner || claim.metadata.deletionTimestamp) return;
  const pod = ctx.pods.getByName(namespace, owner.name);
  // A pod we do not know (yet) is left to the garbage collector.
  if (!pod || (pod.metadata.uid === owner.uid && !isPodDone(pod))) return;
  await ctx.client.delete(refs.resourceClaims, namespace, claim.metadata.name ?? '', { preconditions: { uid: claim.metadata.uid ?? '' } }).catch((e: unknown) => {
    if (!isNotFound(e)) throw new Error(`delete claim: ${message(e)}`);
  });
}
