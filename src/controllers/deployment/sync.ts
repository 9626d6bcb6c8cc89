// syncDeployment: one level-triggered pass for one Deployment key: claim ReplicaSets, find or
// create the new one, then scale (scaling event or paused), roll (RollingUpdate / Recreate),
// clean up history and write status.
// Upstream: pkg/controller/deployment/{deployment_controller.go (syncDeployment),sync.go,rolling.go,
// recreate.go,progress.go}.
import { DefaultDeploymentUniqueLabelKey, refs } from '../../api/index.ts';
import type { Deployment, DeploymentStatus, Pod, ReplicaSet } from '../../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../../core/index.ts';
import { copyJson, isApiError, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { claimObjects, getControllerOf, newControllerRef, recheckDeletionTimestamp } from '../controller-ref.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { computeHash } from '../template-hash.ts';
import {
  RevisionAnnotation,
  findNewReplicaSet,
  isEqualIgnoreHash,
  maxRevision,
  replicaSetsToCleanUp,
  replicasAnnotationsNeedUpdate,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './revision.ts';
import type { RS } from './rollout.ts';
import {
  desiredReplicasOf,
  deploymentReplicas,
  findActiveOrLatest,
  isActive,
  isRollingUpdate,
  isSaturated,
  maxSurge,
  newRSNewReplicas,
  planOldScaleDown,
  planProportionalScale,
  specReplicas,
} from './rollout.ts';
import { Reason, calculateStatus, getCondition, hasProgressDeadline, isDeploymentComplete, isStatusEqual, newCondition, rolloutStatus, setCondition, stuckRequeueIn } from './status.ts';

export interface DeploymentSyncContext {
  client: Client;
  clock: Clock;
  deployments: Informer<Deployment>;
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
  recorder: EventRecorder;
  requeueAfter(key: string, ms: number): void;
  log(line: string): void;
}

export const byNamespace = 'namespace';
export const byController = 'controller';
/** ReplicaSets without a controller, by namespace: the only ones a Deployment may adopt. */
export const orphansByNamespace = 'orphans';

export async function syncDeployment(ctx: DeploymentSyncContext, key: string): Promise<void> {
  const cached = ctx.deployments.get(key);
  if (!cached) return;
  // The sync edits only the Deployment's annotations in place (and builds new statuses), so a
  // shallow copy with its own metadata keeps the shared cached object untouched.
  await new DeploymentSync(ctx, key, { ...cached, metadata: { ...cached.metadata } } as Deployment).run();
}

class DeploymentSync {
  readonly #ctx: DeploymentSyncContext;
  readonly #key: string;
  #d: Deployment;

  constructor(ctx: DeploymentSyncContext, key: string, d: Deployment) {
    this.#ctx = ctx;
    this.#key = key;
    this.#d = d;
  }

  get #now(): number {
    return this.#ctx.clock.now();
  }

  async run(): Promise<void> {
    const d = this.#d;
    const sel = d.spec.selector;
    if (!sel || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
      this.#ctx.recorder.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((d.status?.observedGeneration ?? 0) < (d.metadata.generation ?? 0)) await this.#writeStatus({ ...d.status, observedGeneration: d.metadata.generation ?? 0 });
      return;
    }
    const rsList = await this.#claimReplicaSets();
    if (d.metadata.deletionTimestamp) return this.#syncStatusOnly(rsList);
    await this.#checkPausedConditions();
    if (this.#d.spec.paused) return this.#sync(rsList);
    if (await this.#isScalingEvent(rsList)) return this.#sync(rsList);
    return isRollingUpdate(this.#d) ? this.#rolloutRolling(rsList) : this.#rolloutRecreate(rsList);
  }

  async #claimReplicaSets(): Promise<RS[]> {
    const d = this.#d;
    const selector = labelSelectorFromObject(d.spec.selector);
    if ('error' in selector) throw new Error(`deployment ${this.#key} has invalid label selector: ${selector.error}`);
    return claimObjects<RS>({
      client: this.#ctx.client,
      ref: refs.replicaSets,
      owner: d,
      controllerRef: newControllerRef(d, 'apps/v1', 'Deployment'),
      selector,
      candidates: [...this.#ctx.replicaSets.byIndex(byController, d.metadata.uid ?? ''), ...this.#ctx.replicaSets.byIndex(orphansByNamespace, d.metadata.namespace ?? '')],
      canAdopt: recheckDeletionTimestamp(this.#ctx.client, refs.deployments, d as DeepReadonly<KubeObject>),
    });
  }

  /** Pods controlled by one of the given ReplicaSets, by ReplicaSet uid (getPodMapForDeployment). */
  #podMap(rsList: readonly RS[]): Map<string, DeepReadonly<Pod>[]> {
    const map = new Map<string, DeepReadonly<Pod>[]>(rsList.map((rs) => [rs.metadata.uid ?? '', []]));
    const selector = labelSelectorFromObject(this.#d.spec.selector);
    if ('error' in selector) return map;
    for (const pod of this.#ctx.pods.byIndex(byNamespace, this.#d.metadata.namespace ?? '')) {
      if (!selector.matches(pod.metadata.labels)) continue;
      const ref = getControllerOf(pod);
      if (ref) map.get(ref.uid)?.push(pod);
    }
    return map;
  }

  async #syncStatusOnly(rsList: readonly RS[]): Promise<void> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(rsList, false);
    await this.#syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS);
  }

  /** sync: scaling events and paused Deployments. */
  async #sync(rsList: readonly RS[]): Promise<void> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(rsList, false);
    await this.#scale(newRS, oldRSs);
    if (this.#d.spec.paused) await this.#cleanup(oldRSs);
    await this.#syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS);
  }

  async #checkPausedConditions(): Promise<void> {
    const d = this.#d;
    if (!hasProgressDeadline(d)) return;
    const cond = getCondition(d.status, 'Progressing');
    if (cond?.reason === Reason.TimedOut) return;
    const pausedCondExists = cond?.reason === Reason.PausedDeploy;
    let condition: ReturnType<typeof newCondition>;
    if (d.spec.paused && !pausedCondExists) condition = newCondition('Progressing', 'Unknown', Reason.PausedDeploy, 'Deployment is paused', this.#now);
    else if (!d.spec.paused && pausedCondExists) condition = newCondition('Progressing', 'Unknown', Reason.ResumedDeploy, 'Deployment is resumed', this.#now);
    else return;
    // Copied only when written: this runs on every sync.
    const status: DeploymentStatus = copyJson(d.status ?? {});
    setCondition(status, condition);
    await this.#writeStatus(status);
  }

  async #isScalingEvent(rsList: readonly RS[]): Promise<boolean> {
    const { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(rsList, false);
    for (const rs of [...oldRSs, newRS].filter(isActive)) {
      const desired = desiredReplicasOf(rs);
      if (desired !== undefined && desired !== deploymentReplicas(this.#d)) return true;
    }
    return false;
  }

  async #rolloutRolling(rsList: readonly RS[]): Promise<void> {
    const found = await this.#allReplicaSetsAndSyncRevision(rsList, true);
    const newRS = found.newRS as RS;
    const { oldRSs } = found;
    const allRSs = [...oldRSs, newRS];
    const d = this.#d;
    // reconcileNewReplicaSet
    if (specReplicas(newRS) !== deploymentReplicas(d)) {
      const target = specReplicas(newRS) > deploymentReplicas(d) ? deploymentReplicas(d) : newRSNewReplicas(d, allRSs, newRS);
      if (await this.#scaleAndRecord(newRS, target)) return this.#syncRolloutStatus(allRSs, newRS);
    }
    // reconcileOldReplicaSets
    let scaledDown = false;
    for (const step of planOldScaleDown(d, allRSs, oldRSs.filter(isActive), newRS)) {
      if (await this.#scaleAndRecord(step.rs, step.replicas)) scaledDown = true;
    }
    if (scaledDown) return this.#syncRolloutStatus(allRSs, newRS);
    if (isDeploymentComplete(this.#d, this.#d.status ?? {})) await this.#cleanup(oldRSs);
    return this.#syncRolloutStatus(allRSs, newRS);
  }

  async #rolloutRecreate(rsList: readonly RS[]): Promise<void> {
    let { newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(rsList, false);
    let allRSs = [...oldRSs, ...(newRS ? [newRS] : [])];
    let scaledDown = false;
    for (const rs of oldRSs.filter(isActive)) if (await this.#scaleAndRecord(rs, 0)) scaledDown = true;
    if (scaledDown) return this.#syncRolloutStatus(allRSs, newRS);
    if (this.#oldPodsRunning(newRS, oldRSs, this.#podMap(rsList))) return this.#syncRolloutStatus(allRSs, newRS);
    if (!newRS) {
      ({ newRS, oldRSs } = await this.#allReplicaSetsAndSyncRevision(rsList, true));
      allRSs = [...oldRSs, ...(newRS ? [newRS] : [])];
    }
    if (newRS) await this.#scaleAndRecord(newRS, deploymentReplicas(this.#d));
    if (isDeploymentComplete(this.#d, this.#d.status ?? {})) await this.#cleanup(oldRSs);
    return this.#syncRolloutStatus(allRSs, newRS);
  }

  #oldPodsRunning(newRS: RS | undefined, oldRSs: readonly RS[], podMap: Map<string, DeepReadonly<Pod>[]>): boolean {
    if (oldRSs.some((rs) => (rs.status?.replicas ?? 0) > 0)) return true;
    for (const [uid, pods] of podMap) {
      if (newRS && newRS.metadata.uid === uid) continue;
      if (pods.some((p) => p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded')) return true;
    }
    return false;
  }

  async #allReplicaSetsAndSyncRevision(rsList: readonly RS[], create: boolean): Promise<{ newRS: RS | undefined; oldRSs: RS[] }> {
    const existing = findNewReplicaSet(this.#d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== existing);
    const newRS = await this.#newReplicaSet(existing, oldRSs, create);
    return { newRS, oldRSs };
  }

  /** getNewReplicaSet: sync the existing new ReplicaSet's annotations, or create it. */
  async #newReplicaSet(existing: RS | undefined, oldRSs: readonly RS[], create: boolean): Promise<RS | undefined> {
    const d = this.#d;
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing) {
      // Only the annotations and minReadySeconds may change: those parts are copied, the rest shared.
      const copy = { ...existing, metadata: { ...existing.metadata, annotations: { ...existing.metadata.annotations } }, spec: { ...existing.spec } } as ReplicaSet;
      const annotations = copy.metadata.annotations ?? {};
      const annotationsUpdated = setNewReplicaSetAnnotations(d, annotations, newRevision, true);
      if (annotationsUpdated || (copy.spec.minReadySeconds ?? 0) !== (d.spec.minReadySeconds ?? 0)) {
        if (d.spec.minReadySeconds !== undefined) copy.spec.minReadySeconds = d.spec.minReadySeconds;
        else delete copy.spec.minReadySeconds;
        return this.#ctx.client.update<ReplicaSet>(refs.replicaSets, copy);
      }
      const revisionUpdated = await this.#setDeploymentRevision(annotations[RevisionAnnotation] ?? '');
      const found = hasProgressDeadline(d) && !getCondition(this.#d.status, 'Progressing');
      if (!revisionUpdated && !found) return existing;
      const status: DeploymentStatus = copyJson(this.#d.status ?? {});
      if (found) setCondition(status, newCondition('Progressing', 'True', Reason.FoundNewRS, `Found new replica set "${copy.metadata.name ?? ''}"`, this.#now));
      await this.#writeStatus(status);
      return existing;
    }
    if (!create) return undefined;

    const collisionCount = d.status?.collisionCount;
    const hash = computeHash(d.spec.template, collisionCount);
    const template = copyJson(d.spec.template);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [DefaultDeploymentUniqueLabelKey]: hash } };
    const selector = copyJson(d.spec.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [DefaultDeploymentUniqueLabelKey]: hash };
    const name = `${d.metadata.name ?? ''}-${hash}`;
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name, namespace: d.metadata.namespace ?? '', ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')], labels: template.metadata.labels ?? {} },
      spec: { replicas: 0, selector, template },
    };
    if (d.spec.minReadySeconds !== undefined) rs.spec.minReadySeconds = d.spec.minReadySeconds;
    const replicas = newRSNewReplicas(d, [...oldRSs, rs], rs);
    rs.spec.replicas = replicas;
    setNewReplicaSetAnnotations(d, (rs.metadata.annotations = {}), newRevision, false);

    let created: RS;
    let alreadyExists = false;
    try {
      created = await this.#ctx.client.create<ReplicaSet>(refs.replicaSets, rs, { namespace: rs.metadata.namespace ?? '' });
    } catch (error) {
      if (isApiError(error) && error.reason === 'AlreadyExists') {
        alreadyExists = true;
        const found = this.#ctx.replicaSets.getByName(rs.metadata.namespace, name) ?? (await this.#ctx.client.get<ReplicaSet>(refs.replicaSets, rs.metadata.namespace, name));
        if (getControllerOf(found)?.uid === d.metadata.uid && isEqualIgnoreHash(d.spec.template, found.spec.template)) {
          created = found;
        } else {
          // A hash collision: bump collisionCount and retry with a new name on the next sync.
          await this.#writeStatus({ ...copyJson(this.#d.status ?? {}), collisionCount: (collisionCount ?? 0) + 1 });
          throw error;
        }
      } else {
        if (isApiError(error) && error.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) throw error;
        const msg = `Failed to create new replica set "${name}": ${error instanceof Error ? error.message : String(error)}`;
        if (hasProgressDeadline(d)) {
          const status: DeploymentStatus = copyJson(this.#d.status ?? {});
          setCondition(status, newCondition('Progressing', 'False', Reason.FailedRSCreate, msg, this.#now));
          await this.#writeStatus(status).catch(() => undefined);
        }
        this.#ctx.recorder.event(d, 'Warning', Reason.FailedRSCreate, msg);
        throw error;
      }
    }
    if (!alreadyExists && replicas > 0) {
      this.#ctx.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name ?? ''} from 0 to ${replicas}`);
    }
    let needsUpdate = await this.#setDeploymentRevision(String(newRevision));
    const status: DeploymentStatus = copyJson(this.#d.status ?? {});
    if (!alreadyExists && hasProgressDeadline(d)) {
      setCondition(status, newCondition('Progressing', 'True', Reason.NewReplicaSet, `Created new replica set "${created.metadata.name ?? ''}"`, this.#now));
      needsUpdate = true;
    }
    if (needsUpdate) await this.#writeStatus(status);
    return created;
  }

  /**
   * SetDeploymentRevision. Upstream writes the annotation together with status (the status
   * strategy keeps metadata); a server that drops metadata on status writes gets a patch.
   */
  async #setDeploymentRevision(revision: string): Promise<boolean> {
    if (this.#d.metadata.annotations?.[RevisionAnnotation] === revision) return false;
    this.#d.metadata.annotations = { ...this.#d.metadata.annotations, [RevisionAnnotation]: revision };
    return true;
  }

  async #writeStatus(status: DeploymentStatus): Promise<void> {
    const d = this.#d;
    const wanted = d.metadata.annotations?.[RevisionAnnotation];
    const written = await this.#ctx.client.updateStatus<Deployment>(refs.deployments, { ...d, status });
    if (wanted !== undefined && written.metadata.annotations?.[RevisionAnnotation] !== wanted) {
      this.#d = await this.#ctx.client.patch<Deployment>(refs.deployments, d.metadata.namespace, d.metadata.name ?? '', 'merge', {
        metadata: { annotations: { [RevisionAnnotation]: wanted }, resourceVersion: written.metadata.resourceVersion },
      });
      return;
    }
    this.#d = written;
  }

  async #syncDeploymentStatus(allRSs: readonly RS[], newRS: RS | undefined): Promise<void> {
    const status = calculateStatus(allRSs, newRS, this.#d, this.#now);
    if (isStatusEqual(this.#d.status, status)) return;
    await this.#writeStatus(status);
  }

  async #syncRolloutStatus(allRSs: readonly RS[], newRS: RS | undefined): Promise<void> {
    const now = this.#now;
    const status = rolloutStatus(allRSs, newRS, this.#d, now);
    if (isStatusEqual(this.#d.status, status)) {
      const after = stuckRequeueIn(this.#d, status, now);
      if (after !== undefined) this.#ctx.requeueAfter(this.#key, after);
      return;
    }
    await this.#writeStatus(status);
  }

  /** scale: proportional scaling when replicas change mid-rollout or while paused. */
  async #scale(newRS: RS | undefined, oldRSs: readonly RS[]): Promise<void> {
    const d = this.#d;
    const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if (specReplicas(activeOrLatest) !== deploymentReplicas(d)) await this.#scaleAndRecord(activeOrLatest, deploymentReplicas(d));
      return;
    }
    if (isSaturated(d, newRS)) {
      for (const old of oldRSs.filter(isActive)) await this.#scaleAndRecord(old, 0);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const { steps, direction } = planProportionalScale(d, [...oldRSs, newRS].filter(isActive));
    for (const step of steps) await this.#scaleReplicaSet(step.rs, step.replicas, direction || 'up');
  }

  async #scaleAndRecord(rs: RS, replicas: number): Promise<boolean> {
    if (specReplicas(rs) === replicas) return false;
    return this.#scaleReplicaSet(rs, replicas, specReplicas(rs) < replicas ? 'up' : 'down');
  }

  /** scaleReplicaSet: replicas plus the desired/max annotations; an event when the size changed. */
  async #scaleReplicaSet(rs: RS, replicas: number, direction: 'up' | 'down'): Promise<boolean> {
    const d = this.#d;
    const desired = deploymentReplicas(d);
    const max = desired + maxSurge(d);
    const sizeChanged = specReplicas(rs) !== replicas;
    if (!sizeChanged && !replicasAnnotationsNeedUpdate(rs, desired, max)) return false;
    const copy = copyJson(rs) as ReplicaSet;
    const oldScale = specReplicas(rs);
    copy.spec.replicas = replicas;
    setReplicasAnnotations((copy.metadata.annotations ??= {}), desired, max);
    const updated = await this.#ctx.client.update<ReplicaSet>(refs.replicaSets, copy);
    if (!sizeChanged) return false;
    this.#ctx.recorder.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${direction} replica set ${updated.metadata.name ?? ''} from ${oldScale} to ${replicas}`);
    return true;
  }

  async #cleanup(oldRSs: readonly RS[]): Promise<void> {
    for (const rs of replicaSetsToCleanUp(this.#d, oldRSs)) {
      try {
        await this.#ctx.client.delete(refs.replicaSets, rs.metadata.namespace, rs.metadata.name ?? '');
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      }
    }
  }
}
