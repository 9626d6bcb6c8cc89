// Deployment (apps/v1): wire types, defaults, strategy (status split), validation and table.
// Upstream: staging/src/k8s.io/api/apps/v1/types.go, pkg/apis/apps/v1/defaults.go,
// pkg/registry/apps/deployment/strategy.go, pkg/apis/apps/validation/validation.go.
import { FieldPath, invalidValue, forbiddenField, notSupported, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { Condition, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { PodTemplateSpec } from '../../core/v1/pod.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, containersColumn, imagesColumn, layoutContainerCells, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import {
  defaultPodTemplate,
  isDeepEqual,
  validateImmutable,
  validateObjectMetaCreate,
  validateObjectMetaUpdate,
} from '../../workload-template.ts';
import { selectorString } from './selector.ts';
import {
  intOrPercentValue,
  isNotMoreThan100Percent,
  validateNonnegative,
  validateSelectedTemplate,
  validatePositiveIntOrPercent,
  validateWorkloadSelector,
} from './workload-validation.ts';
import type { IntOrString } from './workload-validation.ts';

export type DeploymentStrategyType = 'Recreate' | 'RollingUpdate';

export interface RollingUpdateDeployment {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DeploymentStrategy {
  type?: DeploymentStrategyType;
  rollingUpdate?: RollingUpdateDeployment;
}

export interface DeploymentSpec {
  replicas?: number;
  /** Required on create; optional here because clients may omit it and validation says so. */
  selector?: LabelSelector;
  template: PodTemplateSpec;
  strategy?: DeploymentStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export const DeploymentConditionType = {
  Available: 'Available',
  Progressing: 'Progressing',
  ReplicaFailure: 'ReplicaFailure',
} as const;
export type DeploymentConditionType = (typeof DeploymentConditionType)[keyof typeof DeploymentConditionType];

export interface DeploymentCondition extends Condition {
  type: DeploymentConditionType | (string & {});
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  /** Beta in 1.35 (DeploymentReplicaSetTerminatingReplicas). */
  terminatingReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'Deployment';
  metadata: ObjectMeta;
  spec: DeploymentSpec;
  status?: DeploymentStatus;
}

/** Label added to ReplicaSets and pods so revisions never share pods. */
export const DefaultDeploymentUniqueLabelKey = 'pod-template-hash';

/** SetDefaults_Deployment plus the pod template's defaults. */
export function defaultDeployment(d: Deployment): void {
  const spec = (d.spec ??= { template: { spec: { containers: [] } } });
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultPodTemplate((spec.template ??= { spec: { containers: [] } }));
}

function validateRollingUpdateDeployment(ru: RollingUpdateDeployment, path: FieldPath): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, path.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(ru.maxSurge, path.child('maxSurge')),
  ];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(invalidValue(path.child('maxUnavailable'), ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, path.child('maxUnavailable')));
  return errs;
}

function validateDeploymentStrategy(strategy: DeploymentStrategy, path: FieldPath): FieldError[] {
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate
        ? [forbiddenField(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")]
        : [];
    case 'RollingUpdate':
      return strategy.rollingUpdate
        ? validateRollingUpdateDeployment(strategy.rollingUpdate, path.child('rollingUpdate'))
        : [required(path.child('rollingUpdate'), 'this should be defaulted and never be nil')];
    default:
      return [notSupported(path, strategy, ['Recreate', 'RollingUpdate'])];
  }
}

/** ValidateDeploymentSpec. */
export function validateDeploymentSpec(spec: DeploymentSpec, path: FieldPath): FieldError[] {
  const errs = validateNonnegative(spec.replicas, path.child('replicas'));
  errs.push(...validateWorkloadSelector(spec.selector, path.child('selector')));
  errs.push(...validateSelectedTemplate(spec.template, spec.selector, path));
  errs.push(...validateDeploymentStrategy(spec.strategy ?? {}, path.child('strategy')));
  errs.push(...validateNonnegative(spec.minReadySeconds, path.child('minReadySeconds')));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  if (spec.progressDeadlineSeconds !== undefined) {
    errs.push(...validateNonnegative(spec.progressDeadlineSeconds, path.child('progressDeadlineSeconds')));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
      errs.push(invalidValue(path.child('progressDeadlineSeconds'), spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** ValidateDeploymentStatus. */
export function validateDeploymentStatus(status: DeploymentStatus, path: FieldPath): FieldError[] {
  const n = (v: number | undefined): number => v ?? 0;
  const errs: FieldError[] = [];
  for (const f of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'] as const) {
    errs.push(...validateNonnegative(status[f], path.child(f)));
  }
  const msg = 'cannot be greater than status.replicas';
  if (n(status.updatedReplicas) > n(status.replicas)) errs.push(invalidValue(path.child('updatedReplicas'), n(status.updatedReplicas), msg));
  if (n(status.readyReplicas) > n(status.replicas)) errs.push(invalidValue(path.child('readyReplicas'), n(status.readyReplicas), msg));
  if (n(status.availableReplicas) > n(status.replicas)) errs.push(invalidValue(path.child('availableReplicas'), n(status.availableReplicas), msg));
  if (n(status.availableReplicas) > n(status.readyReplicas)) {
    errs.push(invalidValue(path.child('availableReplicas'), n(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}

/** IsDecremented: a collision count may never go down or be cleared. */
export function validateCollisionCountNotDecremented(next: number | undefined, prev: number | undefined, path: FieldPath): FieldError[] {
  if (prev === undefined) return [];
  if (next === undefined || next < prev) return [invalidValue(path, next ?? 0, 'cannot be decremented')];
  return [];
}

const root = FieldPath.root;

export const deploymentTable: TablePrinter<Deployment> = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'string', 'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.', 1),
  ],
  cells(d, now) {
    const [names, images] = layoutContainerCells(d.spec.template?.spec?.containers);
    return [
      d.metadata.name ?? '',
      `${d.status?.readyReplicas ?? 0}/${d.spec.replicas ?? 0}`,
      d.status?.updatedReplicas ?? 0,
      d.status?.availableReplicas ?? 0,
      translateTimestampSince(d.metadata.creationTimestamp, now),
      names,
      images,
      selectorString(d.spec.selector),
    ];
  },
};

export const deploymentDefinition: ResourceDefinition<Deployment> = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  resource: 'deployments',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  defaults: defaultDeployment,
  prepareForCreate(d) {
    d.status = {};
  },
  prepareForUpdate(d, old, ctx) {
    if (ctx.subresource === 'status') {
      d.spec = old.spec;
      if (old.metadata.labels) d.metadata.labels = old.metadata.labels;
      else delete d.metadata.labels;
      return;
    }
    if (old.status) d.status = old.status;
    else delete d.status;
    // Annotations are copied to ReplicaSets, so upstream bumps the generation for them too;
    // the server handles the spec-change bump.
    if (!isDeepEqual(d.metadata.annotations, old.metadata.annotations)) {
      d.metadata.generation = (old.metadata.generation ?? 0) + 1;
    }
  },
  validateCreate(d) {
    return [...validateObjectMetaCreate(d.metadata, true, root('metadata')), ...validateDeploymentSpec(d.spec, root('spec'))];
  },
  validateUpdate(d, old) {
    return [
      ...validateObjectMetaUpdate(d.metadata, old.metadata, root('metadata')),
      ...validateDeploymentSpec(d.spec, root('spec')),
      ...validateImmutable(d.spec.selector, old.spec.selector, root('spec').child('selector')),
    ];
  },
  validateStatusUpdate(d, old) {
    const status = d.status ?? {};
    return [
      ...validateObjectMetaUpdate(d.metadata, old.metadata, root('metadata')),
      ...validateDeploymentStatus(status, root('status')),
      ...validateCollisionCountNotDecremented(status.collisionCount, old.status?.collisionCount, root('status').child('collisionCount')),
    ];
  },
  table: deploymentTable,
};
