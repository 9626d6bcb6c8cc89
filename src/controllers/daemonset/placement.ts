// Where a DaemonSet's pods belong: the pod a node would get (the template pinned to that node by
// a metadata.name node affinity, with the tolerations every daemon pod carries), and whether a node
// should run it, or keep running one it has. Pure.
// Upstream: pkg/controller/daemon/daemon_controller.go (NodeShouldRunDaemonPod, predicates, NewPod),
// pkg/controller/daemon/util/daemonset_util.go (AddOrUpdateDaemonPodTolerations,
// ReplaceDaemonSetPodNodeNameNodeAffinity, GetTargetNodeName).
import { podMatchesNodeSelectorAndAffinity, toleratesTaint } from '../../api/index.ts';
import type { DaemonSet, Node, Pod, Taint, Toleration } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { copyJson } from '../../core/index.ts';

type PodSpec = Pod['spec'];
type Affinity = NonNullable<PodSpec['affinity']>;

const daemonTolerations = (hostNetwork: boolean): Toleration[] => [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ...(hostNetwork ? [{ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' } as Toleration] : []),
];

/**
 * AddOrUpdateDaemonPodTolerations: daemon pods survive node problems (not-ready and unreachable
 * NoExecute) and land on cordoned or pressured nodes. A toleration already there for the same key
 * and effect is replaced in place, as AddOrUpdateTolerationInPodSpec does.
 */
export function addDaemonPodTolerations(spec: PodSpec): void {
  const tolerations = spec.tolerations ?? [];
  for (const t of daemonTolerations(spec.hostNetwork === true)) {
    const at = tolerations.findIndex((x) => (x.key ?? '') === t.key && (x.effect ?? '') === t.effect);
    if (at >= 0) tolerations[at] = t;
    else tolerations.push(t);
  }
  spec.tolerations = tolerations;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required terms become "metadata.name In [node]". */
export function pinToNode(affinity: Affinity | undefined, node: string): Affinity {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: [node] }] }] };
  const out: Affinity = affinity ?? {};
  out.nodeAffinity = { ...out.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: required };
  return out;
}

/** NewPod: the daemon pod `node` would get, for the placement checks. */
export function daemonPodFor(ds: DeepReadonly<DaemonSet>, node: string): Pod {
  const spec = copyJson(ds.spec.template.spec) as PodSpec;
  addDaemonPodTolerations(spec);
  spec.affinity = pinToNode(spec.affinity, node);
  return { metadata: {}, spec } as Pod;
}

export interface Placement {
  /** The node should run a daemon pod (nodes needing one get it). */
  shouldRun: boolean;
  /** A daemon pod already on the node may stay (only an untolerated NoExecute taint evicts it). */
  shouldContinueRunning: boolean;
}

function untolerated(taints: readonly DeepReadonly<Taint>[] | undefined, tolerations: readonly Toleration[], effects: readonly string[]): boolean {
  return (taints ?? []).some((taint) => effects.includes(taint.effect) && !tolerations.some((t) => toleratesTaint(t, taint)));
}

/** NodeShouldRunDaemonPod. */
export function nodeShouldRunDaemonPod(node: DeepReadonly<Node>, ds: DeepReadonly<DaemonSet>): Placement {
  const name = node.metadata.name ?? '';
  const pod = daemonPodFor(ds, name);
  if (pod.spec.nodeName && pod.spec.nodeName !== name) return { shouldRun: false, shouldContinueRunning: false };
  if (!podMatchesNodeSelectorAndAffinity(pod, node)) return { shouldRun: false, shouldContinueRunning: false };
  const tolerations = pod.spec.tolerations ?? [];
  if (untolerated(node.spec?.taints, tolerations, ['NoSchedule', 'NoExecute'])) {
    return { shouldRun: false, shouldContinueRunning: !untolerated(node.spec?.taints, tolerations, ['NoExecute']) };
  }
  return { shouldRun: true, shouldContinueRunning: true };
}

/** GetTargetNodeName: spec.nodeName, else the node its metadata.name affinity pins it to. */
export function targetNodeName(pod: DeepReadonly<Pod>): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const f of term.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  }
  return undefined;
}
