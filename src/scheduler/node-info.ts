// PodInfo (a pod parsed once for scheduling) and NodeInfo (a node plus the pods on it, with
// aggregated requests, ports and PVC use), the data every plugin reads on the hot path.
// Upstream: pkg/scheduler/framework/types.go (PodInfo, NodeInfo, Resource, AffinityTerm).
import type { Node, Pod, Taint } from '../api/index.ts';
import { ephemeralClaimName, podResourceRequests, sameResourceInputs } from '../api/index.ts';
import type { DeepReadonly, LabelSelectorMatcher } from '../core/index.ts';
import { jsonEqual, labelSelectorFromObject, lookupTable, nothingSelector } from '../core/index.ts';
import { resourceAmountOf as amountOf } from './quantities.ts';

type PodRO = DeepReadonly<Pod>;
type NodeRO = DeepReadonly<Node>;

// schedutil.DefaultMilliCPURequest / DefaultMemoryRequest: what scoring assumes for an unset request.
export const defaultMilliCPURequest = 100;
export const defaultMemoryRequest = 200 * 1024 * 1024;

/** IsExtendedResourceName: a domain-prefixed name outside kubernetes.io (nvidia.com/gpu). */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/')) return false;
  if (name.startsWith('kubernetes.io/') || name.includes('.kubernetes.io/')) return false;
  return !name.startsWith('requests.');
}
/** IsScalarResourceName: extended, hugepages-*, attachable-volumes-*. */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith('hugepages-') || name.startsWith('attachable-volumes-');
}

/** Resource: cpu in millicores, the rest in units; scalars (GPUs, hugepages) in a map. */
export class Resource {
  milliCPU = 0;
  memory = 0;
  ephemeralStorage = 0;
  allowedPodNumber = 0;
  scalar: Map<string, number> | undefined;

  static from(amounts: Readonly<Record<string, number>>): Resource {
    const r = new Resource();
    for (const k in amounts) r.addAmount(k, amounts[k] ?? 0);
    return r;
  }
  addAmount(name: string, v: number): void {
    switch (name) {
      case 'cpu':
        this.milliCPU += v;
        return;
      case 'memory':
        this.memory += v;
        return;
      case 'ephemeral-storage':
        this.ephemeralStorage += v;
        return;
      case 'pods':
        this.allowedPodNumber += v;
        return;
      default:
        if (isScalarResourceName(name)) (this.scalar ??= new Map()).set(name, (this.scalar.get(name) ?? 0) + v);
    }
  }
  add(o: Resource, sign = 1): void {
    this.milliCPU += sign * o.milliCPU;
    this.memory += sign * o.memory;
    this.ephemeralStorage += sign * o.ephemeralStorage;
    if (o.scalar) for (const [k, v] of o.scalar) (this.scalar ??= new Map()).set(k, (this.scalar.get(k) ?? 0) + sign * v);
  }
  /** The amount for a resource name, as NodeResourcesFit's scorers look it up. */
  get(name: string): number {
    switch (name) {
      case 'cpu':
        return this.milliCPU;
      case 'memory':
        return this.memory;
      case 'ephemeral-storage':
        return this.ephemeralStorage;
      case 'pods':
        return this.allowedPodNumber;
      default:
        return this.scalar?.get(name) ?? 0;
    }
  }
  clone(): Resource {
    const r = new Resource();
    r.milliCPU = this.milliCPU;
    r.memory = this.memory;
    r.ephemeralStorage = this.ephemeralStorage;
    r.allowedPodNumber = this.allowedPodNumber;
    if (this.scalar) r.scalar = new Map(this.scalar);
    return r;
  }
}

/** A parsed pod (anti-)affinity term. Upstream: fwk.AffinityTerm. */
export interface AffinityTerm {
  namespaces: ReadonlySet<string>;
  selector: LabelSelectorMatcher;
  topologyKey: string;
  namespaceSelector: LabelSelectorMatcher;
}
export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** AffinityTerm.Matches: namespace listed (or selected) and labels selected. */
export function affinityTermMatches(term: AffinityTerm, pod: PodRO, nsLabels: Readonly<Record<string, string>> | undefined): boolean {
  const ns = pod.metadata.namespace ?? '';
  if (term.namespaces.has(ns) || term.namespaceSelector.matches(nsLabels)) return term.selector.matches(pod.metadata.labels);
  return false;
}

