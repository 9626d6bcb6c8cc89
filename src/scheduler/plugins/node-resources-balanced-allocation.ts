// NodeResourcesBalancedAllocation: prefers nodes whose cpu and memory use stay balanced after
// placing the pod (1 - standard deviation of the requested fractions). Skips best-effort pods.
// Upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go.
import type { Plugin, PluginFactory } from '../framework.ts';
import { maxNodeScore, skip, success } from '../framework.ts';
import type { AllocationScorer, ResourceSpec } from './node-resources-fit.ts';
import { allocationScore, defaultResources, podRequestFor } from './node-resources-fit.ts';

export const name = 'NodeResourcesBalancedAllocation';

// Two passes over the inputs instead of a fractions list: this runs once per scored node.
export function balancedResourceScorer(requested: readonly number[], allocatable: readonly number[]): number {
  let total = 0;
  let count = 0;
  let first = 0;
  let second = 0;
  for (let i = 0; i < requested.length; i++) {
    const cap = allocatable[i] ?? 0;
    if (cap === 0) continue;
    const f = Math.min((requested[i] ?? 0) / cap, 1);
    total += f;
    if (count === 0) first = f;
    else if (count === 1) second = f;
    count++;
  }
  let std = 0;
  if (count === 2) std = Math.abs((first - second) / 2);
  else if (count > 2) {
    const mean = total / count;
    let sum = 0;
    for (let i = 0; i < requested.length; i++) {
      const cap = allocatable[i] ?? 0;
      if (cap === 0) continue;
      const f = Math.min((requested[i] ?? 0) / cap, 1);
      sum += (f - mean) * (f - mean);
    }
    std = Math.sqrt(sum / count);
  }
  return Math.trunc((1 - std) * maxNodeScore);
}

export const newBalancedAllocation: PluginFactory = (raw) => {
  const resources = Array.isArray(raw.resources) && raw.resources.length > 0 ? (raw.resources as ResourceSpec[]) : defaultResources;
  const scorer: AllocationScorer = { resources, useRequested: true, scorer: balancedResourceScorer };
  return {
    name,
    preScore(_state, pod) {
      for (const r of resources) if (podRequestFor(scorer, pod, r.name) > 0) return success;
      return skip;
    },
    score(_state, pod, nodeInfo) {
      return allocationScore(scorer, pod, nodeInfo);
    },
  } satisfies Plugin;
};
