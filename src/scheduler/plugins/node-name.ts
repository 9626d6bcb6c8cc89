// NodeName: a pod with spec.nodeName set before scheduling fits only that node.
// Upstream: pkg/scheduler/framework/plugins/nodename/node_name.go.
import type { Plugin, PluginFactory } from '../framework.ts';
import { ActionType, success, unresolvable } from '../framework.ts';

export const name = 'NodeName';
export const errReason = "node(s) didn't match the requested node name";

export const newNodeName: PluginFactory = () =>
  ({
    name,
    filter(_state, pod, nodeInfo) {
      const want = pod.pod.spec.nodeName;
      return !want || want === nodeInfo.name ? success : unresolvable(errReason);
    },
    eventsToRegister: () => [{ event: { resource: 'Node', actionType: ActionType.Add } }],
  }) satisfies Plugin;
