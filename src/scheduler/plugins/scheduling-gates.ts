// SchedulingGates: a pod with spec.schedulingGates never enters activeQ; removing the last gate
// requeues it. No attempt, no event, no condition while gated (the API server sets
// PodScheduled=False reason SchedulingGated).
// Upstream: pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go.
import type { Plugin, PluginFactory, PodRO } from '../framework.ts';
import { ActionType, success, unresolvable } from '../framework.ts';

export const name = 'SchedulingGates';

export const newSchedulingGates: PluginFactory = () =>
  ({
    name,
    preEnqueue(pod: PodRO) {
      const gates = pod.spec.schedulingGates ?? [];
      if (gates.length === 0) return success;
      return unresolvable(`waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
    },
    eventsToRegister: () => [{
      event: { resource: 'UnscheduledPod', actionType: ActionType.UpdatePodSchedulingGatesEliminated },
      hint: (pod, _old, next) => ((next as PodRO | undefined)?.metadata.uid === pod.metadata.uid ? 'Queue' : 'QueueSkip'),
    }],
  }) satisfies Plugin;
