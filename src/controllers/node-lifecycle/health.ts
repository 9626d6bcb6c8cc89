// Node health as the node-lifecycle controller tracks it: when it last heard from the kubelet
// (a new Ready heartbeat or a renewed Lease), and what the Node's conditions become once the grace
// period passes without either. Pure: the controller persists what this returns.
// Upstream: pkg/controller/nodelifecycle/node_lifecycle_controller.go (tryUpdateNodeHealth).
import type { Lease, Node, NodeCondition } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { formatTime } from '../../core/index.ts';

export interface NodeHealth {
  /** When the controller last saw a sign of life (ms, its own clock: immune to skew). */
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  /** The Ready condition as last observed, or undefined if the node had none. */
  ready: DeepReadonly<NodeCondition> | undefined;
  hasStatus: boolean;
  leaseRenewTime: number | undefined;
}

export interface HealthTimings {
  /** nodeMonitorGracePeriod: 50 s since 1.32 (kubernetes/kubernetes#126287). */
  gracePeriodMs: number;
  /** nodeStartupGracePeriod for a node that never posted Ready: 60 s. */
  startupGracePeriodMs: number;
}

export interface HealthAssessment {
  health: NodeHealth;
  /** The Ready condition the node had when assessed (a synthetic Unknown one if it had none). */
  observedReady: DeepReadonly<NodeCondition>;
  /** Conditions to write with an UpdateStatus, when the grace period has passed and Ready changes;
   *  after a successful write, remember healthAfterWrite(health, conditions, now). */
  conditions?: NodeCondition[];
}

const monitoredConditionTypes = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

export const nodeStatusUnknownReason = 'NodeStatusUnknown';
export const nodeStatusUnknownMessage = 'Kubelet stopped posting node status.';
export const nodeStatusNeverUpdatedReason = 'NodeStatusNeverUpdated';
export const nodeStatusNeverUpdatedMessage = 'Kubelet never posted node status.';

const parseTime = (t: string | undefined | null): number => (t ? Date.parse(t) : NaN);

function readyOf(node: DeepReadonly<Node>): DeepReadonly<NodeCondition> | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}

function sameCondition(a: DeepReadonly<NodeCondition>, b: DeepReadonly<NodeCondition>): boolean {
  return (
    a.status === b.status &&
    a.reason === b.reason &&
    a.message === b.message &&
    a.lastHeartbeatTime === b.lastHeartbeatTime &&
    a.lastTransitionTime === b.lastTransitionTime
  );
}

export function assessNodeHealth(
  saved: NodeHealth | undefined,
  node: DeepReadonly<Node>,
  lease: DeepReadonly<Lease> | undefined,
  now: number,
  timings: HealthTimings,
): HealthAssessment {
  const created = parseTime(node.metadata.creationTimestamp);
  const current = readyOf(node);
  let health = saved;
  let grace: number;
  let observedReady: DeepReadonly<NodeCondition>;
  if (!current) {
    // Never posted: measure from creation with the longer startup grace period.
    const at = node.metadata.creationTimestamp ?? formatTime(now);
    observedReady = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: at, lastTransitionTime: at };
    grace = timings.startupGracePeriodMs;
    health = health ? { ...health, ready: undefined, hasStatus: true } : { probeTimestamp: created, readyTransitionTimestamp: created, ready: undefined, hasStatus: true, leaseRenewTime: undefined };
  } else {
    observedReady = current;
    grace = timings.gracePeriodMs;
  }
  const savedReady = saved?.ready;
  const savedLease = saved?.leaseRenewTime;
  const fresh = (): NodeHealth => ({ probeTimestamp: now, readyTransitionTimestamp: now, ready: current, hasStatus: true, leaseRenewTime: undefined });
  if (!health) health = fresh();
  else if (!savedReady && current) health = fresh();
  else if (savedReady && current && savedReady.lastHeartbeatTime !== current.lastHeartbeatTime) {
    const transition = savedReady.lastTransitionTime !== current.lastTransitionTime ? now : health.readyTransitionTimestamp;
    health = { probeTimestamp: now, readyTransitionTimestamp: transition, ready: current, hasStatus: true, leaseRenewTime: undefined };
  }
  // A renewed Lease always counts as a sign of life, even if the kubelet never posts status.
  const renew = parseTime(lease?.spec?.renewTime);
  if (lease && !Number.isNaN(renew) && (savedLease === undefined || savedLease < renew)) {
    health = { ...health, probeTimestamp: now, leaseRenewTime: renew };
  } else {
    health = { ...health, leaseRenewTime: savedLease };
  }
  if (!(now > health.probeTimestamp + grace)) return { health, observedReady };

  const t = formatTime(now);
  const conditions: NodeCondition[] = (node.status?.conditions ?? []).map((c) => ({ ...c }) as NodeCondition);
  for (const type of monitoredConditionTypes) {
    const c = conditions.find((x) => x.type === type);
    if (!c) {
      conditions.push({
        type,
        status: 'Unknown',
        reason: nodeStatusNeverUpdatedReason,
        message: nodeStatusNeverUpdatedMessage,
        ...(node.metadata.creationTimestamp ? { lastHeartbeatTime: node.metadata.creationTimestamp } : {}),
        lastTransitionTime: t,
      });
    } else if (c.status !== 'Unknown') {
      c.status = 'Unknown';
      c.reason = nodeStatusUnknownReason;
      c.message = nodeStatusUnknownMessage;
      c.lastTransitionTime = t;
    }
  }
  const newReady = conditions.find((c) => c.type === 'Ready');
  if (newReady && sameCondition(newReady, observedReady)) return { health, observedReady };
  return { health, observedReady, conditions };
}

/** The health to remember once `conditions` were written: the Ready transition happened now. */
export function healthAfterWrite(health: NodeHealth, conditions: readonly NodeCondition[], now: number): NodeHealth {
  return { ...health, ready: conditions.find((c) => c.type === 'Ready'), readyTransitionTimestamp: now };
}
