// StatefulSet (apps/v1): wire types, defaults, strategy (status split), validation and table.
// Upstream: staging/src/k8s.io/api/apps/v1/types.go, pkg/apis/apps/v1/defaults.go (SetDefaults_StatefulSet,
// with MaxUnavailableStatefulSet beta and on in 1.35), pkg/registry/apps/statefulset/strategy.go,
// pkg/apis/apps/validation/validation.go (ValidateStatefulSet*), printers.go (printStatefulSet).
import { FieldPath, GoSyntax, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { Condition, FieldError, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { PersistentVolumeClaim } from '../../core/v1/persistent-volume-claim.ts';
import type { PodTemplateSpec } from '../../core/v1/pod.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, containersColumn, imagesColumn, layoutContainerCells, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultPodTemplate, isDeepEqual, validateObjectMetaCreate, validateObjectMetaUpdate } from '../../workload-template.ts';
import { validateCollisionCountNotDecremented } from './deployment.ts';
import { intOrPercentValue, isNotMoreThan100Percent, validateNonnegative, validatePositiveIntOrPercent, validateSelectedTemplate, validateWorkloadSelector } from './workload-validation.ts';
import type { IntOrString } from './workload-validation.ts';

export interface RollingUpdateStatefulSetStrategy {
  partition?: number;
  maxUnavailable?: IntOrString;
}

export interface StatefulSetUpdateStrategy {
  type?: 'RollingUpdate' | 'OnDelete';
  rollingUpdate?: RollingUpdateStatefulSetStrategy;
}

export type PersistentVolumeClaimRetentionPolicyType = 'Retain' | 'Delete';

export interface StatefulSetSpec {
  replicas?: number;
  selector?: LabelSelector;
  template: PodTemplateSpec;
  volumeClaimTemplates?: PersistentVolumeClaim[];
  /** No omitempty in Go: reads back "" when unset. */
  serviceName?: string;
  podManagementPolicy?: 'OrderedReady' | 'Parallel';
  updateStrategy?: StatefulSetUpdateStrategy;
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
  persistentVolumeClaimRetentionPolicy?: { whenDeleted?: PersistentVolumeClaimRetentionPolicyType; whenScaled?: PersistentVolumeClaimRetentionPolicyType };
  ordinals?: { start?: number };
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  conditions?: Condition[];
  availableReplicas: number;
}

export interface StatefulSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'StatefulSet';
  metadata: ObjectMeta;
  spec: StatefulSetSpec;
  status?: StatefulSetStatus;
}

export const StatefulSetPodNameLabel = 'statefulset.kubernetes.io/pod-name';
export const PodIndexLabel = 'apps.kubernetes.io/pod-index';

/** SetDefaults_StatefulSet plus the pod template's defaults. */
export function defaultStatefulSet(sts: StatefulSet): void {
  const spec = (sts.spec ??= { template: { spec: { containers: [] } } });
  spec.podManagementPolicy ||= 'OrderedReady';
  const strategy = (spec.updateStrategy ??= {});
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) {
    strategy.rollingUpdate.partition ??= 0;
    strategy.rollingUpdate.maxUnavailable ??= 1;
  }
  const retention = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  retention.whenDeleted ||= 'Retain';
  retention.whenScaled ||= 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.serviceName ??= '';
  defaultPodTemplate((spec.template ??= { spec: { containers: [] } }));
}

