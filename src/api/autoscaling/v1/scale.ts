// Scale (autoscaling/v1): what the /scale subresource of Deployments, ReplicaSets and StatefulSets
// speaks, and the helpers that view a workload as one and write a Scale back.
// Upstream: staging/src/k8s.io/api/autoscaling/v1/types.go, pkg/registry/apps/deployment/storage/storage.go
// (scaleFromDeployment, scaleUpdatedObjectInfo).
import type { KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';

export interface ScaleSpec {
  replicas?: number;
}

export interface ScaleStatus {
  replicas: number;
  /** The label selector in its string form (`app=web,tier in (a,b)`). */
  selector?: string;
}

export interface Scale extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'Scale';
  metadata: ObjectMeta;
  spec?: ScaleSpec;
  status?: ScaleStatus;
}

/** Where a workload keeps the three values a Scale shows; JSON paths are dot-separated. */
export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  /** Path to a LabelSelector object (Deployment) or a selector string (CRD scale). */
  labelSelectorPath?: string;
}

export const workloadScalePaths: ScalePaths = {
  specReplicasPath: 'spec.replicas',
  statusReplicasPath: 'status.replicas',
  labelSelectorPath: 'spec.selector',
};

function get(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function set(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = obj;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (typeof next !== 'object' || next === null) cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1] ?? ''] = value;
}

/** metav1.LabelSelectorAsSelector(...).String(): sorted by key, set values sorted. */
export function selectorToString(selector: LabelSelector | undefined): string {
  if (!selector) return '';
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) reqs.push({ key: k, text: `${k}=${v}` });
  for (const e of selector.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    const text =
      e.operator === 'In' ? `${e.key} in (${values})` : e.operator === 'NotIn' ? `${e.key} notin (${values})` : e.operator === 'Exists' ? e.key : `!${e.key}`;
    reqs.push({ key: e.key, text });
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.text).join(',');
}

/** The Scale view of a workload, carrying its identity and resourceVersion for a later write. */
export function toScale(obj: KubeObject, paths: ScalePaths = workloadScalePaths): Scale {
  const m = obj.metadata;
  const metadata: ObjectMeta = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) if (m[k] !== undefined) metadata[k] = m[k];
  const replicas = get(obj, paths.specReplicasPath);
  const statusReplicas = get(obj, paths.statusReplicasPath);
  const rawSelector = paths.labelSelectorPath ? get(obj, paths.labelSelectorPath) : undefined;
  const selector = typeof rawSelector === 'string' ? rawSelector : selectorToString(rawSelector as LabelSelector | undefined);
  const status: ScaleStatus = { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 };
  if (selector) status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: typeof replicas === 'number' ? { replicas } : {},
    status,
  };
}

/** A copy of the workload with the Scale's desired replicas written at specReplicasPath. */
export function applyScale<T extends KubeObject>(obj: T, scale: Scale, paths: ScalePaths = workloadScalePaths): T {
  const copy = structuredClone(obj);
  set(copy as Record<string, unknown>, paths.specReplicasPath, scale.spec?.replicas ?? 0);
  return copy;
}
