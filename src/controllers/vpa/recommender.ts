// The VPA recommender: every minute it reads metrics.k8s.io for the pods each VPA controls, feeds
// one AggregateState per (VPA, container name), and writes status.recommendation with the
// RecommendationProvided / NoPodsMatched conditions; OOM kills seen in pod statuses bump memory up.
// State lives in memory (no checkpoints).
// Upstream: vertical-pod-autoscaler/pkg/recommender/routines/recommender.go (RunOnce),
// pkg/recommender/model/vpa.go (UpdateConditions).
import { metricsRefs, refs } from '../../api/index.ts';
import type { Pod, PodMetrics } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { Informer } from '../../client/index.ts';
import type { Clock, Condition, DeepReadonly, Timer } from '../../core/index.ts';
import { formatTime, isApiError, keyOf } from '../../core/index.ts';
import { AggregateState, amountOf, containerRecommendation, estimate } from './estimator.ts';
import { TargetSelectors } from './target.ts';
import { containerPolicy, vpaRef } from './types.ts';
import type { RecommendedContainerResources, VerticalPodAutoscaler } from './types.ts';

export const recommenderIntervalMs = 60_000;

export interface RecommenderOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  intervalMs?: number;
}

type Vpa = DeepReadonly<VerticalPodAutoscaler>;

export class Recommender {
  readonly #o: RecommenderOptions;
  readonly #vpas: Informer<VerticalPodAutoscaler>;
  readonly #pods: Informer<Pod>;
  readonly #selectors: TargetSelectors;
  /** VPA key -> container name -> aggregate. */
  readonly #states = new Map<string, Map<string, AggregateState>>();
  /** Pod uid -> container -> finishedAt of the OOM termination last recorded. */
  readonly #oomsSeen = new Map<string, Map<string, string>>();
  #timer: Timer | undefined;
  #stopped = false;

  constructor(options: RecommenderOptions) {
    this.#o = options;
    this.#vpas = new Informer<VerticalPodAutoscaler>({ client: options.client, ref: vpaRef, clock: options.clock, log: options.log });
    this.#pods = new Informer<Pod>({ client: options.client, ref: refs.pods, clock: options.clock, log: options.log });
    this.#selectors = new TargetSelectors({ client: options.client, clock: options.clock });
    this.#vpas.addHandlers({ onDelete: (v) => this.#states.delete(keyOf(v)) });
    this.#pods.addHandlers({ onDelete: (p) => this.#oomsSeen.delete(p.metadata.uid ?? '') });
  }

