// Where a pod's gang comes from: the 1.35 Workload API (spec.workloadRef) or, in the `volcano`
// profile, Volcano's PodGroup named by the pod's group-name annotation. Both resolve to a gang
// key, a policy (minCount or none) and the upstream reason when the policy is not there yet.
// Upstream: pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go (podGroupPolicy,
// matchingWorkloadReference); volcano-sh/apis pkg/apis/scheduling/v1beta1/labels.go (annotation keys).
import type { ResourceRef, Workload } from '../../api/index.ts';
import { podGroupPolicy, refs } from '../../api/index.ts';
import type { Informer } from '../../client/index.ts';
import type { KubeObject } from '../../core/index.ts';
import type { PodRO } from '../framework.ts';

/** Volcano's KubeGroupNameAnnotationKey and its VolcanoGroupNameAnnotationKey alias. */
export const volcanoGroupNameAnnotation = 'scheduling.k8s.io/group-name';
export const volcanoGroupNameAnnotationAlias = 'scheduling.volcano.sh/group-name';
export const volcanoSchedulerName = 'volcano';
export const volcanoPodGroups: ResourceRef = Object.freeze({ group: 'scheduling.volcano.sh', version: 'v1beta1', resource: 'podgroups' });

export interface VolcanoPodGroup extends KubeObject {
  spec?: { minMember?: number; queue?: string; minTaskMember?: Record<string, number> };
  status?: { phase?: string; running?: number; succeeded?: number; failed?: number; conditions?: unknown[] };
}

/** What the plugin needs to know about a pod's group right now. */
export type GangLookup =
  | { kind: 'none' }
  | { kind: 'missing'; reason: string; error: string }
  | { kind: 'basic' }
  | { kind: 'gang'; minCount: number };

export interface GangGroups {
  /** The gang key of a pod (namespace, group and replica key), or undefined when it has none. */
  keyOf(pod: PodRO): string | undefined;
  lookup(pod: PodRO): GangLookup;
  /** Informers the lookups read, to check hasSynced. */
  readonly informers: readonly Informer<KubeObject>[];
}

function workloadKey(pod: PodRO): string | undefined {
  const ref = pod.spec.workloadRef;
  if (!ref) return undefined;
  return `workload/${pod.metadata.namespace ?? ''}/${ref.name}/${ref.podGroup}/${ref.podGroupReplicaKey ?? ''}`;
}

export function volcanoGroupName(pod: PodRO): string | undefined {
  const a = pod.metadata.annotations;
  return a?.[volcanoGroupNameAnnotation] || a?.[volcanoGroupNameAnnotationAlias] || undefined;
}

export function newGangGroups(workloads: Informer<Workload>, podGroups: Informer<VolcanoPodGroup> | undefined): GangGroups {
  const keyOf = (pod: PodRO): string | undefined => {
    const k = workloadKey(pod);
    if (k || !podGroups) return k;
    const g = volcanoGroupName(pod);
    return g ? `volcano/${pod.metadata.namespace ?? ''}/${g}` : undefined;
  };
  const lookup = (pod: PodRO): GangLookup => {
    const ns = pod.metadata.namespace ?? '';
    const ref = pod.spec.workloadRef;
    if (ref) {
      const w = workloads.getByName(ns, ref.name);
      if (!w) {
        return { kind: 'missing', reason: `waiting for pods's workload "${ref.name}" to appear in scheduling queue`, error: `failed to get workload ${ns}/${ref.name}` };
      }
      const policy = podGroupPolicy(w, ref.podGroup);
      if (!policy) {
        const msg = `pod group "${ref.podGroup}" doesn't exist for a workload "${ref.name}"`;
        return { kind: 'missing', reason: msg, error: msg };
      }
      return policy.gang ? { kind: 'gang', minCount: policy.gang.minCount } : { kind: 'basic' };
    }
    const group = podGroups ? volcanoGroupName(pod) : undefined;
    if (!podGroups || !group) return { kind: 'none' };
    const pg = podGroups.getByName(ns, group);
    // Drydock's wording, after the Workload message: Volcano leaves such pods Pending silently.
    if (!pg) return { kind: 'missing', reason: `waiting for pods's podgroup "${group}" to appear in scheduling queue`, error: `failed to get podgroup ${ns}/${group}` };
    const min = pg.spec?.minMember ?? 0;
    return min > 1 ? { kind: 'gang', minCount: min } : { kind: 'basic' };
  };
  return { keyOf, lookup, informers: [workloads as unknown as Informer<KubeObject>, ...(podGroups ? [podGroups as unknown as Informer<KubeObject>] : [])] };
}

export const workloadsRef = refs.workloads;
