// NodeResourcesBalancedAllocation: prefers nodes whose cpu and memory use stay balanced after
// placing the pod (1 - standard deviation of the requested fractions). Skips best-effort pods.
// Upstream: pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go.
import type { Plugin, PluginFactory } from '../framework.ts';
import { maxNodeScore, skip, success } from '../framework.ts';
import type { AllocationScorer, ResourceSpec } from './node-resources-fit.ts';
import { allocationScore, defaultResources, podRequestFor } from './node-resources-fit.ts';

export const name = 'NodeResourcesBalancedAllocation';

export function balancedResourceScorer(requested: readonly number[], allocatable: readonly number[]): number {
  const fractions: number[] = [];
  let total = 0;
  for (let i = 0; i < requested.length; i++) {
    const cap = allocatable[i] ?? 0;
    if (cap === 0) continue;
    const f = Math.min((requested[i] ?? 0) / cap, 1);
    total += f;
    fractions.push(f);
  }
  let std = 0;
  if (fractions.length === 2) std = Math.abs(((fractions[0] ?? 0) - (fractions[1] ?? 0)) / 2);
  else if (fractions.length > 2) {
    const mean = total / fractions.length;
    let sum = 0;
    for (const f of fractions) sum += (f - mean) * (f - mean);
    std = Math.sqrt(sum / fractions.length);
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
