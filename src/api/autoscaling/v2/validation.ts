// Validation of HorizontalPodAutoscaler (autoscaling/v2) with upstream paths and messages.
// Upstream: pkg/apis/autoscaling/validation/validation.go (ValidateHorizontalPodAutoscaler*).
import { FieldPath, forbiddenField, invalidValue, lookupTable, notSupported, parseQuantity, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { isDNS1123Label, isValidPathSegmentName, nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/index.ts';
import { IsNegativeErrorMsg } from '../../validation/index.ts';
import { metricSourceTypes } from './types.ts';
import type { CrossVersionObjectReference, HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec, HPAScalingRules, MetricIdentifier, MetricSpec, MetricTarget } from './types.ts';

export const maxPeriodSeconds = 1800;
export const maxStabilizationWindowSeconds = 3600;

export function validateCrossVersionObjectReference(ref: CrossVersionObjectReference | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['kind', 'name'] as const) {
    const v = ref?.[field] ?? '';
    if (!v) errs.push(required(path.child(field), ''));
    else for (const msg of isValidPathSegmentName(v)) errs.push(invalidValue(path.child(field), v, msg));
  }
  return errs;
}

/** Quantity.Sign() of a wire quantity; 0 for an unparsable one (decoding rejects those first). */
function sign(text: string): number {
  const q = parseQuantity(text);
  if (!q) return 0;
  const n = q.nano ?? q.milli * 1_000_000n;
  return n > 0n ? 1 : n < 0n ? -1 : 0;
}

function validateMetricTarget(t: MetricTarget | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = t?.type ?? '';
  if (!type) errs.push(required(path.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(invalidValue(path.child('type'), type, 'must be either Utilization, Value, or AverageValue'));
  if (t?.value !== undefined && sign(t.value) !== 1) errs.push(invalidValue(path.child('value'), t.value, 'must be positive'));
  if (t?.averageValue !== undefined && sign(t.averageValue) !== 1) errs.push(invalidValue(path.child('averageValue'), t.averageValue, 'must be positive'));
  if (t?.averageUtilization !== undefined && t.averageUtilization < 1) errs.push(invalidValue(path.child('averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: MetricIdentifier | undefined, path: FieldPath): FieldError[] {
  const name = id?.name ?? '';
  if (!name) return [required(path.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => invalidValue(path.child('name'), name, msg));
}

function validateResourceTarget(t: MetricTarget | undefined, path: FieldPath): FieldError[] {
  const errs = validateMetricTarget(t, path);
  if (t?.averageUtilization === undefined && t?.averageValue === undefined) errs.push(required(path.child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  if (t?.averageUtilization !== undefined && t.averageValue !== undefined) errs.push(forbiddenField(path.child('averageValue'), 'may not set both a target raw value and a target utilization'));
  return errs;
}

function validateSource(spec: MetricSpec, field: 'object' | 'external' | 'pods' | 'resource' | 'containerResource', path: FieldPath): FieldError[] {
  const target = path.child('target');
  switch (field) {
    case 'object': {
      const src = spec.object;
      const errs = [...validateCrossVersionObjectReference(src?.describedObject, path.child('describedObject')), ...validateMetricIdentifier(src?.metric, path.child('metric')), ...validateMetricTarget(src?.target, target)];
      if (src?.target?.value === undefined && src?.target?.averageValue === undefined) errs.push(required(target.child('averageValue'), 'must set either a target value or averageValue'));
      return errs;
    }
    case 'external': {
      const src = spec.external;
      const errs = [...validateMetricIdentifier(src?.metric, path.child('metric')), ...validateMetricTarget(src?.target, target)];
      if (src?.target?.value === undefined && src?.target?.averageValue === undefined) errs.push(required(target.child('averageValue'), 'must set either a target value for metric or a per-pod target'));
      if (src?.target?.value !== undefined && src.target.averageValue !== undefined) errs.push(forbiddenField(target.child('value'), 'may not set both a target value for metric and a per-pod target'));
      return errs;
    }
    case 'pods': {
      const src = spec.pods;
      const errs = [...validateMetricIdentifier(src?.metric, path.child('metric')), ...validateMetricTarget(src?.target, target)];
      if (src?.target?.averageValue === undefined) errs.push(required(target.child('averageValue'), 'must specify a positive target averageValue'));
      return errs;
    }
    case 'resource': {
      const src = spec.resource;
      const errs = src?.name ? [] : [required(path.child('name'), 'must specify a resource name')];
      return [...errs, ...validateResourceTarget(src?.target, target)];
    }
    case 'containerResource': {
      const src = spec.containerResource;
      const errs = src?.name ? [] : [required(path.child('name'), 'must specify a resource name')];
      if (!src?.container) errs.push(required(path.child('container'), 'must specify a container'));
      else errs.push(...isDNS1123Label(src.container).map((msg) => invalidValue(path.child('container'), src.container, msg)));
      return [...errs, ...validateResourceTarget(src?.target, target)];
    }
  }
}

const sourceFields = ['object', 'external', 'pods', 'resource', 'containerResource'] as const;
const fieldOfType: Record<string, (typeof sourceFields)[number]> = lookupTable({ Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' });

function validateMetricSpec(spec: MetricSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = spec.type ?? '';
  if (!type) errs.push(required(path.child('type'), 'must specify a metric source type'));
  if (!(metricSourceTypes as readonly string[]).includes(type)) errs.push(notSupported(path.child('type'), type, metricSourceTypes));
  const present = sourceFields.filter((f) => spec[f] !== undefined);
  // Only the first present source is validated, as upstream's typesPresent.Len() == 1 checks do.
  const first = present[0];
  if (first) errs.push(...validateSource(spec, first, path.child(first)));
  const expected = fieldOfType[type];
  if (expected) {
    if (spec[expected] === undefined) errs.push(required(path.child(expected), 'must populate information for the given metric source'));
  } else {
    errs.push(notSupported(path.child('type'), type, metricSourceTypes));
  }
  if (present.length !== 1) for (const f of present.filter((p) => p !== expected)) errs.push(forbiddenField(path.child(f), 'must populate the given metric source only'));
  return errs;
}

function validateScalingRules(rules: HPAScalingRules | undefined, path: FieldPath): FieldError[] {
  if (!rules) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (window !== undefined && window < 0) errs.push(invalidValue(path.child('stabilizationWindowSeconds'), window, 'must be greater than or equal to zero'));
  if (window !== undefined && window > maxStabilizationWindowSeconds) errs.push(invalidValue(path.child('stabilizationWindowSeconds'), window, `must be less than or equal to ${maxStabilizationWindowSeconds}`));
  if (rules.selectPolicy !== undefined && !['Disabled', 'Max', 'Min'].includes(rules.selectPolicy)) errs.push(notSupported(path.child('selectPolicy'), rules.selectPolicy, ['Disabled', 'Max', 'Min']));
  const policies = path.child('policies');
  if (!rules.policies?.length) errs.push(required(policies, 'must specify at least one Policy'));
  (rules.policies ?? []).forEach((p, i) => {
    const at = policies.index(i);
    if (p.type !== 'Pods' && p.type !== 'Percent') errs.push(notSupported(at.child('type'), p.type, ['Percent', 'Pods']));
    if (!(p.value > 0)) errs.push(invalidValue(at.child('value'), p.value ?? 0, 'must be greater than zero'));
    if (!(p.periodSeconds > 0)) errs.push(invalidValue(at.child('periodSeconds'), p.periodSeconds ?? 0, 'must be greater than zero'));
    if (p.periodSeconds > maxPeriodSeconds) errs.push(invalidValue(at.child('periodSeconds'), p.periodSeconds, `must be less than or equal to ${maxPeriodSeconds}`));
  });
  if (rules.tolerance !== undefined && sign(rules.tolerance) < 0) errs.push(invalidValue(path.child('tolerance'), rules.tolerance, 'must be greater or equal to zero'));
  return errs;
}

export function validateHorizontalPodAutoscalerSpec(spec: HorizontalPodAutoscalerSpec, path: FieldPath, minReplicasLowerBound: number): FieldError[] {
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  const max = spec.maxReplicas ?? 0;
  if (min !== undefined && min < minReplicasLowerBound) errs.push(invalidValue(path.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  if (max < 1) errs.push(invalidValue(path.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalidValue(path.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(spec.scaleTargetRef, path.child('scaleTargetRef')));
  const metrics = spec.metrics ?? [];
  metrics.forEach((m, i) => errs.push(...validateMetricSpec(m, path.child('metrics').index(i))));
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(forbiddenField(path.child('metrics'), 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  if (spec.behavior) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, path.child('behavior').child('scaleUp')));
    errs.push(...validateScalingRules(spec.behavior.scaleDown, path.child('behavior').child('scaleDown')));
  }
  return errs;
}

// HPAScaleToZero is alpha (off) in 1.35: minReplicas must be >= 1 unless the old object had 0.
export function validateHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler): FieldError[] {
  return [...validateObjectMeta(hpa.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateHorizontalPodAutoscalerSpec(hpa.spec ?? {}, FieldPath.root('spec'), 1)];
}

export function validateHorizontalPodAutoscalerUpdate(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler): FieldError[] {
  const lower = old.spec?.minReplicas === 0 ? 0 : 1;
  return [...validateObjectMetaUpdate(hpa.metadata, old.metadata), ...validateHorizontalPodAutoscalerSpec(hpa.spec ?? {}, FieldPath.root('spec'), lower)];
}

export function validateHorizontalPodAutoscalerStatusUpdate(hpa: HorizontalPodAutoscaler, old: HorizontalPodAutoscaler): FieldError[] {
  const errs = validateObjectMetaUpdate(hpa.metadata, old.metadata);
  const status = hpa.status;
  const path = FieldPath.root('status');
  for (const field of ['currentReplicas', 'desiredReplicas'] as const) {
    const v = status?.[field] ?? 0;
    if (v < 0) errs.push(invalidValue(path.child(field), v, IsNegativeErrorMsg));
  }
  return errs;
}
