// The desired simulated nodes, kept in the API so any client can change them (DESIGN principle 1):
// ConfigMap kube-system/drydock-node-pools holds, per pool, its spec, the names of its nodes and the
// next index; `drydock node add/remove` edit it and the cluster starts or stops kubelets to match.
// A Node annotated sim.drydock.dev/fail: "true" has a failed kubelet (no lease, no status).
import { taintNodeNotReady } from '../api/index.ts';
import type { Node } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { NodePoolConfig } from './config.ts';

export interface PoolsConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export const nodePoolsNamespace = 'kube-system';
export const nodePoolsConfigMap = 'drydock-node-pools';
export const failAnnotation = 'sim.drydock.dev/fail';

export interface PoolState {
  /** The pool as configured, minus its initial count. */
  spec: Omit<NodePoolConfig, 'count'>;
  /** The nodes that should exist, in creation order. */
  nodes: string[];
  /** Index of the next node: names are never reused while a removed node may still be going away. */
  nextIndex: number;
}

export type PoolStates = Map<string, PoolState>;

export function initialPoolState(pool: NodePoolConfig): PoolState {
  const { count, ...spec } = pool;
  return { spec, nodes: Array.from({ length: count }, (_, i) => `${pool.name}-${i}`), nextIndex: count };
}

function isPoolState(v: unknown): v is PoolState {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.spec === 'object' && o.spec !== null && Array.isArray(o.nodes) && o.nodes.every((n) => typeof n === 'string') && typeof o.nextIndex === 'number';
}

/** Reads the ConfigMap's data; entries that do not parse are skipped (and reported). */
export function parsePoolStates(cm: { data?: Readonly<Record<string, string>> } | undefined, onBad?: (pool: string) => void): PoolStates {
  const out: PoolStates = new Map();
  for (const [pool, text] of Object.entries(cm?.data ?? {})) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (isPoolState(value)) out.set(pool, value);
    else onBad?.(pool);
  }
  return out;
}

export function poolStatesData(states: PoolStates): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [pool, state] of states) data[pool] = JSON.stringify(state);
  return data;
}

export function poolStatesConfigMap(states: PoolStates): PoolsConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: nodePoolsConfigMap, namespace: nodePoolsNamespace }, data: poolStatesData(states) };
}

/** Adds `count` nodes to the pool, continuing its index (h100-2, h100-3, ...). */
export function addNodes(state: PoolState, count: number): { state: PoolState; added: string[] } {
  const added = Array.from({ length: count }, (_, i) => `${state.spec.name}-${state.nextIndex + i}`);
  return { state: { ...state, nodes: [...state.nodes, ...added], nextIndex: state.nextIndex + count }, added };
}

/** The pool that has `node`, if any. */
export function poolOf(states: PoolStates, node: string): string | undefined {
  for (const [pool, state] of states) if (state.nodes.includes(node)) return pool;
  return undefined;
}

/**
 * Whether a node takes pods: Ready, and rid of the not-ready taint TaintNodesByCondition gave it at
 * creation (the node controller lifts it once it sees Ready). What `drydock up`'s ready line and
 * `drydock node add` wait for, so a pod created next schedules at once.
 */
export function isNodeUp(node: Node): boolean {
  const ready = node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  return ready && !(node.spec?.taints ?? []).some((t) => t.key === taintNodeNotReady && t.effect === 'NoSchedule');
}
