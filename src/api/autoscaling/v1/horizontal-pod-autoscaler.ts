// autoscaling/v1 HorizontalPodAutoscaler: the CPU-only form `kubectl autoscale` creates, served
// from the autoscaling/v2 storage and converted both ways, as upstream does. What v1 cannot
// express (other metrics, conditions, current metrics) rides in the upstream annotations.
// Upstream: pkg/apis/autoscaling/v1/conversion.go.
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { horizontalPodAutoscalerDefinition as v2 } from '../v2/horizontal-pod-autoscaler.ts';
import type { CrossVersionObjectReference, HorizontalPodAutoscaler as HpaV2, MetricSpec, MetricStatus } from '../v2/types.ts';

export interface HorizontalPodAutoscalerV1 extends KubeObject {
  apiVersion?: 'autoscaling/v1';
  kind?: 'HorizontalPodAutoscaler';
  metadata: ObjectMeta;
  spec: { scaleTargetRef: CrossVersionObjectReference; minReplicas?: number; maxReplicas: number; targetCPUUtilizationPercentage?: number };
  status?: { observedGeneration?: number; lastScaleTime?: string; currentReplicas?: number; desiredReplicas: number; currentCPUUtilizationPercentage?: number };
}

const metricsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
const currentMetricsAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';

function isCpuUtilization(m: MetricSpec): boolean {
  return m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target.type === 'Utilization';
}

function parseAnnotation<T>(meta: ObjectMeta, key: string): T | undefined {
  const text = meta.annotations?.[key];
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export function hpaV1ToV2(hpa: HorizontalPodAutoscalerV1): HpaV2 {
  const annotations = { ...hpa.metadata.annotations };
  const others = parseAnnotation<MetricSpec[]>(hpa.metadata, metricsAnnotation) ?? [];
  const conditions = parseAnnotation<NonNullable<HpaV2['status']>['conditions']>(hpa.metadata, conditionsAnnotation);
  const currentOthers = parseAnnotation<MetricStatus[]>(hpa.metadata, currentMetricsAnnotation) ?? [];
  const behavior = parseAnnotation<HpaV2['spec']['behavior']>(hpa.metadata, behaviorAnnotation);
  for (const key of [metricsAnnotation, conditionsAnnotation, currentMetricsAnnotation, behaviorAnnotation]) delete annotations[key];
  const metrics: MetricSpec[] = [...others];
  if (hpa.spec?.targetCPUUtilizationPercentage !== undefined) {
    metrics.unshift({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: hpa.spec.targetCPUUtilizationPercentage } } });
  }
  const spec: HpaV2['spec'] = { scaleTargetRef: hpa.spec?.scaleTargetRef, maxReplicas: hpa.spec?.maxReplicas };
  if (hpa.spec?.minReplicas !== undefined) spec.minReplicas = hpa.spec.minReplicas;
  if (metrics.length > 0) spec.metrics = metrics;
  if (behavior) spec.behavior = behavior;
  const out: HpaV2 = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { ...hpa.metadata, annotations }, spec };
  if (Object.keys(annotations).length === 0) delete out.metadata.annotations;
  if (hpa.status) {
    const { currentCPUUtilizationPercentage, currentReplicas, ...rest } = hpa.status;
    const currentMetrics: MetricStatus[] = [...currentOthers];
    if (currentCPUUtilizationPercentage !== undefined) currentMetrics.unshift({ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: currentCPUUtilizationPercentage } } });
    // v2's currentReplicas is omitempty and its currentMetrics is not.
    out.status = { ...rest, ...(currentReplicas ? { currentReplicas } : {}), currentMetrics: currentMetrics.length ? currentMetrics : null, ...(conditions ? { conditions } : {}) };
  }
  return out;
}

export function hpaV2ToV1(hpa: HpaV2): HorizontalPodAutoscalerV1 {
  const annotations: Record<string, string> = { ...hpa.metadata.annotations };
  const metrics = hpa.spec?.metrics ?? [];
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  if (others.length > 0) annotations[metricsAnnotation] = JSON.stringify(others);
  if (hpa.spec?.behavior) annotations[behaviorAnnotation] = JSON.stringify(hpa.spec.behavior);
  const spec: HorizontalPodAutoscalerV1['spec'] = { scaleTargetRef: hpa.spec?.scaleTargetRef, maxReplicas: hpa.spec?.maxReplicas };
  if (hpa.spec?.minReplicas !== undefined) spec.minReplicas = hpa.spec.minReplicas;
  if (cpu?.resource?.target.averageUtilization !== undefined) spec.targetCPUUtilizationPercentage = cpu.resource.target.averageUtilization;
  const out: HorizontalPodAutoscalerV1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { ...hpa.metadata }, spec };
  const { currentMetrics, conditions, ...rest } = hpa.status ?? { desiredReplicas: 0 };
  const currentCpu = currentMetrics?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
  const currentOthers = (currentMetrics ?? []).filter((m) => m !== currentCpu);
  if (currentOthers.length > 0) annotations[currentMetricsAnnotation] = JSON.stringify(currentOthers);
  if (conditions?.length) annotations[conditionsAnnotation] = JSON.stringify(conditions);
  // v1's currentReplicas and desiredReplicas have no omitempty (v2's currentReplicas has): Go writes 0.
  out.status = { ...rest, currentReplicas: rest.currentReplicas ?? 0, desiredReplicas: rest.desiredReplicas ?? 0 };
  const utilization = currentCpu?.resource?.current.averageUtilization;
  if (utilization !== undefined) out.status.currentCPUUtilizationPercentage = utilization;
  if (Object.keys(annotations).length > 0) out.metadata.annotations = annotations;
  else delete out.metadata.annotations;
  return out;
}

const table: TablePrinter<HorizontalPodAutoscalerV1> = {
  columns: v2.table?.columns ?? [],
  cells: (hpa, now) => v2.table?.cells(hpaV1ToV2(hpa), now) ?? [],
};

export const horizontalPodAutoscalerV1Definition: ResourceDefinition<HorizontalPodAutoscalerV1> = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'HorizontalPodAutoscaler',
  resource: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults(hpa) {
    hpa.spec ??= { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 };
    hpa.spec.minReplicas ??= 1;
  },
  prepareForCreate(hpa) {
    hpa.status = { desiredReplicas: 0 };
  },
  prepareForUpdate(hpa, old, ctx) {
    if (ctx.subresource === 'status') hpa.spec = old.spec;
    else if (old.status) hpa.status = old.status;
    else delete hpa.status;
  },
  validateCreate: (hpa, ctx) => v2.validateCreate?.(hpaV1ToV2(hpa), ctx) ?? [],
  validateUpdate: (hpa, old, ctx) => v2.validateUpdate?.(hpaV1ToV2(hpa), hpaV1ToV2(old), ctx) ?? [],
  validateStatusUpdate: (hpa, old, ctx) => v2.validateStatusUpdate?.(hpaV1ToV2(hpa), hpaV1ToV2(old), ctx) ?? [],
  table,
  storedAs: {
    group: 'autoscaling',
    resource: 'horizontalpodautoscalers',
    toStored: (hpa) => hpaV1ToV2(hpa),
    fromStored: (obj) => hpaV2ToV1(obj as HpaV2),
  },
};