type TermInput = DeepReadonly<{ labelSelector?: unknown; namespaces?: string[]; namespaceSelector?: unknown; topologyKey: string }>;

function parseTerm(pod: PodRO, t: TermInput): AffinityTerm {
  const sel = labelSelectorFromObject(t.labelSelector as never);
  const nsSel = labelSelectorFromObject(t.namespaceSelector as never);
  const namespaces = new Set<string>();
  if ((t.namespaces?.length ?? 0) === 0 && t.namespaceSelector === undefined) namespaces.add(pod.metadata.namespace ?? '');
  else for (const n of t.namespaces ?? []) namespaces.add(n);
  return {
    namespaces,
    // An unparsable selector matches nothing (validation rejects them anyway).
    selector: 'error' in sel ? nothingSelector : sel,
    topologyKey: t.topologyKey,
    namespaceSelector: 'error' in nsSel ? nothingSelector : nsSel,
  };
}

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

const podInfoCache = new WeakMap<object, PodInfo>();

/** What a PodInfo reads is the same in both versions of a pod: identity, labels, spec, status resources. */
function sameInputs(a: PodRO, b: PodRO): boolean {
  const am = a.metadata;
  const bm = b.metadata;
  return am.uid === bm.uid && am.name === bm.name && am.namespace === bm.namespace && (am.labels === bm.labels || jsonEqual(am.labels, bm.labels)) && sameResourceInputs(a, b);
}

/** The pod plus everything plugins derive from it, computed once per pod object. */
export class PodInfo {
  readonly pod: PodRO;
  readonly key: string;
  readonly uid: string;
  readonly priority: number;
  /** Effective requests: containers, sidecars, init max, pod-level and overhead. */
  readonly requests: Resource;
  /** cpu/memory with the 100m / 200Mi defaults for unset container requests (scoring). */
  readonly nonZeroMilliCPU: number;
  readonly nonZeroMemory: number;
  readonly requiredAffinityTerms: readonly AffinityTerm[];
  readonly requiredAntiAffinityTerms: readonly AffinityTerm[];
  readonly preferredAffinityTerms: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinityTerms: readonly WeightedAffinityTerm[];
  readonly hostPorts: readonly HostPort[];
  /** `ns/claimName` of every PVC volume. */
  readonly pvcKeys: readonly string[];
  /** labelCountKey of each of the pod's labels. */
  readonly labelCountKeys: readonly string[];

  /**
   * The PodInfo of `pod`, once per pod object. With `previous` (an earlier version's), what it derived
   * is kept when nothing it reads changed, as on a kubelet's status write.
   */
  static of(pod: PodRO, previous?: PodInfo): PodInfo {
    let pi = podInfoCache.get(pod);
    if (!pi) podInfoCache.set(pod, (pi = previous && sameInputs(previous.pod, pod) ? new PodInfo(pod, previous) : new PodInfo(pod)));
    return pi;
  }