function validateUpdateStrategy(strategy: StatefulSetUpdateStrategy, path: FieldPath): FieldError[] {
  const ru = strategy.rollingUpdate;
  switch (strategy.type) {
    case undefined:
      return [required(path, '')];
    case 'OnDelete':
      return ru ? [invalidValue(path.child('rollingUpdate'), new GoSyntax('&apps.RollingUpdateStatefulSetStrategy{...}'), "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate': {
      if (!ru) return [];
      const p = path.child('rollingUpdate');
      const errs = validateNonnegative(ru.partition, p.child('partition'));
      if (ru.maxUnavailable !== undefined) {
        errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, p.child('maxUnavailable')), ...isNotMoreThan100Percent(ru.maxUnavailable, p.child('maxUnavailable')));
        if (intOrPercentValue(ru.maxUnavailable) === 0) errs.push(invalidValue(p.child('maxUnavailable'), ru.maxUnavailable, 'cannot be 0'));
      }
      return errs;
    }
    default:
      return [invalidValue(path, new GoSyntax(`apps.StatefulSetUpdateStrategy{Type:${JSON.stringify(strategy.type)}, RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}`), "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

/** ValidateStatefulSetSpec. */
export function validateStatefulSetSpec(spec: StatefulSetSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (!policy) errs.push(required(path.child('podManagementPolicy'), ''));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(invalidValue(path.child('podManagementPolicy'), policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...validateUpdateStrategy(spec.updateStrategy ?? {}, path.child('updateStrategy')));
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  for (const f of ['whenDeleted', 'whenScaled'] as const) {
    const v = retention?.[f];
    if (v !== undefined && v !== 'Retain' && v !== 'Delete') errs.push(notSupported(path.child('persistentVolumeClaimRetentionPolicy', f), v, ['Retain', 'Delete']));
  }
  errs.push(...validateNonnegative(spec.replicas, path.child('replicas')), ...validateNonnegative(spec.minReadySeconds, path.child('minReadySeconds')));
  if (spec.ordinals) errs.push(...validateNonnegative(spec.ordinals.start, path.child('ordinals.start')));
  errs.push(
    ...validateWorkloadSelector(spec.selector, path.child('selector')).map((e) => (e.detail === 'empty selector is invalid for deployment' ? { ...e, detail: 'empty selector is invalid for statefulset' } : e)),
  );
  // The template checks as the replicated kinds run them, in the StatefulSet's words, with the
  // claim templates counted as volumes (the pods mount them under those names).
  errs.push(
    ...validateSelectedTemplate(withClaimVolumes(spec), spec.selector, path).map((e) =>
      e.detail === 'activeDeadlineSeconds in ReplicaSet is not Supported' ? forbiddenField(e.field, 'activeDeadlineSeconds in StatefulSet is not Supported') : e,
    ),
  );
  return errs;
}

function withClaimVolumes(spec: StatefulSetSpec): PodTemplateSpec {
  const claims = (spec.volumeClaimTemplates ?? []).map((c) => c.metadata?.name ?? '');
  if (claims.length === 0 || !spec.template?.spec) return spec.template;
  const volumes = (spec.template.spec.volumes ?? []).filter((v) => !claims.includes(v.name));
  for (const name of claims) volumes.push({ name, persistentVolumeClaim: { claimName: name } });
  return { ...spec.template, spec: { ...spec.template.spec, volumes } };
}

const mutableSpecFields = ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy'] as const;

/** ValidateStatefulSetUpdate: everything else in the spec is fixed at creation. */
function validateSpecUpdate(spec: StatefulSetSpec, old: StatefulSetSpec, path: FieldPath): FieldError[] {
  const a: Record<string, unknown> = { ...spec };
  const b: Record<string, unknown> = { ...old };
  for (const f of mutableSpecFields) {
    delete a[f];
    delete b[f];
  }
  if (isDeepEqual(a, b)) return [];
  return [forbiddenField(path, "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
}

/** ValidateStatefulSetStatus. */
export function validateStatefulSetStatus(status: Partial<StatefulSetStatus>, path: FieldPath): FieldError[] {
  const n = (v: number | undefined): number => v ?? 0;
  const errs = (['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'] as const).flatMap((f) => validateNonnegative(status[f], path.child(f)));
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas'] as const) if (n(status[f]) > n(status.replicas)) errs.push(invalidValue(path.child(f), n(status[f]), msg));
  if (n(status.availableReplicas) > n(status.readyReplicas)) errs.push(invalidValue(path.child('availableReplicas'), n(status.availableReplicas), 'cannot be greater than status.readyReplicas'));
  return errs;
}

const root = FieldPath.root;

export const statefulSetTable: TablePrinter<StatefulSet> = {
  columns: [nameColumn, column('Ready', 'string', 'Number of the pod with ready state'), ageColumn, containersColumn, imagesColumn],
  cells(sts, now) {
    const [names, images] = layoutContainerCells(sts.spec.template?.spec?.containers);
    return [sts.metadata.name ?? '', `${sts.status?.readyReplicas ?? 0}/${sts.spec.replicas ?? 0}`, translateTimestampSince(sts.metadata.creationTimestamp, now), names, images];
  },
};

export const emptyStatefulSetStatus = (): StatefulSetStatus => ({ replicas: 0, availableReplicas: 0 });

export const statefulSetDefinition: ResourceDefinition<StatefulSet> = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  resource: 'statefulsets',
  singular: 'statefulset',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  subresources: [
    { name: 'status', verbs: ['get', 'patch', 'update'] },
    { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  defaults: defaultStatefulSet,
  prepareForCreate(sts) {
    sts.status = emptyStatefulSetStatus();
  },
  prepareForUpdate(sts, old, ctx) {
    if (ctx.subresource === 'status') {
      sts.spec = old.spec;
      return;
    }
    sts.status = old.status ?? emptyStatefulSetStatus();
  },
  validateCreate(sts) {
    return [...validateObjectMetaCreate(sts.metadata, true, root('metadata')), ...validateStatefulSetSpec(sts.spec, root('spec'))];
  },
  validateUpdate(sts, old) {
    return [
      ...validateObjectMetaUpdate(sts.metadata, old.metadata, root('metadata')),
      ...validateStatefulSetSpec(sts.spec, root('spec')),
      ...validateSpecUpdate(sts.spec, old.spec, root('spec')),
    ];
  },
  validateStatusUpdate(sts, old) {
    const status = sts.status ?? emptyStatefulSetStatus();
    return [
      ...validateObjectMetaUpdate(sts.metadata, old.metadata, root('metadata')),
      ...validateStatefulSetStatus(status, root('status')),
      ...validateCollisionCountNotDecremented(status.collisionCount, old.status?.collisionCount, root('status').child('collisionCount')),
    ];
  },
  table: statefulSetTable,
};
