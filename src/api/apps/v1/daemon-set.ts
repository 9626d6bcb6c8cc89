// DaemonSet (apps/v1): wire types, defaults, strategy (status split, the template generation kept
// in the deprecated annotation apps/v1 stores it in), validation and table.
// Upstream: staging/src/k8s.io/api/apps/v1/types.go, pkg/apis/apps/v1/defaults.go (SetDefaults_DaemonSet),
// pkg/apis/apps/v1/conversion.go (templateGeneration), pkg/registry/apps/daemonset/strategy.go,
// pkg/apis/apps/validation/validation.go (ValidateDaemonSet*), printers.go (printDaemonSet).
import { FieldPath, GoSyntax, formatLabels, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { Condition, FieldError, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { PodTemplateSpec } from '../../core/v1/pod.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, containersColumn, imagesColumn, layoutContainerCells, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultPodTemplate, isDeepEqual, validateImmutable, validateObjectMetaCreate, validateObjectMetaUpdate } from '../../workload-template.ts';
import { validateCollisionCountNotDecremented } from './deployment.ts';
import { selectorString } from './selector.ts';
import { intOrPercentValue, isNotMoreThan100Percent, validateNonnegative, validatePositiveIntOrPercent, validateSelectedTemplate, validateWorkloadSelector } from './workload-validation.ts';
import type { IntOrString } from './workload-validation.ts';

export interface RollingUpdateDaemonSet {
  maxUnavailable?: IntOrString;
  maxSurge?: IntOrString;
}

export interface DaemonSetUpdateStrategy {
  type?: 'RollingUpdate' | 'OnDelete';
  rollingUpdate?: RollingUpdateDaemonSet;
}

export interface DaemonSetSpec {
  selector?: LabelSelector;
  template: PodTemplateSpec;
  updateStrategy?: DaemonSetUpdateStrategy;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
  conditions?: Condition[];
}

export interface DaemonSet extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'DaemonSet';
  metadata: ObjectMeta;
  spec: DaemonSetSpec;
  status?: DaemonSetStatus;
}

/** Where apps/v1 keeps the internal spec.templateGeneration; the controller labels pods with it. */
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';
export const DefaultDaemonSetUniqueLabelKey = 'controller-revision-hash';
export const DaemonSetTemplateGenerationKey = 'pod-template-generation';

/** The status a DaemonSet starts with: its four counts have no omitempty. */
export const emptyDaemonSetStatus = (): DaemonSetStatus => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });

/** SetDefaults_DaemonSet plus the pod template's defaults. */
export function defaultDaemonSet(ds: DaemonSet): void {
  const spec = (ds.spec ??= { template: { spec: { containers: [] } } });
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultPodTemplate((spec.template ??= { spec: { containers: [] } }));
}

function validateRollingUpdateDaemonSet(ru: RollingUpdateDaemonSet, path: FieldPath): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, path.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(ru.maxSurge, path.child('maxSurge')),
    ...isNotMoreThan100Percent(ru.maxUnavailable, path.child('maxUnavailable')),
    ...isNotMoreThan100Percent(ru.maxSurge, path.child('maxSurge')),
  ];
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalidValue(path.child('maxSurge'), ru.maxSurge ?? 0, 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(path.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errs;
}

function validateUpdateStrategy(strategy: DaemonSetUpdateStrategy, path: FieldPath): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      return strategy.rollingUpdate ? validateRollingUpdateDaemonSet(strategy.rollingUpdate, path.child('rollingUpdate')) : [required(path.child('rollingUpdate'), '')];
    default: {
      const rollingUpdate = strategy.rollingUpdate ? '&apps.RollingUpdateDaemonSet{...}' : '(*apps.RollingUpdateDaemonSet)(nil)';
      return [notSupported(path, new GoSyntax(`&apps.DaemonSetUpdateStrategy{Type:${JSON.stringify(strategy.type ?? '')}, RollingUpdate:${rollingUpdate}}`), ['RollingUpdate', 'OnDelete'])];
    }
  }
}

