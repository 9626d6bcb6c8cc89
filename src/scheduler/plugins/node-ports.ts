// NodePorts: a pod's hostPorts must be free on the node (0.0.0.0 conflicts with every address).
// Upstream: pkg/scheduler/framework/plugins/nodeports/node_ports.go, framework/types.go (HostPortInfo).
import type { Plugin, PluginFactory } from '../framework.ts';
import { ActionType, skip, success, unschedulable } from '../framework.ts';
import type { HostPort, NodeInfo } from '../node-info.ts';

export const name = 'NodePorts';
export const errReason = "node(s) didn't have free ports for the requested pod ports";

export function fitsPorts(want: readonly HostPort[], nodeInfo: NodeInfo): boolean {
  if (nodeInfo.usedPorts.size === 0) return true;
  for (const w of want) {
    if (w.ip === '0.0.0.0') {
      const suffix = `|${w.protocol}|${w.port}`;
      for (const k of nodeInfo.usedPorts.keys()) if (k.endsWith(suffix)) return false;
    } else if (nodeInfo.usedPorts.has(`${w.ip}|${w.protocol}|${w.port}`) || nodeInfo.usedPorts.has(`0.0.0.0|${w.protocol}|${w.port}`)) {
      return false;
    }
  }
  return true;
}

export const newNodePorts: PluginFactory = () =>
  ({
    name,
    preFilter: (_state, pod) => (pod.hostPorts.length === 0 ? skip : success),
    filter: (_state, pod, nodeInfo) => (fitsPorts(pod.hostPorts, nodeInfo) ? success : unschedulable(errReason)),
    eventsToRegister: () => [
      { event: { resource: 'AssignedPod', actionType: ActionType.Delete } },
      { event: { resource: 'Node', actionType: ActionType.Add } },
    ],
  }) satisfies Plugin;
