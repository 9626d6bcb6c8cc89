// PodDisruptionBudget (policy/v1): wire types, strategy (status split), validation and table.
// The disruption controller fills the status; evictions read it.
// Upstream: staging/src/k8s.io/api/policy/v1/types.go, pkg/registry/policy/poddisruptionbudget/strategy.go,
// pkg/apis/policy/validation/validation.go (ValidatePodDisruptionBudget*), printers.go.
import { FieldPath, invalidValue, notSupported } from '../../../core/index.ts';
import type { FieldError, Condition, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import { isNotMoreThan100Percent, validateNonnegative, validatePositiveIntOrPercent } from '../../apps/v1/workload-validation.ts';
import type { IntOrString } from '../../apps/v1/workload-validation.ts';
import { keepField } from '../../core/v1/keep-field.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { validateLabelSelectorStrict } from '../../workload-template.ts';

export type UnhealthyPodEvictionPolicy = 'IfHealthyBudget' | 'AlwaysAllow';

export interface PodDisruptionBudgetSpec {
  minAvailable?: IntOrString;
  selector?: LabelSelector;
  maxUnavailable?: IntOrString;
  unhealthyPodEvictionPolicy?: UnhealthyPodEvictionPolicy;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pod name -> time the eviction was processed. */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

export interface PodDisruptionBudget extends KubeObject {
  apiVersion?: 'policy/v1';
  kind?: 'PodDisruptionBudget';
  metadata: ObjectMeta;
  spec?: PodDisruptionBudgetSpec;
  status?: PodDisruptionBudgetStatus;
}

/** The condition the disruption controller keeps (DisruptionAllowed) and its reasons. */
export const DisruptionAllowedCondition = 'DisruptionAllowed';
export const SufficientPodsReason = 'SufficientPods';
export const InsufficientPodsReason = 'InsufficientPods';
export const SyncFailedReason = 'SyncFailed';

const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];
const emptyStatus = (): PodDisruptionBudgetStatus => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });

export function validatePodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(invalidValue(path, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const field of ['minAvailable', 'maxUnavailable'] as const) {
    const v = spec[field];
    if (v === undefined) continue;
    errs.push(...validatePositiveIntOrPercent(v, path.child(field)), ...isNotMoreThan100Percent(v, path.child(field)));
  }
  errs.push(...validateLabelSelectorStrict(spec.selector, path.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !evictionPolicies.includes(policy)) errs.push(notSupported(path.child('unhealthyPodEvictionPolicy'), policy, evictionPolicies));
  return errs;
}

function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  return [
    ...validateObjectMeta(pdb.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }),
    ...validatePodDisruptionBudgetSpec(pdb.spec ?? {}, FieldPath.root('spec')),
  ];
}

function validateStatusUpdate(pdb: PodDisruptionBudget, old: PodDisruptionBudget): FieldError[] {
  const errs = validateObjectMetaUpdate(pdb.metadata, old.metadata);
  const status = pdb.status ?? emptyStatus();
  const path = FieldPath.root('status');
  for (const field of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    errs.push(...validateNonnegative(status[field], path.child(field)));
  }
  return errs;
}

/** IntOrString.String(), or N/A when unset. */
const intOrStringCell = (v: IntOrString | undefined): string => (v === undefined ? 'N/A' : String(v));

const pdbTable: TablePrinter<PodDisruptionBudget> = {
  columns: [
    nameColumn,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn,
  ],
  cells: (pdb, now) => [
    pdb.metadata.name ?? '',
    intOrStringCell(pdb.spec?.minAvailable),
    intOrStringCell(pdb.spec?.maxUnavailable),
    pdb.status?.disruptionsAllowed ?? 0,
    translateTimestampSince(pdb.metadata.creationTimestamp, now),
  ],
};

export const podDisruptionBudgetDefinition: ResourceDefinition<PodDisruptionBudget> = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  resource: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  namespaced: true,
  shortNames: ['pdb'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  prepareForCreate(pdb) {
    pdb.status = emptyStatus();
  },
  prepareForUpdate(pdb, old, ctx) {
    keepField(pdb, old, ctx.subresource === 'status' ? 'spec' : 'status');
  },
  validateCreate: validatePodDisruptionBudget,
  validateUpdate: (pdb, old) => [...validateObjectMetaUpdate(pdb.metadata, old.metadata), ...validatePodDisruptionBudgetSpec(pdb.spec ?? {}, FieldPath.root('spec'))],
  validateStatusUpdate: validateStatusUpdate,
  table: pdbTable,
};
