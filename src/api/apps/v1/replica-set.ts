// ReplicaSet (apps/v1): wire types, defaults, strategy (status split), validation and table.
// Upstream: staging/src/k8s.io/api/apps/v1/types.go, pkg/registry/apps/replicaset/strategy.go,
// pkg/apis/apps/validation/validation.go (ValidateReplicaSet*).
import { fillZeroFields, zeroFields } from '../../empty-objects.ts';
import { FieldPath, invalidValue } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { Condition, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { PodTemplateSpec } from '../../core/v1/pod.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, containersColumn, imagesColumn, layoutContainerCells, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultPodTemplate, validateImmutable, validateObjectMetaCreate, validateObjectMetaUpdate } from '../../workload-template.ts';
import { formatLabelSelector } from './selector.ts';
import { validateNonnegative, validateSelectedTemplate, validateWorkloadSelector } from './workload-validation.ts';

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelector;
  template?: PodTemplateSpec;
}

export interface ReplicaSetCondition extends Condition {
  type: 'ReplicaFailure' | (string & {});
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  terminatingReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

export interface ReplicaSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'ReplicaSet';
  metadata: ObjectMeta;
  spec: ReplicaSetSpec;
  status?: ReplicaSetStatus;
}

/** SetDefaults_ReplicaSet plus the pod template's defaults. */
export function defaultReplicaSet(rs: ReplicaSet): void {
  const spec = (rs.spec ??= {});
  spec.replicas ??= 1;
  // Go defaults the (non-pointer) template even when the client sent none.
  defaultPodTemplate((spec.template ??= { spec: { containers: [] } }));
  // status.replicas is the one count without omitempty: Go writes 0 where a writer left it out.
  if (rs.status) fillZeroFields(rs.status as Record<string, unknown>, zeroFields('apps', 'v1', 'ReplicaSet').status);
}

/** ValidateReplicaSetSpec. */
export function validateReplicaSetSpec(spec: ReplicaSetSpec, path: FieldPath): FieldError[] {
  const errs = [
    ...validateNonnegative(spec.replicas, path.child('replicas')),
    ...validateNonnegative(spec.minReadySeconds, path.child('minReadySeconds')),
    ...validateWorkloadSelector(spec.selector, path.child('selector')),
  ];
  errs.push(...validateSelectedTemplate(spec.template ?? { spec: { containers: [] } }, spec.selector, path));
  return errs;
}

/** ValidateReplicaSetStatus. */
export function validateReplicaSetStatus(status: ReplicaSetStatus, path: FieldPath): FieldError[] {
  const n = (v: number | undefined): number => v ?? 0;
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'] as const) {
    errs.push(...validateNonnegative(status[f], path.child(f)));
  }
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const) {
    if (n(status[f]) > n(status.replicas)) errs.push(invalidValue(path.child(f), n(status[f]), msg));
  }
  if (n(status.availableReplicas) > n(status.readyReplicas)) {
    errs.push(invalidValue(path.child('availableReplicas'), n(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}

const root = FieldPath.root;

export const replicaSetTable: TablePrinter<ReplicaSet> = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset'),
    column('Current', 'integer', 'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset'),
    column('Ready', 'integer', 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', 'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  cells(rs, now) {
    const [names, images] = layoutContainerCells(rs.spec.template?.spec?.containers);
    return [
      rs.metadata.name ?? '',
      rs.spec.replicas ?? 0,
      rs.status?.replicas ?? 0,
      rs.status?.readyReplicas ?? 0,
      translateTimestampSince(rs.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(rs.spec.selector),
    ];
  },
};

export const replicaSetDefinition: ResourceDefinition<ReplicaSet> = {
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  resource: 'replicasets',
  singular: 'replicaset',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  defaults: defaultReplicaSet,
  prepareForCreate(rs) {
    rs.status = { replicas: 0 };
  },
  prepareForUpdate(rs, old, ctx) {
    if (ctx.subresource === 'status') {
      rs.spec = old.spec;
      return;
    }
    if (old.status) rs.status = old.status;
    else delete rs.status;
  },
  validateCreate(rs) {
    return [...validateObjectMetaCreate(rs.metadata, true, root('metadata')), ...validateReplicaSetSpec(rs.spec, root('spec'))];
  },
  validateUpdate(rs, old) {
    return [
      ...validateObjectMetaUpdate(rs.metadata, old.metadata, root('metadata')),
      ...validateReplicaSetSpec(rs.spec, root('spec')),
      ...validateImmutableSelector(rs, old),
    ];
  },
  validateStatusUpdate(rs, old) {
    return [
      ...validateObjectMetaUpdate(rs.metadata, old.metadata, root('metadata')),
      ...validateReplicaSetStatus(rs.status ?? {}, root('status')),
    ];
  },
  table: replicaSetTable,
  fieldLabels: {
    'status.replicas': (rs) => String(rs.status?.replicas ?? 0),
  },
};

function validateImmutableSelector(rs: ReplicaSet, old: ReplicaSet): FieldError[] {
  return validateImmutable(rs.spec.selector, old.spec.selector, root('spec').child('selector'));
}
