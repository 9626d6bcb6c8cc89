// NodeAffinity: spec.nodeSelector and required node affinity filter nodes; preferred terms
// add their weights to the score. metadata.name matchFields narrow PreFilter to those nodes.
// Upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go,
// staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
import type { Node, NodeSelectorRequirement, NodeSelectorTerm } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import type { Plugin, PluginFactory, PodRO } from '../framework.ts';
import { ActionType, maxNodeScore, skip, stateKey, success, unresolvable } from '../framework.ts';
import type { NodeInfo } from '../node-info.ts';
import { defaultNormalizeScore } from './normalize.ts';

export const name = 'NodeAffinity';
export const errReasonPod = "node(s) didn't match Pod's node affinity/selector";
export const errReasonConflict = 'pod affinity terms conflict';

type Req = DeepReadonly<NodeSelectorRequirement>;
type Term = DeepReadonly<NodeSelectorTerm>;
type Labels = Readonly<Record<string, string>> | undefined;

function intValue(s: string): number | undefined {
  return /^-?\d+$/.test(s) ? Number(s) : undefined;
}

export function requirementMatches(r: Req, labels: Labels): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  const v = has ? (labels as Record<string, string>)[r.key] ?? '' : '';
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(v);
    case 'NotIn':
      return !has || !values.includes(v);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const a = intValue(v);
      const b = intValue(values[0] ?? '');
      if (a === undefined || b === undefined) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A term matches when all its expressions and fields do; an empty term matches nothing. */
export function termMatches(t: Term, node: DeepReadonly<Node>): boolean {
  const exprs = t.matchExpressions ?? [];
  const fields = t.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  for (const r of exprs) if (!requirementMatches(r, node.metadata.labels)) return false;
  for (const r of fields) {
    if (r.key !== 'metadata.name') return false;
    if (!requirementMatches(r, { 'metadata.name': node.metadata.name ?? '' })) return false;
  }
  return true;
}

/** GetRequiredNodeAffinity(pod).Match(node): nodeSelector AND (any required term). */
export function podMatchesNodeSelectorAndAffinity(pod: PodRO, node: DeepReadonly<Node>): boolean {
  const sel = pod.spec.nodeSelector;
  if (sel) {
    const labels = node.metadata.labels ?? {};
    for (const k in sel) if (labels[k] !== sel[k]) return false;
  }
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms === undefined) return true;
  for (const t of terms) if (termMatches(t, node)) return true;
  return false;
}

const preScoreKey = stateKey<readonly { weight: number; term: Term }[]>('PreScoreNodeAffinity');

export const newNodeAffinity: PluginFactory = () =>
  ({
    name,
    preFilter(_state, pod) {
      const required = pod.pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
      if (!required && !pod.pod.spec.nodeSelector) return skip;
      const terms = required?.nodeSelectorTerms ?? [];
      if (terms.length === 0) return success;
      let names: Set<string> | undefined;
      for (const t of terms) {
        let termNames: Set<string> | undefined;
        for (const r of t.matchFields ?? []) {
          if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
          const s = new Set(r.values ?? []);
          termNames = termNames ? new Set([...termNames].filter((n) => s.has(n))) : s;
        }
        if (!termNames) return success;
        names = new Set([...(names ?? []), ...termNames]);
      }
      if (names && names.size === 0) return unresolvable(errReasonConflict);
      return names ? { status: success, nodeNames: names } : success;
    },
    filter(_state, pod, nodeInfo: NodeInfo) {
      return nodeInfo.node && podMatchesNodeSelectorAndAffinity(pod.pod, nodeInfo.node) ? success : unresolvable(errReasonPod);
    },
    preScore(state, pod) {
      const preferred = pod.pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
      if (preferred.length === 0) return skip;
      state.write(preScoreKey, preferred.map((p) => ({ weight: p.weight, term: p.preference })));
      return success;
    },
    score(state, _pod, nodeInfo) {
      let score = 0;
      const node = nodeInfo.node;
      if (!node) return 0;
      for (const p of state.read(preScoreKey) ?? []) if (p.weight !== 0 && termMatches(p.term, node)) score += p.weight;
      return score;
    },
    normalizeScore(_state, _pod, scores) {
      defaultNormalizeScore(maxNodeScore, false, scores);
    },
    eventsToRegister: () => [{
      event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
      hint: (pod, oldObj, newObj) => {
        const next = newObj as DeepReadonly<Node> | undefined;
        if (!next || !podMatchesNodeSelectorAndAffinity(pod, next)) return 'QueueSkip';
        const prev = oldObj as DeepReadonly<Node> | undefined;
        return prev && podMatchesNodeSelectorAndAffinity(pod, prev) ? 'QueueSkip' : 'Queue';
      },
    }],
  }) satisfies Plugin;
