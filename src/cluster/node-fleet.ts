// Adapts the simulated kubelets (kubelet/SimulatedNodes) to the NodeFleet the node-pool controller
// drives: nodes added and removed at run time, failed and healed.
import type { SimulatedNodes } from '../kubelet/index.ts';
import type { NodeFleet } from './node-pool-controller.ts';

export function simulatedNodeFleet(nodes: SimulatedNodes): NodeFleet {
  return {
    has: (name) => nodes.kubelet(name) !== undefined,
    names: () => nodes.kubelets.map((k) => k.name),
    add: async (pool, name) => {
      await nodes.addNode(pool, name);
    },
    remove: (name) => {
      nodes.removeNode(name);
    },
    fail: (name) => nodes.kubelet(name)?.agent.fail(),
    heal: (name) => nodes.kubelet(name)?.agent.heal(),
  };
}
