// syncDaemonSet: one level-triggered pass for one DaemonSet key: its revision history, a daemon
// pod on every node that should run one (and none elsewhere), the rolling update within its
// budgets, old revisions pruned, then status.
// Upstream: pkg/controller/daemon/daemon_controller.go (syncDaemonSet, updateDaemonSet, syncNodes,
// updateDaemonSetStatus, storeDaemonSetStatus), util/daemonset_util.go (CreatePodTemplate).
import { DaemonSetTemplateGenerationKey, DefaultDaemonSetUniqueLabelKey, refs } from '../../api/index.ts';
import type { ControllerRevision, DaemonSet, DaemonSetStatus, Node, Pod } from '../../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../../core/index.ts';
import { copyJson, isApiError, keyOf, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { newControllerRef } from '../controller-ref.ts';
import { claimPods } from '../owned-pods.ts';
import type { EventRecorder } from '../event-recorder.ts';
import type { Expectations } from '../expectations.ts';
import { slowStartBatch, slowStartInitialBatchSize } from '../slow-start.ts';
import { daemonSetStatusCounts, podsByNode, templateGenerationOf } from './daemon-pods.ts';
import { cleanupHistory, constructHistory } from './history.ts';
import { managePlan, rollingUpdatePlan } from './plan.ts';
import type { FailedPodBackoff } from './plan.ts';
import { addDaemonPodTolerations, pinToNode } from './placement.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyDS = DeepReadonly<DaemonSet>;

/** At most this many creations or deletions per sync (upstream BurstReplicas). */
export const burstReplicas = 250;

export const byNamespace = 'namespace';
export const byController = 'controller';

export interface DaemonSetSyncContext {
  client: Client;
  clock: Clock;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
  daemonSets: Informer<DaemonSet>;
  revisions: Informer<ControllerRevision>;
  expectations: Expectations;
  recorder: EventRecorder;
  backoff: FailedPodBackoff;
  requeueAfter(key: string, ms: number): void;
  log(line: string): void;
}

export async function syncDaemonSet(ctx: DaemonSetSyncContext, key: string): Promise<void> {
  const ds = ctx.daemonSets.get(key);
  if (!ds) {
    ctx.expectations.delete(key);
    return;
  }
  const sel = ds.spec.selector;
  if (sel && !sel.matchLabels && !sel.matchExpressions?.length) {
    ctx.recorder.event(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
    return;
  }
  // Its history may already be gone (the garbage collector's order is not the pods' first).
  if (ds.metadata.deletionTimestamp) return;
  const selector = labelSelectorFromObject(ds.spec.selector);
  if ('error' in selector) {
    ctx.log(`daemonset ${key}: invalid selector: ${selector.error}`);
    return;
  }
  const { current, old } = await constructHistory(ctx.client, ds, ctx.revisions.byIndex(byController, ds.metadata.uid ?? ''));
  const hash = current.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] ?? '';
  const nodes = ctx.nodes.list();
  const pods = await claimPods({ client: ctx.client, pods: ctx.pods, owner: ds as DeepReadonly<KubeObject>, kind: 'DaemonSet', ownerRef: refs.daemonSets, selector });
  const byNode = podsByNode(pods);
  if (!ctx.expectations.isSatisfied(key)) return updateStatus(ctx, ds, nodes, byNode, hash, false);
  let failure: unknown;
  try {
    await manage(ctx, key, ds, nodes, byNode, hash);
    if (ctx.expectations.isSatisfied(key) && ds.spec.updateStrategy?.type === 'RollingUpdate') {
      // Read the pods again, as upstream's rollingUpdate does: manage may have just deleted one (a
      // surge's old pod), and deleting it a second time would say SuccessfulDelete twice.
      const current = podsByNode(await claimPods({ client: ctx.client, pods: ctx.pods, owner: ds as DeepReadonly<KubeObject>, kind: 'DaemonSet', ownerRef: refs.daemonSets, selector }));
      const plan = rollingUpdatePlan(ds, nodes, current, hash, ctx.clock.now());
      await syncNodes(ctx, key, ds, plan.delete, plan.createOn, hash);
    }
    await cleanupHistory(ctx.client, ds, old, pods);
  } catch (error) {
    failure = error;
  }
  await updateStatus(ctx, ds, nodes, byNode, hash, true);
  if (failure !== undefined) throw failure;
}

async function manage(ctx: DaemonSetSyncContext, key: string, ds: ReadonlyDS, nodes: readonly DeepReadonly<Node>[], byNode: ReadonlyMap<string, readonly ReadonlyPod[]>, hash: string): Promise<void> {
  const plan = managePlan(ds, nodes, byNode, hash, ctx.backoff, ctx.clock.now());
  for (const { pod, node } of plan.failed) {
    ctx.recorder.event(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} on node ${node}, will try to kill it`);
  }
  if (plan.retryAfterMs !== undefined) ctx.requeueAfter(key, plan.retryAfterMs);
  await syncNodes(ctx, key, ds, plan.delete, plan.createOn, hash);
}

/** CreatePodTemplate plus the node pin: what syncNodes creates on `node`. */
export function daemonPod(ds: ReadonlyDS, node: string, hash: string): Pod {
  const template = copyJson(ds.spec.template) as DaemonSet['spec']['template'];
  const spec = template.spec as Pod['spec'];
  addDaemonPodTolerations(spec);
  spec.affinity = pinToNode(spec.affinity, node);
  const generation = templateGenerationOf(ds);
  const labels = { ...template.metadata?.labels, ...(generation !== undefined ? { [DaemonSetTemplateGenerationKey]: String(generation) } : {}), ...(hash ? { [DefaultDaemonSetUniqueLabelKey]: hash } : {}) };
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: `${ds.metadata.name ?? ''}-`, namespace: ds.metadata.namespace ?? '', labels, ownerReferences: [newControllerRef(ds, 'apps/v1', 'DaemonSet')] },
    spec,
  };
  if (template.metadata?.annotations) pod.metadata.annotations = template.metadata.annotations;
  if (template.metadata?.finalizers) pod.metadata.finalizers = template.metadata.finalizers;
  return pod;
}

async function syncNodes(ctx: DaemonSetSyncContext, key: string, ds: ReadonlyDS, toDelete: readonly ReadonlyPod[], createOn: readonly string[], hash: string): Promise<void> {
  const creates = createOn.slice(0, burstReplicas);
  const deletes = toDelete.slice(0, burstReplicas);
  if (creates.length === 0 && deletes.length === 0) return;
  ctx.expectations.expect(key, creates.length, deletes.map((p) => keyOf(p)));
  let next = 0;
  const created = slowStartBatch(creates.length, slowStartInitialBatchSize, () => createPod(ctx, ds, creates[next++] ?? '', hash));
  const deleted = Promise.allSettled(deletes.map((pod) => deletePod(ctx, ds, pod)));
  const [{ successes, error }, results] = await Promise.all([created, deleted]);
  for (let i = successes; i < creates.length; i++) ctx.expectations.creationObserved(key);
  let first: unknown = error;
  results.forEach((r, i) => {
    if (r.status === 'fulfilled') return;
    const pod = deletes[i];
    if (pod) ctx.expectations.deletionObserved(key, keyOf(pod));
    first ??= r.reason;
  });
  if (first !== undefined) throw first;
}

async function createPod(ctx: DaemonSetSyncContext, ds: ReadonlyDS, node: string, hash: string): Promise<void> {
  try {
    const created = await ctx.client.create<Pod>(refs.pods, daemonPod(ds, node, hash), { namespace: ds.metadata.namespace ?? '' });
    ctx.recorder.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name ?? ''}`);
  } catch (error) {
    if (isApiError(error) && error.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) return;
    ctx.recorder.event(ds, 'Warning', 'FailedCreate', `Error creating: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

async function deletePod(ctx: DaemonSetSyncContext, ds: ReadonlyDS, pod: ReadonlyPod): Promise<void> {
  try {
    await ctx.client.delete(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '');
    ctx.recorder.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name ?? ''}`);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return;
    ctx.recorder.event(ds, 'Warning', 'FailedDelete', `Error deleting: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

async function updateStatus(ctx: DaemonSetSyncContext, ds: ReadonlyDS, nodes: readonly DeepReadonly<Node>[], byNode: ReadonlyMap<string, readonly ReadonlyPod[]>, hash: string, observe: boolean): Promise<void> {
  const counts = daemonSetStatusCounts(ds, nodes, byNode, hash, ctx.clock.now());
  const minReady = ds.spec.minReadySeconds ?? 0;
  if (minReady > 0 && counts.numberReady !== counts.numberAvailable) ctx.requeueAfter(keyOf(ds), minReady * 1000);
  await storeStatus(ctx, ds, counts, observe);
}

/** storeDaemonSetStatus: written only when a count or (observing) the generation moved; one retry on conflict. */
async function storeStatus(ctx: DaemonSetSyncContext, ds: ReadonlyDS, counts: DaemonSetStatus, observe: boolean): Promise<void> {
  const write = async (base: ReadonlyDS): Promise<void> => {
    const cur = base.status;
    const observedGeneration = observe ? (base.metadata.generation ?? 0) : cur?.observedGeneration;
    const keys = Object.keys(counts) as (keyof DaemonSetStatus)[];
    if (cur && cur.observedGeneration === observedGeneration && keys.every((k) => (cur[k] ?? 0) === (counts[k] ?? 0))) return;
    const status: DaemonSetStatus = { ...copyJson(cur ?? {}), ...counts } as DaemonSetStatus;
    if (observedGeneration !== undefined) status.observedGeneration = observedGeneration;
    // Zero counts beyond the four required ones are omitempty on the wire.
    for (const k of ['updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'] as const) if (!status[k]) delete status[k];
    await ctx.client.updateStatus<DaemonSet>(refs.daemonSets, { ...(base as DaemonSet), status });
  };
  try {
    await write(ds);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return;
    if (!(isApiError(error) && error.reason === 'Conflict')) throw error;
    await write(await ctx.client.get<DaemonSet>(refs.daemonSets, ds.metadata.namespace, ds.metadata.name ?? ''));
  }
}
