// The VPA updater: every minute, for VPAs in Recreate or InPlaceOrRecreate, picks the running pods
// whose requests stray outside the recommendation's bounds and applies the target, within the
// per-owner disruption budget: in place through pods/resize first (InPlaceOrRecreate), falling
// back to eviction on Infeasible at once, Deferred after 5 minutes, InProgress after an hour or
// an Error at once; otherwise by eviction (Recreate).
// Upstream: vertical-pod-autoscaler/pkg/updater/logic/updater.go (RunOnce), pkg/updater/restriction/
// pods_restriction_factory.go, pods_inplace_restriction.go, pkg/updater/priority/priority_processor.go.
import { refs } from '../../api/index.ts';
import type { Pod, PodCondition } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { Informer } from '../../client/index.ts';
import type { Clock, DeepReadonly, Timer } from '../../core/index.ts';
import { isApiError, keyOf } from '../../core/index.ts';
import { createEventRecorder } from '../event-recorder.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { amountOf } from './estimator.ts';
import { recommendationFor, recommendedResources } from './resources.ts';
import { TargetSelectors } from './target.ts';
import { containerPolicy, controlledResources, updateModeOf, vpaRef } from './types.ts';
import type { VerticalPodAutoscaler } from './types.ts';

export const updaterIntervalMs = 60_000;
/** --min-replicas: owners with fewer live pods are left alone unless the VPA says otherwise. */
export const defaultMinReplicas = 2;
/** --eviction-tolerance. */
export const evictionTolerance = 0.5;
export const deferredResizeTimeoutMs = 5 * 60_000;
export const inProgressResizeTimeoutMs = 60 * 60_000;
export const evictedMessage = 'Pod was evicted by VPA Updater to apply resource recommendation.';
export const resizedMessage = 'Pod was resized in place by VPA Updater.';

type Vpa = DeepReadonly<VerticalPodAutoscaler>;
type ReadonlyPod = DeepReadonly<Pod>;

export interface UpdaterOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  intervalMs?: number;
}

/** A request outside [lowerBound, upperBound], or missing, for a controlled resource. */
export function outsideBounds(pod: ReadonlyPod, vpa: Vpa): boolean {
  for (const c of pod.spec.containers) {
    const rec = recommendationFor(vpa, c.name);
    const policy = containerPolicy(vpa, c.name);
    if (!rec || policy?.mode === 'Off') continue;
    for (const r of controlledResources(policy)) {
      const request = amountOf(r, c.resources?.requests?.[r]);
      if (rec.target[r] === undefined) continue;
      if (request === undefined) return true;
      const lower = amountOf(r, rec.lowerBound?.[r]);
      const upper = amountOf(r, rec.upperBound?.[r]);
      if ((lower !== undefined && request < lower) || (upper !== undefined && request > upper)) return true;
    }
  }
  return false;
}

/** Σ over resources of |Σtarget − Σrequest| / Σrequest: the updater's priority. */
export function resourceDiff(pod: ReadonlyPod, vpa: Vpa): number {
  let diff = 0;
  for (const r of ['cpu', 'memory']) {
    let target = 0;
    let request = 0;
    for (const c of pod.spec.containers) {
      const t = amountOf(r, recommendationFor(vpa, c.name)?.target[r]);
      if (t === undefined) continue;
      target += t;
      request += amountOf(r, c.resources?.requests?.[r]) ?? 0;
    }
    if (request > 0) diff += Math.abs(target - request) / request;
    else if (target > 0) diff += 1;
  }
  return diff;
}

