// NodeAffinity: spec.nodeSelector and required node affinity filter nodes; preferred terms
// add their weights to the score. metadata.name matchFields narrow PreFilter to those nodes.
// Upstream: pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go,
// staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
import type { Node, NodeSelectorTerm } from '../../api/index.ts';
import { podMatchesNodeSelectorAndAffinity, termMatches } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import type { Plugin, PluginFactory } from '../framework.ts';
import { ActionType, maxNodeScore, skip, stateKey, success, unresolvable } from '../framework.ts';
import type { NodeInfo } from '../node-info.ts';
import { defaultNormalizeScore } from './normalize.ts';

export const name = 'NodeAffinity';
export const errReasonPod = "node(s) didn't match Pod's node affinity/selector";
export const errReasonConflict = 'pod affinity terms conflict';

type Term = DeepReadonly<NodeSelectorTerm>;

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
