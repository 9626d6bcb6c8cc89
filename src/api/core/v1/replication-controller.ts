// ReplicationController (core/v1): the ReplicaSet's predecessor, still served and still run by
// kube-controller-manager's replication manager. Its selector is a plain label map, defaulted from
// the template's labels, and it may change; its status and Scale are a ReplicaSet's.
// Upstream: pkg/apis/core/v1/defaults.go (SetDefaults_ReplicationController),
// pkg/apis/core/validation/validation.go (ValidateReplicationController*, ValidatePodTemplateSpecForRC),
// pkg/registry/core/replicationcontroller/strategy.go, pkg/printers/internalversion/printers.go.
import { FieldPath, forbiddenField, formatLabels, notSupported, required, selectorFromSet } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import { fillZeroFields, zeroFields } from '../../empty-objects.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, containersColumn, imagesColumn, layoutContainerCells, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultPodTemplate, goStringMap, invalidGoValue, validateObjectMetaCreate, validateObjectMetaUpdate, validatePodTemplate } from '../../workload-template.ts';
import { validateNonnegative } from '../../apps/v1/workload-validation.ts';
import { validateReplicaSetStatus } from '../../apps/v1/replica-set.ts';
import type { ReplicaSetStatus } from '../../apps/v1/replica-set.ts';
import type { PodTemplateSpec } from './pod.ts';

export interface ReplicationControllerSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: Record<string, string>;
  template?: PodTemplateSpec;
}

/** A ReplicaSet's status without terminatingReplicas, which only apps/v1 carries. */
export type ReplicationControllerStatus = Omit<ReplicaSetStatus, 'terminatingReplicas'>;

export interface ReplicationController extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ReplicationController';
  metadata: ObjectMeta;
  spec: ReplicationControllerSpec;
  status?: ReplicationControllerStatus;
}

/** SetDefaults_ReplicationController: selector and labels from the template's labels, one replica. */
export function defaultReplicationController(rc: ReplicationController): void {
  const spec = (rc.spec ??= {});
  const labels = spec.template?.metadata?.labels;
  if (labels) {
    if (Object.keys(spec.selector ?? {}).length === 0) spec.selector = { ...labels };
    if (Object.keys(rc.metadata.labels ?? {}).length === 0) rc.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  if (spec.template) defaultPodTemplate(spec.template);
  if (rc.status) fillZeroFields(rc.status as Record<string, unknown>, zeroFields('', 'v1', 'ReplicationController').status);
}

/** ValidatePodTemplateSpecForRC: a template the selector matches, restarting Always, with no deadline. */
function validateTemplateForRC(template: PodTemplateSpec | undefined, selector: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  if (!template) return [required(path, '')];
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  const selects = selectorFromSet(selector);
  if (!selects.empty && !selects.matches(labels)) {
    errs.push(invalidGoValue(path.child('metadata', 'labels'), labels ?? null, goStringMap(labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplate(template, path));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(notSupported(path.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(forbiddenField(path.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

/** ValidateReplicationControllerSpec. Unlike a ReplicaSet's, the selector may change on update. */
export function validateReplicationControllerSpec(spec: ReplicationControllerSpec, path: FieldPath): FieldError[] {
  return [
    ...validateNonnegative(spec.minReadySeconds, path.child('minReadySeconds')),
    ...(Object.keys(spec.selector ?? {}).length === 0 ? [required(path.child('selector'), '')] : []),
    ...validateNonnegative(spec.replicas, path.child('replicas')),
    ...validateTemplateForRC(spec.template, spec.selector, path.child('template')),
  ];
}

const root = FieldPath.root;

const replicationControllerTable: TablePrinter<ReplicationController> = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller'),
    column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', 'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  cells(rc, now) {
    const [names, images] = layoutContainerCells(rc.spec.template?.spec?.containers);
    return [
      rc.metadata.name ?? '',
      rc.spec.replicas ?? 0,
      rc.status?.replicas ?? 0,
      rc.status?.readyReplicas ?? 0,
      translateTimestampSince(rc.metadata.creationTimestamp, now),
      names,
      images,
      formatLabels(rc.spec.selector),
    ];
  },
};

export const replicationControllerDefinition: ResourceDefinition<ReplicationController> = {
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  resource: 'replicationcontrollers',
  singular: 'replicationcontroller',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  defaults: defaultReplicationController,
  prepareForCreate(rc) {
    rc.status = { replicas: 0 };
  },
  prepareForUpdate(rc, old, ctx) {
    if (ctx.subresource === 'status') {
      rc.spec = old.spec;
      return;
    }
    if (old.status) rc.status = old.status;
    else delete rc.status;
  },
  validateCreate: (rc) => [...validateObjectMetaCreate(rc.metadata, true, root('metadata')), ...validateReplicationControllerSpec(rc.spec, root('spec'))],
  validateUpdate: (rc, old) => [...validateObjectMetaUpdate(rc.metadata, old.metadata, root('metadata')), ...validateReplicationControllerSpec(rc.spec, root('spec'))],
  validateStatusUpdate: (rc, old) => [...validateObjectMetaUpdate(rc.metadata, old.metadata, root('metadata')), ...validateReplicaSetStatus(rc.status ?? {}, root('status'))],
  table: replicationControllerTable,
  fieldLabels: {
    'status.replicas': (rc) => String(rc.status?.replicas ?? 0),
  },
};
