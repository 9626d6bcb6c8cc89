// HorizontalPodAutoscaler (autoscaling/v2): defaults, strategy (status split), table and definition.
// Upstream: pkg/apis/autoscaling/v2/defaults.go, pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go,
// pkg/printers/internalversion/printers.go (printHorizontalPodAutoscaler, formatHPAMetrics).
import { fillZeroFields, zeroFields } from '../../empty-objects.ts';
import { canonicalizeQuantityText } from '../../../core/index.ts';
import { keepField } from '../../core/v1/keep-field.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultCPUUtilization, defaultScaleDownRules, defaultScaleUpRules } from './types.ts';
import type { HorizontalPodAutoscaler, HPAScalingRules, MetricSpec, MetricStatus, MetricValueStatus } from './types.ts';
import { validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatusUpdate, validateHorizontalPodAutoscalerUpdate } from './validation.ts';

/** copyHPAScalingRules: the caller's set fields over the defaults. */
function withDefaults(rules: HPAScalingRules | undefined, defaults: HPAScalingRules): HPAScalingRules {
  if (!rules) return defaults;
  return {
    ...defaults,
    ...(rules.selectPolicy !== undefined ? { selectPolicy: rules.selectPolicy } : {}),
    ...(rules.stabilizationWindowSeconds !== undefined ? { stabilizationWindowSeconds: rules.stabilizationWindowSeconds } : {}),
    ...(rules.policies !== undefined ? { policies: rules.policies } : {}),
    ...(rules.tolerance !== undefined ? { tolerance: rules.tolerance } : {}),
  };
}

/** SetDefaults_HorizontalPodAutoscaler: minReplicas 1, 80% CPU when no metrics, behaviour filled in when given. */
export function defaultHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): void {
  // desiredReplicas and currentMetrics have no omitempty: Go writes 0 and null where a writer left them out.
  if (hpa.status) fillZeroFields(hpa.status as unknown as Record<string, unknown>, zeroFields('autoscaling', 'v2', 'HorizontalPodAutoscaler').status);
  const spec = (hpa.spec ??= {} as HorizontalPodAutoscaler['spec']);
  spec.minReplicas ??= 1;
  if (!spec.metrics?.length) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: defaultCPUUtilization } } }];
  }
  if (spec.behavior) {
    spec.behavior.scaleUp = withDefaults(spec.behavior.scaleUp, defaultScaleUpRules());
    spec.behavior.scaleDown = withDefaults(spec.behavior.scaleDown, defaultScaleDownRules());
  }
}

/** Quantity.String() of a wire quantity. */
const quantityText = (q: string | undefined): string => (q === undefined ? '<nil>' : (canonicalizeQuantityText(q) ?? q));
const percent = (v: number | undefined): string | undefined => (v === undefined ? undefined : `${v}%`);

function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  const utilization = (name: string, target: MetricSpec['resource'], current: MetricValueStatus | undefined, present: boolean): string => {
    if (target?.target.averageValue !== undefined) {
      return `${name}: ${present ? quantityText(current?.averageValue) : '<unknown>'}/${quantityText(target.target.averageValue)}`;
    }
    return `${name}: ${percent(current?.averageUtilization) ?? '<unknown>'}/${percent(target?.target.averageUtilization) ?? '<auto>'}`;
  };
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const src = spec.type === 'External' ? spec.external : spec.object;
      const cur = spec.type === 'External' ? status?.external : status?.object;
      if (src?.target.averageValue !== undefined) return `${cur?.current.averageValue !== undefined ? quantityText(cur.current.averageValue) : '<unknown>'}/${quantityText(src.target.averageValue)} (avg)`;
      return `${cur ? quantityText(cur.current.value) : '<unknown>'}/${quantityText(src?.target.value)}`;
    }
    case 'Pods':
      return `${status?.pods ? quantityText(status.pods.current.averageValue) : '<unknown>'}/${quantityText(spec.pods?.target.averageValue)}`;
    case 'Resource':
      return utilization(spec.resource?.name ?? '', spec.resource, status?.resource?.current, status?.resource !== undefined);
    case 'ContainerResource':
      return utilization(spec.containerResource?.name ?? '', spec.containerResource, status?.containerResource?.current, status?.containerResource !== undefined);
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: at most two targets, then `+ N more...`. */
export function formatHPAMetrics(specs: readonly MetricSpec[] | undefined, statuses: readonly MetricStatus[] | undefined): string {
  if (!specs?.length) return '<none>';
  const list = specs.map((s, i) => formatMetric(s, statuses?.[i]));
  const shown = list.slice(0, 2).join(', ');
  return list.length > 2 ? `${shown} + ${list.length - 2} more...` : shown;
}

const hpaTable: TablePrinter<HorizontalPodAutoscaler> = {
  columns: [
    nameColumn,
    column('Reference', 'string', 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.'),
    column('Targets', 'string', 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.'),
    column('MinPods', 'string', 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.'),
    column('MaxPods', 'integer', 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.'),
    column('Replicas', 'integer', 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.'),
    ageColumn,
  ],
  cells: (hpa, now) => [
    hpa.metadata.name ?? '',
    `${hpa.spec.scaleTargetRef?.kind ?? ''}/${hpa.spec.scaleTargetRef?.name ?? ''}`,
    formatHPAMetrics(hpa.spec.metrics, hpa.status?.currentMetrics ?? undefined),
    hpa.spec.minReplicas === undefined ? '<unset>' : String(hpa.spec.minReplicas),
    hpa.spec.maxReplicas ?? 0,
    hpa.status?.currentReplicas ?? 0,
    translateTimestampSince(hpa.metadata.creationTimestamp, now),
  ],
};

export const horizontalPodAutoscalerDefinition: ResourceDefinition<HorizontalPodAutoscaler> = {
  group: 'autoscaling',
  version: 'v2',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultHorizontalPodAutoscaler,
  prepareForCreate(hpa) {
    hpa.status = { desiredReplicas: 0, currentMetrics: null };
  },
  prepareForUpdate(hpa, old, ctx) {
    keepField(hpa, old, ctx.subresource === 'status' ? 'spec' : 'status');
  },
  validateCreate: validateHorizontalPodAutoscaler,
  validateUpdate: validateHorizontalPodAutoscalerUpdate,
  validateStatusUpdate: validateHorizontalPodAutoscalerStatusUpdate,
  table: hpaTable,
};