  private constructor(pod: PodRO, same?: PodInfo) {
    if (same) {
      this.pod = pod;
      ({ key: this.key, uid: this.uid, priority: this.priority, requests: this.requests, nonZeroMilliCPU: this.nonZeroMilliCPU, nonZeroMemory: this.nonZeroMemory } = same);
      ({ requiredAffinityTerms: this.requiredAffinityTerms, requiredAntiAffinityTerms: this.requiredAntiAffinityTerms, preferredAffinityTerms: this.preferredAffinityTerms, preferredAntiAffinityTerms: this.preferredAntiAffinityTerms } = same);
      ({ hostPorts: this.hostPorts, pvcKeys: this.pvcKeys, labelCountKeys: this.labelCountKeys } = same);
      return;
    }
    this.pod = pod;
    const ns = pod.metadata.namespace ?? '';
    this.key = `${ns}/${pod.metadata.name ?? ''}`;
    this.uid = pod.metadata.uid ?? this.key;
    this.priority = pod.spec.priority ?? 0;
    this.requests = Resource.from(podResourceRequests(pod, { useStatusResources: true }));
    const nz = podResourceRequests(pod, {
      useStatusResources: true,
      nonMissingContainerRequests: { cpu: defaultMilliCPURequest, memory: defaultMemoryRequest },
    });
    this.nonZeroMilliCPU = nz.cpu ?? 0;
    this.nonZeroMemory = nz.memory ?? 0;
    const aff = pod.spec.affinity;
    this.requiredAffinityTerms = (aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => parseTerm(pod, t));
    this.requiredAntiAffinityTerms = (aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => parseTerm(pod, t));
    this.preferredAffinityTerms = (aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => ({ ...parseTerm(pod, w.podAffinityTerm), weight: w.weight }));
    this.preferredAntiAffinityTerms = (aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((w) => ({ ...parseTerm(pod, w.podAffinityTerm), weight: w.weight }));
    const ports: HostPort[] = [];
    for (const c of pod.spec.containers) {
      for (const p of c.ports ?? []) if (p.hostPort && p.hostPort > 0) ports.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol ?? 'TCP', port: p.hostPort });
    }
    for (const c of pod.spec.initContainers ?? []) {
      if (c.restartPolicy !== 'Always') continue;
      for (const p of c.ports ?? []) if (p.hostPort && p.hostPort > 0) ports.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol ?? 'TCP', port: p.hostPort });
    }
    this.hostPorts = ports;
    const pvcs: string[] = [];
    for (const v of pod.spec.volumes ?? []) {
      if (v.persistentVolumeClaim) pvcs.push(`${ns}/${v.persistentVolumeClaim.claimName}`);
      else if (v.ephemeral) pvcs.push(`${ns}/${ephemeralClaimName(pod, v)}`);
    }
    this.pvcKeys = pvcs;
    const labels = pod.metadata.labels;
    const labelKeys: string[] = [];
    for (const k in labels) labelKeys.push(labelCountKey(ns, k, labels[k] ?? ''));
    this.labelCountKeys = labelKeys;
  }

  /** Derived from `other` by PodInfo.of without recomputing: every value is the same object. */
  sameDerivedValues(other: PodInfo): boolean {
    return this.requests === other.requests && this.labelCountKeys === other.labelCountKeys && this.pvcKeys === other.pvcKeys && this.hostPorts === other.hostPorts && this.requiredAffinityTerms === other.requiredAffinityTerms && this.requiredAntiAffinityTerms === other.requiredAntiAffinityTerms && this.preferredAffinityTerms === other.preferredAffinityTerms && this.preferredAntiAffinityTerms === other.preferredAntiAffinityTerms;
  }

  get hasAffinity(): boolean {
    return this.requiredAffinityTerms.length + this.requiredAntiAffinityTerms.length + this.preferredAffinityTerms.length + this.preferredAntiAffinityTerms.length > 0;
  }
}

let generation = 0;
export function nextGeneration(): number {
  return ++generation;
}

/**
 * A node and its pods. Mutated only by the scheduler cache (and by preemption on clones).
 * Example: a node with allocatable cpu 4 holding pods of 1 and 500m has requested.milliCPU
 * 1500; a pod with no requests adds 0 there but 100 to nonZeroRequested (scoring's view).
 */
export class NodeInfo {
  node: NodeRO | undefined;
  readonly name: string;
  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  requested = new Resource();
  nonZeroRequested = new Resource();
  allocatable = new Resource();
  /** `ip|protocol|port` in use (0.0.0.0 conflicts with every ip of the same protocol/port). */
  usedPorts = new Map<string, number>();
  pvcRefCounts = new Map<string, number>();
  taints: readonly DeepReadonly<Taint>[] = [];
  /** spec.unschedulable, cached: NodeUnschedulable reads it on every filter call. */
  unschedulable = false;
  /**
   * Pods per label (labelCountKey: namespace, key, value): a selector's equality requirements rule a
   * node out without visiting its pods, where topology spreading counts over every node for each pod.
   */
  labelCounts = new Map<string, number>();
  generation = nextGeneration();
  #labels: Readonly<Record<string, string>> | undefined;

  constructor(name: string, node?: NodeRO) {
    this.name = name;
    if (node) this.setNode(node);
  }

