// Scheduler cache: NodeInfos built from the node and pod informers plus assumed pods (reserved
// by a scheduling cycle, not yet seen bound), so back-to-back cycles never overcommit a node.
// Upstream: pkg/scheduler/backend/cache/cache.go, snapshot.go.
//
// The scheduling cycle is synchronous, so the cache itself is the snapshot: no informer event
// can run while a cycle reads it. Only what-if evaluations (preemption) clone NodeInfos.
import type { Node } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { AffinityIndex } from './affinity-index.ts';
import type { SnapshotLister } from './framework.ts';
import { NodeInfo, PodInfo } from './node-info.ts';

type NodeRO = DeepReadonly<Node>;

interface PodState {
  pi: PodInfo;
  nodeName: string;
  assumed: boolean;
}

export class SchedulerCache implements SnapshotLister {
  readonly #nodes = new Map<string, NodeInfo>();
  /** Nodes that exist (have a Node object), in the order they were added. */
  #list: NodeInfo[] = [];
  readonly #pods = new Map<string, PodState>();
  readonly #pvcUse = new Map<string, number>();
  #affinityList: NodeInfo[] | undefined;
  #antiAffinityList: NodeInfo[] | undefined;
  /** InterPodAffinity's counts, kept as pods land and nodes are relabelled. */
  readonly #affinity = new AffinityIndex();
  /** Per labelCountKey, the nodes whose labelCounts have it: topology spreading visits only these. */
  readonly #podLabelNodes = new Map<string, Set<NodeInfo>>();

  // ---- SnapshotLister

