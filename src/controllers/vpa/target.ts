// Which pods a VPA controls: its targetRef's label selector, read through the target's scale
// subresource (any kind with one, custom resources included), then the pods in its namespace that
// match. Selectors are cached briefly: admission asks on every pod create.
// Upstream: vertical-pod-autoscaler/pkg/target/fetcher.go (VpaTargetSelectorFetcher), pkg/utils/vpa/api.go.
import type { Pod, Scale } from '../../api/index.ts';
import type { Client, DiscoveredResource } from '../../client/index.ts';
import type { Clock, DeepReadonly, LabelSelectorMatcher } from '../../core/index.ts';
import { keyOf, parseLabelSelector } from '../../core/index.ts';
import type { VerticalPodAutoscaler } from './types.ts';

type ReadonlyVpa = DeepReadonly<VerticalPodAutoscaler>;
const ttlMs = 10_000;

export class TargetSelectors {
  readonly #client: Client;
  readonly #clock: Clock;
  #resources: DiscoveredResource[] | undefined;
  readonly #cache = new Map<string, { at: number; selector: LabelSelectorMatcher | undefined }>();

  constructor(options: { client: Client; clock: Clock }) {
    this.#client = options.client;
    this.#clock = options.clock;
  }

  async selector(vpa: ReadonlyVpa): Promise<LabelSelectorMatcher | undefined> {
    const key = `${keyOf(vpa)}|${vpa.spec.targetRef.kind}/${vpa.spec.targetRef.name}`;
    const cached = this.#cache.get(key);
    if (cached && this.#clock.now() - cached.at < ttlMs) return cached.selector;
    const selector = await this.#fetch(vpa).catch(() => undefined);
    this.#cache.set(key, { at: this.#clock.now(), selector });
    return selector;
  }

  async #fetch(vpa: ReadonlyVpa): Promise<LabelSelectorMatcher | undefined> {
    const { apiVersion, kind, name } = vpa.spec.targetRef;
    const group = apiVersion?.includes('/') ? apiVersion.split('/')[0] : undefined;
    this.#resources ??= await this.#client.discover();
    const find = (): DiscoveredResource | undefined => this.#resources?.find((r) => r.kind === kind && (group === undefined || r.group === group) && r.namespaced);
    let res = find();
    if (!res) {
      this.#resources = await this.#client.discover();
      res = find();
    }
    if (!res) return undefined;
    const scale = await this.#client.get<Scale>({ group: res.group, version: res.version, resource: res.resource }, vpa.metadata.namespace, name, { subresource: 'scale' });
    const parsed = parseLabelSelector(scale.status?.selector ?? '');
    return parsed.ok && !parsed.selector.empty ? parsed.selector : undefined;
  }
}

/** The VPA that controls a pod: the matching one, the oldest first when several match (upstream picks one). */
export async function controllingVpa(selectors: TargetSelectors, vpas: readonly ReadonlyVpa[], pod: DeepReadonly<Pod>): Promise<ReadonlyVpa | undefined> {
  const candidates = vpas.filter((v) => v.metadata.namespace === pod.metadata.namespace).sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  for (const vpa of candidates) {
    const selector = await selectors.selector(vpa);
    if (selector?.matches(pod.metadata.labels)) return vpa;
  }
  return undefined;
}