  setNode(node: NodeRO): void {
    // A copy without a prototype, made when the labels change: plugins look labels up by a pod's
    // topology key, and a key such as `constructor` must not find Object.prototype's member.
    if (this.node === undefined || node.metadata.labels !== this.node.metadata.labels) this.#labels = node.metadata.labels && lookupTable(node.metadata.labels);
    this.node = node;
    const alloc = new Resource();
    const list = node.status?.allocatable ?? node.status?.capacity ?? {};
    for (const k in list) {
      const q = list[k];
      if (q !== undefined) alloc.addAmount(k, amountOf(k, q));
    }
    this.allocatable = alloc;
    this.taints = node.spec?.taints ?? [];
    this.unschedulable = node.spec?.unschedulable === true;
    this.generation = nextGeneration();
  }

  get labels(): Readonly<Record<string, string>> | undefined {
    return this.node ? this.#labels : undefined;
  }

  addPod(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity) this.podsWithAffinity.push(pi);
    if (pi.requiredAntiAffinityTerms.length > 0) this.podsWithRequiredAntiAffinity.push(pi);
    this.#account(pi, 1);
  }

  /** A newer version of a pod here whose derived values are the same (sameDerivedValues): sums stand. */
  replacePod(old: PodInfo, next: PodInfo): void {
    const swap = (list: PodInfo[]): void => {
      const i = list.indexOf(old);
      if (i >= 0) list[i] = next;
    };
    swap(this.pods);
    if (next.hasAffinity) swap(this.podsWithAffinity);
    if (next.requiredAntiAffinityTerms.length > 0) swap(this.podsWithRequiredAntiAffinity);
    this.generation = nextGeneration();
  }

  /** Removes by uid; false if the pod was not here. */
  removePod(pi: PodInfo): boolean {
    const i = this.pods.findIndex((p) => p.uid === pi.uid);
    if (i < 0) return false;
    const old = this.pods[i] as PodInfo;
    this.pods.splice(i, 1);
    removeFrom(this.podsWithAffinity, old.uid);
    removeFrom(this.podsWithRequiredAntiAffinity, old.uid);
    this.#account(old, -1);
    return true;
  }

  #account(pi: PodInfo, sign: 1 | -1): void {
    this.requested.add(pi.requests, sign);
    this.nonZeroRequested.milliCPU += sign * pi.nonZeroMilliCPU;
    this.nonZeroRequested.memory += sign * pi.nonZeroMemory;
    for (const p of pi.hostPorts) bump(this.usedPorts, `${p.ip}|${p.protocol}|${p.port}`, sign);
    for (const k of pi.pvcKeys) bump(this.pvcRefCounts, k, sign);
    for (const k of pi.labelCountKeys) bump(this.labelCounts, k, sign);
    this.generation = nextGeneration();
  }

  /** A deep-enough copy for what-if evaluation (preemption): pod arrays and sums are copied. */
  clone(): NodeInfo {
    const c = new NodeInfo(this.name);
    c.node = this.node;
    c.pods = [...this.pods];
    c.podsWithAffinity = [...this.podsWithAffinity];
    c.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity];
    c.requested = this.requested.clone();
    c.nonZeroRequested = this.nonZeroRequested.clone();
    c.allocatable = this.allocatable;
    c.usedPorts = new Map(this.usedPorts);
    c.pvcRefCounts = new Map(this.pvcRefCounts);
    c.labelCounts = new Map(this.labelCounts);
    c.taints = this.taints;
    c.unschedulable = this.unschedulable;
    c.generation = this.generation;
    return c;
  }
}

/** The key of NodeInfo.labelCounts for pods in `namespace` labelled `key=value`. */
export function labelCountKey(namespace: string, key: string, value: string): string {
  return `${namespace}\0${key}\0${value}`;
}

function removeFrom(list: PodInfo[], uid: string): void {
  const i = list.findIndex((p) => p.uid === uid);
  if (i >= 0) list.splice(i, 1);
}

function bump(m: Map<string, number>, k: string, by: number): void {
  const v = (m.get(k) ?? 0) + by;
  if (v <= 0) m.delete(k);
  else m.set(k, v);
}