  list(): readonly NodeInfo[] {
    return this.#list;
  }
  get(nodeName: string): NodeInfo | undefined {
    const ni = this.#nodes.get(nodeName);
    return ni?.node ? ni : undefined;
  }
  havePodsWithAffinity(): readonly NodeInfo[] {
    return (this.#affinityList ??= this.#list.filter((n) => n.podsWithAffinity.length > 0));
  }
  havePodsWithRequiredAntiAffinity(): readonly NodeInfo[] {
    return (this.#antiAffinityList ??= this.#list.filter((n) => n.podsWithRequiredAntiAffinity.length > 0));
  }
  affinityIndex(): AffinityIndex {
    return this.#affinity;
  }
  nodesWithPodLabel(key: string): ReadonlySet<NodeInfo> {
    return this.#podLabelNodes.get(key) ?? noNodes;
  }
  pvcRefCount(key: string): number {
    return this.#pvcUse.get(key) ?? 0;
  }

  get nodeCount(): number {
    return this.#list.length;
  }

  // ---- nodes

  addNode(node: NodeRO): void {
    const name = node.metadata.name ?? '';
    let ni = this.#nodes.get(name);
    if (!ni) this.#nodes.set(name, (ni = new NodeInfo(name)));
    const existed = ni.node !== undefined;
    const before = existed ? ni.labels : undefined;
    ni.setNode(node);
    const after = ni.labels;
    if (!existed || !sameLabels(before, after)) {
      for (const pi of ni.pods) {
        this.#affinity.add(pi, before, -1);
        this.#affinity.add(pi, after, 1);
      }
    }
    if (!existed) {
      this.#list.push(ni);
      this.#dirty(ni);
    }
  }

  updateNode(node: NodeRO): void {
    this.addNode(node);
  }

  removeNode(node: NodeRO): void {
    const name = node.metadata.name ?? '';
    const ni = this.#nodes.get(name);
    if (!ni) return;
    const i = this.#list.indexOf(ni);
    if (i >= 0) this.#list.splice(i, 1);
    if (ni.node) for (const pi of ni.pods) this.#affinity.add(pi, ni.labels, -1);
    // Pods still bound there keep a placeholder so their later deletion accounts correctly.
    if (ni.pods.length === 0) this.#nodes.delete(name);
    else ni.node = undefined;
    this.#affinityList = undefined;
    this.#antiAffinityList = undefined;
  }

  // ---- pods

  isAssumed(uid: string): boolean {
    return this.#pods.get(uid)?.assumed ?? false;
  }

  /** Where the cache has the pod (assumed or bound). */
  nodeOf(uid: string): string | undefined {
    return this.#pods.get(uid)?.nodeName;
  }

  /** Reserve: the pod occupies the node from now on. */
  assumePod(pi: PodInfo, nodeName: string): void {
    if (this.#pods.has(pi.uid)) throw new Error(`pod ${pi.key} (${pi.uid}) is in the cache, so can't be assumed`);
    this.#place(pi, nodeName, true);
  }

  /** Undo an assumption (unreserve, bind failure). A pod already confirmed bound stays. */
  forgetPod(pi: PodInfo): void {
    const st = this.#pods.get(pi.uid);
    if (!st || !st.assumed) return;
    this.#unplace(st);
    this.#pods.delete(pi.uid);
  }

  /** An assigned pod seen by the informer (add or update). Confirms an assumed one. */
  addOrUpdatePod(pi: PodInfo): void {
    const nodeName = pi.pod.spec.nodeName ?? '';
    const st = this.#pods.get(pi.uid);
    if (st) {
      if (st.pi === pi && st.nodeName === nodeName && !st.assumed) return;
      // A status write (PodInfo.of kept every derived value): the node holds the new version, its sums stand.
      if (st.nodeName === nodeName && !st.assumed && pi.sameDerivedValues(st.pi)) {
        const ni = this.#nodes.get(nodeName);
        ni?.replacePod(st.pi, pi);
        this.#pods.set(pi.uid, { ...st, pi });
        if (ni && pi.hasAffinity) this.#dirty(ni);
        return;
      }
      this.#unplace(st);
      this.#pods.delete(pi.uid);
    }
    this.#place(pi, nodeName, false);
  }

  removePod(uid: string): void {
    const st = this.#pods.get(uid);
    if (!st) return;
    this.#unplace(st);
    this.#pods.delete(uid);
  }

  podInfo(uid: string): PodInfo | undefined {
    return this.#pods.get(uid)?.pi;
  }

  #place(pi: PodInfo, nodeName: string, assumed: boolean): void {
    let ni = this.#nodes.get(nodeName);
    if (!ni) this.#nodes.set(nodeName, (ni = new NodeInfo(nodeName)));
    ni.addPod(pi);
    for (const k of pi.labelCountKeys) {
      if (ni.labelCounts.get(k) !== 1) continue;
      let nodes = this.#podLabelNodes.get(k);
      if (!nodes) this.#podLabelNodes.set(k, (nodes = new Set()));
      nodes.add(ni);
    }
    if (ni.node) this.#affinity.add(pi, ni.labels, 1);
    for (const k of pi.pvcKeys) this.#pvcUse.set(k, (this.#pvcUse.get(k) ?? 0) + 1);
    this.#pods.set(pi.uid, { pi, nodeName, assumed });
    if (pi.hasAffinity) this.#dirty(ni);
  }

  #unplace(st: PodState): void {
    const ni = this.#nodes.get(st.nodeName);
    if (ni) {
      if (ni.removePod(st.pi) && ni.node) this.#affinity.add(st.pi, ni.labels, -1);
      for (const k of st.pi.labelCountKeys) {
        if (ni.labelCounts.has(k)) continue;
        const nodes = this.#podLabelNodes.get(k);
        nodes?.delete(ni);
        if (nodes?.size === 0) this.#podLabelNodes.delete(k);
      }
      if (!ni.node && ni.pods.length === 0) this.#nodes.delete(st.nodeName);
    }
    for (const k of st.pi.pvcKeys) {
      const v = (this.#pvcUse.get(k) ?? 0) - 1;
      if (v <= 0) this.#pvcUse.delete(k);
      else this.#pvcUse.set(k, v);
    }
    if (st.pi.hasAffinity) {
      this.#affinityList = undefined;
      this.#antiAffinityList = undefined;
    }
  }

  #dirty(_ni: NodeInfo): void {
    this.#affinityList = undefined;
    this.#antiAffinityList = undefined;
  }
}

const noNodes: ReadonlySet<NodeInfo> = new Set();

function sameLabels(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  if (a === b) return true;
  const ka = a ? Object.keys(a) : [];
  if (ka.length !== (b ? Object.keys(b).length : 0)) return false;
  for (const k of ka) if (a?.[k] !== b?.[k]) return false;
  return true;
}