/** ValidateDaemonSetSpec. */
export function validateDaemonSetSpec(spec: DaemonSetSpec, path: FieldPath): FieldError[] {
  const errs = validateWorkloadSelector(spec.selector, path.child('selector')).map((e) =>
    e.detail === 'empty selector is invalid for deployment' ? { ...e, detail: 'empty selector is invalid for daemonset' } : e,
  );
  errs.push(...validateSelectedTemplate(spec.template, spec.selector, path).map((e) => (e.detail === 'activeDeadlineSeconds in ReplicaSet is not Supported' ? invalidValue(e.field, spec.template.spec?.activeDeadlineSeconds, 'activeDeadlineSeconds in DaemonSet is not Supported') : e)));
  errs.push(...validateNonnegative(spec.minReadySeconds, path.child('minReadySeconds')));
  errs.push(...validateUpdateStrategy(spec.updateStrategy ?? {}, path.child('updateStrategy')));
  errs.push(...validateNonnegative(spec.revisionHistoryLimit, path.child('revisionHistoryLimit')));
  return errs;
}

/** ValidateDaemonSetStatus. */
export function validateDaemonSetStatus(status: Partial<DaemonSetStatus>, path: FieldPath): FieldError[] {
  const fields = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'] as const;
  return fields.flatMap((f) => validateNonnegative(status[f], path.child(f)));
}

const root = FieldPath.root;

export const daemonSetTable: TablePrinter<DaemonSet> = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/'),
    column('Ready', 'integer', 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
    column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    column('Node Selector', 'string', "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/"),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', 'A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template\'s labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  cells(ds, now) {
    const [names, images] = layoutContainerCells(ds.spec.template?.spec?.containers);
    const s = ds.status;
    return [
      ds.metadata.name ?? '',
      s?.desiredNumberScheduled ?? 0,
      s?.currentNumberScheduled ?? 0,
      s?.numberReady ?? 0,
      s?.updatedNumberScheduled ?? 0,
      s?.numberAvailable ?? 0,
      formatLabels(ds.spec.template?.spec?.nodeSelector),
      translateTimestampSince(ds.metadata.creationTimestamp, now),
      names,
      images,
      selectorString(ds.spec.selector),
    ];
  },
};

function templateGeneration(ds: DaemonSet): number {
  const n = Number(ds.metadata.annotations?.[templateGenerationAnnotation] ?? '');
  return Number.isInteger(n) && n > 0 ? n : 0;
}

function setTemplateGeneration(ds: DaemonSet, generation: number): void {
  ds.metadata.annotations = { ...ds.metadata.annotations, [templateGenerationAnnotation]: String(generation) };
}

export const daemonSetDefinition: ResourceDefinition<DaemonSet> = {
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  resource: 'daemonsets',
  singular: 'daemonset',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultDaemonSet,
  prepareForCreate(ds) {
    ds.status = emptyDaemonSetStatus();
    setTemplateGeneration(ds, Math.max(1, templateGeneration(ds)));
  },
  prepareForUpdate(ds, old, ctx) {
    if (ctx.subresource === 'status') {
      ds.spec = old.spec;
      return;
    }
    ds.status = old.status ?? emptyDaemonSetStatus();
    // The template generation is the server's: kept, and bumped with every template change.
    const generation = templateGeneration(old);
    const changed = !isDeepEqual(ds.spec.template, old.spec.template);
    if (generation > 0 || changed) setTemplateGeneration(ds, changed ? generation + 1 : generation);
  },
  validateCreate(ds) {
    return [...validateObjectMetaCreate(ds.metadata, true, root('metadata')), ...validateDaemonSetSpec(ds.spec, root('spec'))];
  },
  validateUpdate(ds, old) {
    return [
      ...validateObjectMetaUpdate(ds.metadata, old.metadata, root('metadata')),
      ...validateDaemonSetSpec(ds.spec, root('spec')),
      ...validateImmutable(ds.spec.selector, old.spec.selector, root('spec').child('selector')),
    ];
  },
  validateStatusUpdate(ds, old) {
    const status = ds.status ?? emptyDaemonSetStatus();
    return [
      ...validateObjectMetaUpdate(ds.metadata, old.metadata, root('metadata')),
      ...validateDaemonSetStatus(status, root('status')),
      ...validateCollisionCountNotDecremented(status.collisionCount, old.status?.collisionCount, root('status').child('collisionCount')),
    ];
  },
  table: daemonSetTable,
};
