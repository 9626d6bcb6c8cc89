// PrioritySort: activeQ order, higher priority first, then the earlier queue timestamp.
// Upstream: pkg/scheduler/framework/plugins/queuesort/priority_sort.go.
import type { Plugin, PluginFactory, QueuedPodInfo } from '../framework.ts';

export const name = 'PrioritySort';

export const newPrioritySort: PluginFactory = () =>
  ({
    name,
    less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
      const p1 = a.podInfo.priority;
      const p2 = b.podInfo.priority;
      return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
    },
  }) satisfies Plugin;
