// NodeUnschedulable: cordoned nodes (spec.unschedulable) fit only pods tolerating the
// node.kubernetes.io/unschedulable:NoSchedule taint.
// Upstream: pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go.
import type { Node } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import type { Plugin, PluginFactory } from '../framework.ts';
import { ActionType, success, unresolvable } from '../framework.ts';
import { tolerationsTolerateTaint } from './taint-toleration.ts';

export const name = 'NodeUnschedulable';
export const errReasonUnschedulable = 'node(s) were unschedulable';
const unschedulableTaint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' } as const;

export const newNodeUnschedulable: PluginFactory = () =>
  ({
    name,
    filter(_state, pod, nodeInfo) {
      if (!nodeInfo.unschedulable) return success;
      return tolerationsTolerateTaint(pod.pod.spec.tolerations, unschedulableTaint) ? success : unresolvable(errReasonUnschedulable);
    },
    eventsToRegister: () => [
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint },
        hint: (_pod, _old, next) => ((next as DeepReadonly<Node> | undefined)?.spec?.unschedulable ? 'QueueSkip' : 'Queue') },
      { event: { resource: 'UnscheduledPod', actionType: ActionType.UpdatePodToleration } },
    ],
  }) satisfies Plugin;