  start(): void {
    this.#vpas.start();
    this.#pods.start();
    void Promise.all([this.#vpas.waitForSync(), this.#pods.waitForSync()]).then(() => this.#loop());
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
    this.#vpas.stop();
    this.#pods.stop();
  }

  #loop(): void {
    if (this.#stopped) return;
    this.runOnce().catch((error: unknown) => this.#o.log(`vpa-recommender: ${String(error)}`)).finally(() => {
      if (!this.#stopped) this.#timer = this.#o.clock.after(this.#o.intervalMs ?? recommenderIntervalMs, () => this.#loop());
    });
  }

  async runOnce(): Promise<void> {
    const vpas = this.#vpas.list().filter((v) => !v.spec.recommenders?.length || v.spec.recommenders.some((r) => r.name === 'default'));
    const metricsByNamespace = new Map<string, Map<string, PodMetrics>>();
    for (const vpa of vpas) {
      const namespace = vpa.metadata.namespace ?? '';
      let metrics = metricsByNamespace.get(namespace);
      if (!metrics) {
        const list = await this.#o.client.list<PodMetrics>(metricsRefs.pods, { namespace }).catch(() => ({ items: [] as PodMetrics[] }));
        metrics = new Map(list.items.map((m) => [m.metadata.name ?? '', m]));
        metricsByNamespace.set(namespace, metrics);
      }
      await this.#update(vpa, metrics);
    }
  }

  async #update(vpa: Vpa, metrics: ReadonlyMap<string, PodMetrics>): Promise<void> {
    const selector = await this.#selectors.selector(vpa);
    const pods = selector ? this.#pods.list().filter((p) => p.metadata.namespace === vpa.metadata.namespace && !p.metadata.deletionTimestamp && selector.matches(p.metadata.labels)) : [];
    const key = keyOf(vpa);
    let states = this.#states.get(key);
    if (!states) this.#states.set(key, (states = new Map()));
    for (const pod of pods) {
      this.#recordOoms(vpa, states, pod);
      const m = metrics.get(pod.metadata.name ?? '');
      if (!m) continue;
      const parsed = Date.parse(m.timestamp);
      const at = Number.isNaN(parsed) ? this.#o.clock.now() : parsed;
      for (const c of m.containers) {
        if (containerPolicy(vpa, c.name)?.mode === 'Off') continue;
        let state = states.get(c.name);
        if (!state) states.set(c.name, (state = new AggregateState()));
        state.addSample(`${pod.metadata.uid}/${c.name}`, amountOf('cpu', c.usage.cpu) ?? 0, amountOf('memory', c.usage.memory) ?? 0, at);
      }
    }
    const names = [...states.keys()].sort();
    const recommendations: RecommendedContainerResources[] = names.map((name) => containerRecommendation(name, estimate(states.get(name)!, names.length), containerPolicy(vpa, name)));
    await this.#writeStatus(vpa, pods.length > 0, recommendations);
  }

  /**
   * The cluster feeder's OOM observer: a container whose last termination was OOMKilled adds one
   * bumped-up memory sample, once per termination (its finishedAt). The cache shows the latest
   * termination only, so OOMs closer together than the recommender's interval count once.
   */
  #recordOoms(vpa: Vpa, states: Map<string, AggregateState>, pod: DeepReadonly<Pod>): void {
    for (const status of pod.status?.containerStatuses ?? []) {
      const terminated = status.lastState?.terminated;
      if (terminated?.reason !== 'OOMKilled' || !terminated.finishedAt) continue;
      if (containerPolicy(vpa, status.name)?.mode === 'Off') continue;
      const uid = pod.metadata.uid ?? '';
      let seen = this.#oomsSeen.get(uid);
      if (!seen) this.#oomsSeen.set(uid, (seen = new Map()));
      if (seen.get(status.name) === terminated.finishedAt) continue;
      seen.set(status.name, terminated.finishedAt);
      const request = pod.spec.containers.find((c) => c.name === status.name)?.resources?.requests?.memory;
      let state = states.get(status.name);
      if (!state) states.set(status.name, (state = new AggregateState()));
      state.recordOom(`${pod.metadata.uid ?? ''}/${status.name}`, amountOf('memory', request) ?? 0, Date.parse(terminated.finishedAt));
    }
  }

  async #writeStatus(vpa: Vpa, podsMatched: boolean, recommendations: RecommendedContainerResources[]): Promise<void> {
    const now = formatTime(this.#o.clock.now());
    const old = vpa.status?.conditions ?? [];
    const conditions: Condition[] = [];
    const set = (type: string, status: 'True' | 'False', reason: string, message: string): void => {
      const prev = old.find((c) => c.type === type);
      conditions.push({ type, status, lastTransitionTime: prev && prev.status === status ? prev.lastTransitionTime : now, ...(reason ? { reason } : {}), ...(message ? { message } : {}) } as Condition);
    };
    const reason = podsMatched ? '' : 'NoPodsMatched';
    const message = podsMatched ? '' : 'No pods match this VPA object';
    if (!podsMatched) set('NoPodsMatched', 'True', reason, message);
    if (recommendations.length > 0) set('RecommendationProvided', 'True', '', '');
    else set('RecommendationProvided', 'False', reason, message);
    const status = { ...(recommendations.length > 0 ? { recommendation: { containerRecommendations: recommendations } } : {}), conditions };
    if (JSON.stringify(status) === JSON.stringify(vpa.status ?? {})) return;
    try {
      await this.#o.client.updateStatus<VerticalPodAutoscaler>(vpaRef, { ...(vpa as VerticalPodAutoscaler), status });
    } catch (error) {
      if (!(isApiError(error) && (error.reason === 'Conflict' || error.reason === 'NotFound'))) throw error;
    }
  }
}
