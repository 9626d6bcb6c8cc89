// PriorityClass (scheduling.k8s.io/v1): wire types, defaults, validation (reserved system-
// names, immutable value and preemption policy), table, and the two built-in system classes.
// Upstream: staging/src/k8s.io/api/scheduling/v1/types.go, pkg/apis/scheduling/v1/defaults.go,
// pkg/apis/scheduling/v1/helpers.go (SystemPriorityClasses), pkg/apis/scheduling/validation/validation.go,
// printers.go (printPriorityClass).
import { forbiddenField, notSupported, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { PreemptionPolicy } from '../../core/v1/pod/types.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';

export interface PriorityClass extends KubeObject {
  apiVersion?: 'scheduling.k8s.io/v1';
  kind?: 'PriorityClass';
  metadata: ObjectMeta;
  /** Required on the wire; a missing value is Go's zero, as upstream decodes it. */
  value: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: PreemptionPolicy;
}

export const systemPriorityClassPrefix = 'system-';
export const highestUserDefinablePriority = 1_000_000_000;
export const systemCriticalPriority = 2 * highestUserDefinablePriority;
export const systemClusterCritical = 'system-cluster-critical';
export const systemNodeCritical = 'system-node-critical';

/** SystemPriorityClasses: what the API server creates at startup. */
export function systemPriorityClasses(): PriorityClass[] {
  return [
    {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: systemNodeCritical },
      value: systemCriticalPriority + 1000,
      description: 'Used for system critical pods that must not be moved from their current node.',
    },
    {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: systemClusterCritical },
      value: systemCriticalPriority,
      description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
    },
  ];
}

/** IsKnownSystemPriorityClass: undefined when known, else the upstream error text. */
export function knownSystemPriorityClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const spc = systemPriorityClasses().find((c) => c.metadata.name === name);
  if (!spc) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${name} PriorityClass must be ${spc.value}`;
  if ((spc.globalDefault ?? false) !== globalDefault) return `globalDefault of ${name} PriorityClass must be ${spc.globalDefault ?? false}`;
  return undefined;
}

export function defaultPriorityClass(pc: PriorityClass): void {
  if (pc.value === undefined) pc.value = 0;
  if (pc.preemptionPolicy === undefined) pc.preemptionPolicy = 'PreemptLowerPriority';
}

export function validatePreemptionPolicy(policy: string, path: string): FieldError[] {
  if (policy === 'PreemptLowerPriority' || policy === 'Never') return [];
  if (policy === '') return [required(path)];
  return [notSupported(path, policy, ['PreemptLowerPriority', 'Never'])];
}

export function validatePriorityClass(pc: PriorityClass): FieldError[] {
  const errs = validateObjectMeta(pc.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const name = pc.metadata.name ?? '';
  if (name.startsWith(systemPriorityClassPrefix)) {
    const problem = knownSystemPriorityClassError(name, pc.value, pc.globalDefault ?? false);
    if (problem) {
      errs.push(forbiddenField('metadata.name', `priority class names with '${systemPriorityClassPrefix}' prefix are reserved for system use only. error: ${problem}`));
    }
  } else if (pc.value > highestUserDefinablePriority) {
    errs.push(forbiddenField('value', `maximum allowed value of a user defined priority is ${highestUserDefinablePriority}`));
  }
  if (pc.preemptionPolicy !== undefined) errs.push(...validatePreemptionPolicy(pc.preemptionPolicy, 'preemptionPolicy'));
  return errs;
}

export function validatePriorityClassUpdate(pc: PriorityClass, old: PriorityClass): FieldError[] {
  const errs = validateObjectMetaUpdate(pc.metadata, old.metadata);
  if (pc.value !== old.value) errs.push(forbiddenField('value', 'may not be changed in an update.'));
  errs.push(...validateImmutableField(pc.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'));
  return errs;
}

const priorityClassTable: TablePrinter<PriorityClass> = {
  columns: [
    nameColumn,
    column(
      'Value',
      'integer',
      'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
    ),
    column(
      'Global-Default',
      'boolean',
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
    ),
    ageColumn,
    column('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.'),
  ],
  cells: (pc, now) => [pc.metadata.name ?? '', pc.value, pc.globalDefault ?? false, translateTimestampSince(pc.metadata.creationTimestamp, now), pc.preemptionPolicy ?? ''],
};

export const priorityClassDefinition: ResourceDefinition<PriorityClass> = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  resource: 'priorityclasses',
  singular: 'priorityclass',
  namespaced: false,
  shortNames: ['pc'],
  hasStatus: false,
  defaults: defaultPriorityClass,
  validateCreate: validatePriorityClass,
  validateUpdate: validatePriorityClassUpdate,
  table: priorityClassTable,
};
