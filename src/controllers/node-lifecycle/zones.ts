// Zone disruption policy: how unhealthy a zone is, and how fast NoExecute taints may be added there.
// When every zone is fully disrupted the controller assumes its own connectivity is the problem
// and stops tainting (and removes the NoExecute taints it added).
// Upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (ComputeZoneState,
// HealthyQPSFunc, ReducedQPSFunc, handleDisruption), component-helpers/node/topology (GetZoneKey).
import type { DeepReadonly } from '../../core/index.ts';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface DisruptionSettings {
  /** --node-eviction-rate (default 0.1 nodes/s). */
  evictionLimiterQPS: number;
  /** --secondary-node-eviction-rate (default 0.01). */
  secondaryEvictionLimiterQPS: number;
  /** --large-cluster-size-threshold (default 50). */
  largeClusterThreshold: number;
  /** --unhealthy-zone-threshold (default 0.55). */
  unhealthyZoneThreshold: number;
}

export const defaultDisruptionSettings: DisruptionSettings = {
  evictionLimiterQPS: 0.1,
  secondaryEvictionLimiterQPS: 0.01,
  largeClusterThreshold: 50,
  unhealthyZoneThreshold: 0.55,
};

/** GetZoneKey: region and zone labels joined with ":\x00:" ("" when neither is set). */
export function zoneKey(labels: DeepReadonly<Record<string, string>> | undefined): string {
  const region = labels?.['topology.kubernetes.io/region'] ?? labels?.['failure-domain.beta.kubernetes.io/region'] ?? '';
  const zone = labels?.['topology.kubernetes.io/zone'] ?? labels?.['failure-domain.beta.kubernetes.io/zone'] ?? '';
  if (region === '' && zone === '') return '';
  return `${region}:\x00:${zone}`;
}

/** ComputeZoneState over the zone's Ready statuses (undefined: the node has no Ready condition). */
export function computeZoneState(readyStatuses: readonly (string | undefined)[], settings: DisruptionSettings): { unhealthy: number; state: ZoneState } {
  let ready = 0;
  let notReady = 0;
  for (const s of readyStatuses) {
    if (s === 'True') ready++;
    else notReady++;
  }
  if (ready === 0 && notReady > 0) return { unhealthy: notReady, state: 'FullDisruption' };
  if (notReady > 2 && notReady / (notReady + ready) >= settings.unhealthyZoneThreshold) return { unhealthy: notReady, state: 'PartialDisruption' };
  return { unhealthy: notReady, state: 'Normal' };
}

/** setLimiterInZone: the tainting rate (nodes per second) for a zone in `state`. */
export function zoneTaintingQPS(state: ZoneState, zoneSize: number, settings: DisruptionSettings): number {
  switch (state) {
    case 'Initial':
    case 'Normal':
    case 'FullDisruption':
      return settings.evictionLimiterQPS;
    case 'PartialDisruption':
      return zoneSize > settings.largeClusterThreshold ? settings.secondaryEvictionLimiterQPS : 0;
    default: {
      const never: never = state;
      throw new Error(`unknown zone state ${String(never)}`);
    }
  }
}