function condition(pod: ReadonlyPod, type: string): DeepReadonly<PodCondition> | undefined {
  return pod.status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

export class Updater {
  readonly #o: UpdaterOptions;
  readonly #vpas: Informer<VerticalPodAutoscaler>;
  readonly #pods: Informer<Pod>;
  readonly #selectors: TargetSelectors;
  readonly #events: EventRecorder;
  /** pod uid -> when the updater sent its in-place resize. */
  readonly #resizedAt = new Map<string, number>();
  #timer: Timer | undefined;
  #stopped = false;

  constructor(options: UpdaterOptions) {
    this.#o = options;
    this.#vpas = new Informer<VerticalPodAutoscaler>({ client: options.client, ref: vpaRef, clock: options.clock, log: options.log });
    this.#pods = new Informer<Pod>({ client: options.client, ref: refs.pods, clock: options.clock, log: options.log });
    this.#pods.addHandlers({ onDelete: (p) => this.#resizedAt.delete(p.metadata.uid ?? '') });
    this.#selectors = new TargetSelectors({ client: options.client, clock: options.clock });
    this.#events = createEventRecorder({ client: options.client, clock: options.clock, component: 'vpa-updater', log: options.log });
  }

  start(): void {
    this.#vpas.start();
    this.#pods.start();
    void Promise.all([this.#vpas.waitForSync(), this.#pods.waitForSync()]).then(() => this.#schedule());
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
    this.#vpas.stop();
    this.#pods.stop();
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = this.#o.clock.after(this.#o.intervalMs ?? updaterIntervalMs, () => {
      this.runOnce().catch((error: unknown) => this.#o.log(`vpa-updater: ${String(error)}`)).finally(() => this.#schedule());
    });
  }

  async runOnce(): Promise<void> {
    for (const vpa of this.#vpas.list()) {
      const mode = updateModeOf(vpa);
      if (mode !== 'Recreate' && mode !== 'InPlaceOrRecreate') continue;
      if (!vpa.status?.recommendation?.containerRecommendations?.length) continue;
      const selector = await this.#selectors.selector(vpa);
      if (!selector) continue;
      const pods = this.#pods.list().filter((p) => p.metadata.namespace === vpa.metadata.namespace && selector.matches(p.metadata.labels));
      await this.#updateVpa(vpa, mode, pods);
    }
  }

  async #updateVpa(vpa: Vpa, mode: 'Recreate' | 'InPlaceOrRecreate', pods: readonly ReadonlyPod[]): Promise<void> {
    const groups = new Map<string, ReadonlyPod[]>();
    for (const p of pods) {
      const owner = p.metadata.ownerReferences?.find((o) => o.controller)?.uid;
      if (!owner) continue;
      // Appended in place: a copy per pod was quadratic in a workload's replicas, every pass.
      const group = groups.get(owner);
      if (group) group.push(p);
      else groups.set(owner, [p]);
    }
    const minReplicas = vpa.spec.updatePolicy?.minReplicas ?? defaultMinReplicas;
    for (const group of groups.values()) {
      const live = group.filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
      if (live.length < minReplicas) continue;
      const configured = live.length;
      const running = live.filter((p) => p.status?.phase === 'Running');
      const tolerance = Math.floor(configured * evictionTolerance);
      // Resizes still in flight count as disruptions, so at most `tolerance` are in flight at once.
      let disrupted = running.filter((p) => this.#resizedAt.has(p.metadata.uid ?? '') && (condition(p, 'PodResizePending') || condition(p, 'PodResizeInProgress'))).length;
      const canDisrupt = (): boolean => running.length - disrupted > configured - tolerance || (running.length === configured && tolerance === 0 && disrupted === 0);
      // Resizes already in flight: finished, still waiting, or due for the eviction fallback.
      for (const pod of running) {
        const at = this.#resizedAt.get(pod.metadata.uid ?? '');
        if (at === undefined || mode !== 'InPlaceOrRecreate') continue;
        const fallback = this.#fallbackReason(pod, at);
        if (fallback === 'done') this.#resizedAt.delete(pod.metadata.uid ?? '');
        else if (fallback === 'evict') {
          this.#resizedAt.delete(pod.metadata.uid ?? '');
          await this.#evict(vpa, pod);
        }
      }
      const candidates = running
        .filter((p) => !this.#resizedAt.has(p.metadata.uid ?? '') && outsideBounds(p, vpa))
        .sort((a, b) => resourceDiff(b, vpa) - resourceDiff(a, vpa) || keyOf(a).localeCompare(keyOf(b)));
      for (const pod of candidates) {
        if (!canDisrupt()) break;
        if (mode === 'InPlaceOrRecreate' && (await this.#resize(vpa, pod))) {
          disrupted++;
          continue;
        }
        if (await this.#evict(vpa, pod)) disrupted++;
      }
    }
  }

  /** After the updater's resize: 'done', 'wait' or 'evict' per the pod's resize conditions. */
  #fallbackReason(pod: ReadonlyPod, at: number): 'done' | 'wait' | 'evict' {
    const elapsed = this.#o.clock.now() - at;
    const pending = condition(pod, 'PodResizePending');
    if (pending) {
      if (pending.reason === 'Infeasible') return 'evict';
      if (pending.reason === 'Deferred') return elapsed > deferredResizeTimeoutMs ? 'evict' : 'wait';
      return 'evict';
    }
    const inProgress = condition(pod, 'PodResizeInProgress');
    if (inProgress) {
      if (inProgress.reason) return 'evict';
      return elapsed > inProgressResizeTimeoutMs ? 'evict' : 'wait';
    }
    return 'done';
  }

  async #resize(vpa: Vpa, pod: ReadonlyPod): Promise<boolean> {
    const updates = recommendedResources(pod, vpa);
    if (updates.length === 0) return false;
    const ops = updates.map((u) => ({ op: 'add', path: `/spec/containers/${u.index}/resources`, value: u.resources }));
    try {
      await this.#o.client.patch(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', 'json', ops, { subresource: 'resize' });
    } catch (error) {
      // A refused resize (e.g. a change the API forbids in place) falls back to eviction.
      this.#o.log(`vpa-updater: resize of ${keyOf(pod)}: ${String(error)}`);
      return false;
    }
    this.#resizedAt.set(pod.metadata.uid ?? '', this.#o.clock.now());
    await this.#o.client.patch(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', 'merge', { metadata: { annotations: { vpaInPlaceUpdated: 'true' } } }).catch(() => undefined);
    this.#events.event(pod, 'Normal', 'InPlaceResizedByVPA', resizedMessage);
    this.#events.event(vpa, 'Normal', 'InPlaceResizedByVPA', `VPA Updater resized Pod ${pod.metadata.name} in place to apply resource recommendation.`);
    return true;
  }

  async #evict(vpa: Vpa, pod: ReadonlyPod): Promise<boolean> {
    const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '' } };
    try {
      await this.#o.client.create(refs.pods, eviction, { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', subresource: 'eviction' });
    } catch (error) {
      if (!(isApiError(error) && (error.code === 429 || error.reason === 'NotFound'))) this.#o.log(`vpa-updater: evicting ${keyOf(pod)}: ${String(error)}`);
      return false;
    }
    this.#events.event(pod, 'Normal', 'EvictedByVPA', evictedMessage);
    this.#events.event(vpa, 'Normal', 'EvictedPod', `VPA Updater evicted Pod ${pod.metadata.name} to apply resource recommendation.`);
    return true;
  }
}
