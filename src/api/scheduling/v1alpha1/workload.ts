// Workload (scheduling.k8s.io/v1alpha1, KEP-4671, alpha in 1.35): the pod groups and their
// scheduling policy (gang minCount or basic) that the GangScheduling plugin enforces for pods
// naming the Workload in spec.workloadRef. Namespaced, no status, immutable podGroups.
// Upstream: staging/src/k8s.io/api/scheduling/v1alpha1/types.go (Workload),
// pkg/apis/scheduling/validation/validation.go (ValidateWorkload, ValidateWorkloadUpdate).
// No printer is registered upstream, so the server's default table (Name, Created At) applies.
import { FieldPath, duplicate, invalidValue, required, tooMany } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition } from '../../resource.ts';
import { isDNS1123Subdomain, isValidPathSegmentName, nameIsDNSLabel, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';

export interface TypedLocalObjectReference {
  apiGroup?: string;
  kind: string;
  name: string;
}

export interface GangSchedulingPolicy {
  minCount: number;
}

/** BasicSchedulingPolicy has no fields. */
export type BasicSchedulingPolicy = Record<string, never>;

/** Exactly one of basic | gang. */
export interface PodGroupPolicy {
  basic?: BasicSchedulingPolicy;
  gang?: GangSchedulingPolicy;
}

export interface PodGroup {
  name: string;
  policy: PodGroupPolicy;
}

export interface WorkloadSpec {
  controllerRef?: TypedLocalObjectReference;
  podGroups: PodGroup[];
}

export interface Workload extends KubeObject {
  apiVersion?: 'scheduling.k8s.io/v1alpha1';
  kind?: 'Workload';
  metadata: ObjectMeta;
  spec: WorkloadSpec;
}

export const workloadMaxPodGroups = 8;

function validateControllerRef(ref: TypedLocalObjectReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (ref.apiGroup) for (const msg of isDNS1123Subdomain(ref.apiGroup)) errs.push(invalidValue(path.child('apiGroup'), ref.apiGroup, msg));
  for (const field of ['kind', 'name'] as const) {
    const v = ref[field] ?? '';
    if (v === '') errs.push(required(path.child(field)));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalidValue(path.child(field), v, msg));
  }
  return errs;
}

function validatePodGroupPolicy(policy: PodGroupPolicy | undefined, path: FieldPath): FieldError[] {
  const set: string[] = [];
  if (policy?.basic) set.push('`basic`');
  if (policy?.gang) set.push('`gang`');
  if (set.length === 0) return [required(path, 'exactly one of `basic`, `gang` is required')];
  if (set.length > 1) return [invalidValue(path, `{${set.join(', ')}}`, 'exactly one of `basic`, `gang` is required, but multiple fields are set')];
  const gang = policy?.gang;
  if (gang && !((gang.minCount ?? 0) > 0)) return [invalidValue(path.child('gang', 'minCount'), gang.minCount ?? 0, 'must be greater than zero')];
  return [];
}

function validateWorkloadSpec(spec: WorkloadSpec | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec?.controllerRef) errs.push(...validateControllerRef(spec.controllerRef, path.child('controllerRef')));
  const groups = spec?.podGroups ?? [];
  const groupsPath = path.child('podGroups');
  if (groups.length === 0) errs.push(required(groupsPath, 'must have at least one item'));
  else if (groups.length > workloadMaxPodGroups) errs.push(tooMany(groupsPath, groups.length, workloadMaxPodGroups));
  else {
    const seen = new Set<string>();
    groups.forEach((g, i) => {
      const p = groupsPath.index(i);
      const name = g.name ?? '';
      for (const msg of nameIsDNSLabel(name, false)) errs.push(invalidValue(p.child('name'), name, msg));
      if (seen.has(name)) errs.push(duplicate(p.child('name'), name));
      else seen.add(name);
      errs.push(...validatePodGroupPolicy(g.policy, p.child('policy')));
    });
  }
  return errs;
}

export function validateWorkload(w: Workload): FieldError[] {
  return [...validateObjectMeta(w.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateWorkloadSpec(w.spec, FieldPath.root('spec'))];
}

export function validateWorkloadUpdate(w: Workload, old: Workload): FieldError[] {
  const errs = [...validateObjectMetaUpdate(w.metadata, old.metadata), ...validateWorkloadSpec(w.spec, FieldPath.root('spec'))];
  // Upstream roots these two paths at the object, not at spec (validateWorkloadSpecUpdate).
  if (old.spec?.controllerRef) errs.push(...validateImmutableField(w.spec?.controllerRef, old.spec.controllerRef, 'controllerRef'));
  errs.push(...validateImmutableField(w.spec?.podGroups, old.spec?.podGroups, 'podGroups'));
  return errs;
}

/** The policy of a pod group, or undefined when the Workload has no such group (podGroupPolicy). */
export function podGroupPolicy(w: { readonly spec?: { readonly podGroups?: readonly { readonly name: string; readonly policy: PodGroupPolicy }[] } }, podGroup: string): PodGroupPolicy | undefined {
  return w.spec?.podGroups?.find((g) => g.name === podGroup)?.policy;
}

export const workloadDefinition: ResourceDefinition<Workload> = {
  group: 'scheduling.k8s.io',
  version: 'v1alpha1',
  kind: 'Workload',
  resource: 'workloads',
  singular: 'workload',
  namespaced: true,
  hasStatus: false,
  validateCreate: validateWorkload,
  validateUpdate: validateWorkloadUpdate,
  patchMeta: {
    fields: {
      spec: { fields: { podGroups: { listType: 'map', listMapKeys: ['name'] }, controllerRef: { mapType: 'atomic' } } },
    },
  },
};
