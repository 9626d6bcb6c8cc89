// One HPA reconcile: read the target's scale, compute a proposal per metric (largest wins),
// normalize it (stabilization, min/max, rate), rescale through the scale subresource, and write
// status with the AbleToScale / ScalingActive / ScalingLimited conditions and upstream events.
// Upstream: pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler, computeReplicasForMetric(s)).
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition, HorizontalPodAutoscalerStatus, MetricSpec, MetricStatus, MetricTarget, Pod, Scale } from '../../api/index.ts';
import type { Client, DiscoveredResource, Informer } from '../../client/index.ts';
import type { Clock, DeepReadonly } from '../../core/index.ts';
import { formatQuantity, formatTime, isApiError, parseLabelSelector, parseQuantity, quantityFromMilli, quantityMilliValue } from '../../core/index.ts';
import type { EventRecorder } from '../event-recorder.ts';
import { resourceMetrics } from './metrics.ts';
import { normalizeDesiredReplicas, storeScaleEvent } from './normalize.ts';
import type { ConditionIntent, History } from './normalize.ts';
import { defaultReadiness, defaultTolerances, plainMetricReplicas, resourceReplicas } from './replica-calculator.ts';
import type { Tolerances } from './replica-calculator.ts';

type Hpa = DeepReadonly<HorizontalPodAutoscaler>;

export const hpaRef = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' } as const;
export const downscaleStabilisationWindowMs = 5 * 60_000;

export interface SyncContext {
  client: Client;
  clock: Clock;
  pods: Informer<Pod>;
  recorder: EventRecorder;
  history(key: string): History;
  discover(refresh: boolean): Promise<DiscoveredResource[]>;
}

interface Proposal {
  replicas: number;
  metric: string;
  status: MetricStatus;
}
type ProposalResult = { ok: true; proposal: Proposal } | { ok: false; reason: string; message: string };

const milli = (q: string | undefined): number => {
  const parsed = q === undefined ? undefined : parseQuantity(q);
  return parsed ? quantityMilliValue(parsed) : 0;
};
const quantity = (m: number): string => formatQuantity(quantityFromMilli(m));

function tolerancesOf(hpa: Hpa): Tolerances {
  const up = hpa.spec.behavior?.scaleUp?.tolerance;
  const down = hpa.spec.behavior?.scaleDown?.tolerance;
  return { scaleUp: up === undefined ? defaultTolerances.scaleUp : milli(up) / 1000, scaleDown: down === undefined ? defaultTolerances.scaleDown : milli(down) / 1000 };
}

async function computeResource(ctx: SyncContext, hpa: Hpa, spec: DeepReadonly<MetricSpec>, current: number, selector: string, matches: (p: DeepReadonly<Pod>) => boolean): Promise<ProposalResult> {
  const container = spec.type === 'ContainerResource' ? (spec.containerResource?.container ?? '') : '';
  const src = spec.type === 'ContainerResource' ? spec.containerResource : spec.resource;
  const name = src?.name ?? '';
  const target: DeepReadonly<MetricTarget> | undefined = src?.target;
  const reason = spec.type === 'ContainerResource' ? 'FailedGetContainerResourceMetric' : 'FailedGetResourceMetric';
  const fail = (what: string, message: string): ProposalResult => ({ ok: false, reason, message: `failed to get ${name} ${what}: ${message}` });
  const namespace = hpa.metadata.namespace ?? '';
  const got = await resourceMetrics(ctx.client, name, namespace, selector, container);
  const what = target?.averageValue !== undefined ? 'usage' : 'utilization';
  if (target?.averageValue === undefined && target?.averageUtilization === undefined) {
    return { ok: false, reason, message: 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set' };
  }
  if (!got.ok) return fail(what, `unable to get metrics for resource ${name}: ${got.message}`);
  const input = {
    currentReplicas: current, resource: name, container, metrics: got.metrics, tolerances: tolerancesOf(hpa),
    pods: ctx.pods.list().filter((p) => p.metadata.namespace === namespace && matches(p)),
    policy: { now: ctx.clock.now(), ...defaultReadiness },
  };
  const wrap = (status: MetricStatus['resource'] & object): MetricStatus => (spec.type === 'ContainerResource' ? { type: 'ContainerResource', containerResource: { ...status, container } } : { type: 'Resource', resource: status });
  if (target.averageValue !== undefined) {
    const r = plainMetricReplicas({ ...input, targetUsage: milli(target.averageValue) });
    if (!r.ok) return fail(what, r.message);
    return { ok: true, proposal: { replicas: r.replicas, metric: `${name} resource`, status: wrap({ name, current: { averageValue: quantity(r.rawUtilization) } }) } };
  }
  const r = resourceReplicas({ ...input, targetUtilization: target.averageUtilization ?? 0 });
  if (!r.ok) return fail(what, r.message);
  const metric = spec.type === 'ContainerResource' ? `${name} container resource utilization (percentage of request)` : `${name} resource utilization (percentage of request)`;
  return { ok: true, proposal: { replicas: r.replicas, metric, status: wrap({ name, current: { averageUtilization: r.utilization, averageValue: quantity(r.rawUtilization) } }) } };
}

function computeMetric(ctx: SyncContext, hpa: Hpa, spec: DeepReadonly<MetricSpec>, current: number, selector: string, matches: (p: DeepReadonly<Pod>) => boolean): Promise<ProposalResult> | ProposalResult {
  switch (spec.type) {
    case 'Resource':
    case 'ContainerResource':
      return computeResource(ctx, hpa, spec, current, selector, matches);
    case 'Pods':
      return { ok: false, reason: 'FailedGetPodsMetric', message: `unable to get metric ${spec.pods?.metric.name ?? ''}: unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered` };
    case 'Object':
      return { ok: false, reason: 'FailedGetObjectMetric', message: `unable to get metric ${spec.object?.metric.name ?? ''}: ${spec.object?.describedObject.kind ?? ''} on ${hpa.metadata.namespace ?? ''} ${spec.object?.describedObject.name ?? ''}/unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered` };
    case 'External':
      return { ok: false, reason: 'FailedGetExternalMetric', message: `unable to get external metric ${hpa.metadata.namespace ?? ''}/${spec.external?.metric.name ?? ''}/nil: no external metrics API (external.metrics.k8s.io) registered` };
    default:
      return { ok: false, reason: 'InvalidMetricSourceType', message: `unknown metric source type "${String(spec.type)}"` };
  }
}

const outerMessage = (spec: DeepReadonly<MetricSpec>, message: string): string => {
  switch (spec.type) {
    case 'Resource': return `failed to get ${spec.resource?.name ?? ''} resource metric value: ${message}`;
    case 'ContainerResource': return `failed to get ${spec.containerResource?.container ?? ''} container metric value: ${message}`;
    case 'External': return `failed to get ${spec.external?.metric.name ?? ''} external metric value: ${message}`;
    case 'Pods': return `failed to get pods metric value: ${message}`;
    case 'Object': return `failed to get object metric value: ${message}`;
    default: return message;
  }
};

function setCondition(conditions: HorizontalPodAutoscalerCondition[], c: ConditionIntent, now: string): void {
  const existing = conditions.find((x) => x.type === c.type);
  if (!existing) {
    conditions.push({ type: c.type, status: c.status, lastTransitionTime: now, reason: c.reason, message: c.message });
    return;
  }
  if (existing.status !== c.status) existing.lastTransitionTime = now;
  existing.status = c.status;
  existing.reason = c.reason;
  existing.message = c.message;
}

/** reconcileAutoscaler. Throws on failures that should be logged (the status is written first). */
export async function reconcileAutoscaler(ctx: SyncContext, hpa: Hpa, key: string): Promise<void> {
  const now = ctx.clock.now();
  const nowText = formatTime(now);
  const original = hpa.status ?? { desiredReplicas: 0 };
  const status: HorizontalPodAutoscalerStatus = structuredClone(original) as HorizontalPodAutoscalerStatus;
  const conditions = (status.conditions ??= []);
  const set = (type: ConditionIntent['type'], s: ConditionIntent['status'], reason: string, message: string): void => setCondition(conditions, { type, status: s, reason, message }, nowText);
  const writeStatus = async (): Promise<void> => {
    if (conditions.length === 0) delete status.conditions;
    // currentReplicas is omitempty upstream.
    if (status.currentReplicas === 0) delete status.currentReplicas;
    if (JSON.stringify(status) === JSON.stringify(original)) return;
    try {
      await ctx.client.updateStatus<HorizontalPodAutoscaler>(hpaRef, { ...(hpa as HorizontalPodAutoscaler), status });
    } catch (error) {
      ctx.recorder.event(hpa, 'Warning', 'FailedUpdateStatus', error instanceof Error ? error.message : String(error));
      if (!(isApiError(error) && (error.reason === 'Conflict' || error.reason === 'NotFound'))) throw error;
    }
  };
  const ref = hpa.spec.scaleTargetRef;
  const reference = `${ref.kind}/${hpa.metadata.namespace ?? ''}/${ref.name}`;
  const failScale = async (message: string): Promise<never> => {
    ctx.recorder.event(hpa, 'Warning', 'FailedGetScale', message);
    set('AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${message}`);
    await writeStatus();
    throw new Error(`failed to query scale subresource for ${reference}: ${message}`);
  };

  const group = ref.apiVersion?.includes('/') ? ref.apiVersion.split('/')[0]! : '';
  const find = (list: DiscoveredResource[]): DiscoveredResource | undefined => list.find((r) => r.kind === ref.kind && r.group === group);
  const target = find(await ctx.discover(false)) ?? find(await ctx.discover(true));
  if (!target) return failScale(`no matches for kind "${ref.kind}" in group "${group}"`);
  const targetRef = { group: target.group, version: target.version, resource: target.resource };
  let scale: Scale;
  try {
    scale = await ctx.client.get<Scale>(targetRef, hpa.metadata.namespace, ref.name, { subresource: 'scale' });
  } catch (error) {
    return failScale(error instanceof Error ? error.message : String(error));
  }
  set('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
  const currentReplicas = scale.spec?.replicas ?? 0;
  const history = ctx.history(key);
  if (history.recommendations.length === 0) history.recommendations.push({ replicas: currentReplicas, at: now });
  const minReplicas = hpa.spec.minReplicas ?? 1;
  const maxReplicas = hpa.spec.maxReplicas;
  let desiredReplicas = 0;
  let rescaleReason = '';
  let rescale = true;
  let metricStatuses: MetricStatus[] | undefined;
  let deferred: Error | undefined;

  if (currentReplicas === 0 && minReplicas !== 0) {
    rescale = false;
    set('ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
  } else if (currentReplicas > maxReplicas) {
    rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
    desiredReplicas = maxReplicas;
  } else if (currentReplicas < minReplicas) {
    rescaleReason = 'Current number of replicas below Spec.MinReplicas';
    desiredReplicas = minReplicas;
  } else {
    const selectorText = scale.status?.selector ?? '';
    const parsed = parseLabelSelector(selectorText);
    if (!selectorText || !parsed.ok) {
      const message = !selectorText ? 'selector is required' : `couldn't convert selector into a corresponding internal selector object: ${parsed.ok ? '' : parsed.message}`;
      ctx.recorder.event(hpa, 'Warning', !selectorText ? 'SelectorRequired' : 'InvalidSelector', message);
      set('ScalingActive', 'False', 'InvalidSelector', !selectorText ? "the HPA target's scale is missing a selector" : message);
      status.currentReplicas = currentReplicas;
      await writeStatus();
      const error = `failed to compute desired number of replicas based on listed metrics for ${reference}: ${message}`;
      ctx.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', message);
      throw new Error(error);
    }
    const selector = parsed.selector;
    const specs = hpa.spec.metrics ?? [];
    metricStatuses = specs.map(() => ({ type: '' }) as unknown as MetricStatus);
    let replicas = 0;
    let metric = '';
    let invalid = 0;
    let firstError: { reason: string; message: string; outer: string } | undefined;
    for (const [i, spec] of specs.entries()) {
      const r = await computeMetric(ctx, hpa, spec, currentReplicas, selectorText, (p) => selector.matches(p.metadata.labels));
      if (!r.ok) {
        ctx.recorder.event(hpa, 'Warning', r.reason, r.message);
        if (invalid === 0) firstError = { reason: r.reason, message: r.message, outer: outerMessage(spec, r.message) };
        invalid++;
        continue;
      }
      metricStatuses[i] = r.proposal.status;
      if (replicas === 0 || r.proposal.replicas > replicas) {
        replicas = r.proposal.replicas;
        metric = r.proposal.metric;
      }
    }
    const invalidError = firstError && `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError.outer}`;
    if (firstError && invalidError && (invalid >= specs.length || replicas < currentReplicas)) {
      set('ScalingActive', 'False', firstError.reason, `the HPA was unable to compute the replica count: ${firstError.message}`);
      status.currentReplicas = currentReplicas;
      status.currentMetrics = metricStatuses;
      await writeStatus();
      ctx.recorder.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', invalidError);
      throw new Error(`failed to compute desired number of replicas based on listed metrics for ${reference}: ${invalidError}`);
    }
    if (invalidError) deferred = new Error(invalidError);
    set('ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
    desiredReplicas = replicas;
    if (desiredReplicas > currentReplicas) rescaleReason = `${metric} above target`;
    if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
    const normalized = normalizeDesiredReplicas({ currentReplicas, desiredReplicas, minReplicas, maxReplicas, behavior: hpa.spec.behavior as HorizontalPodAutoscaler['spec']['behavior'], downscaleStabilisationWindowMs, now }, history);
    for (const c of normalized.conditions) setCondition(conditions, c, nowText);
    desiredReplicas = normalized.replicas;
    rescale = desiredReplicas !== currentReplicas;
  }

  if (rescale) {
    try {
      await ctx.client.patch(targetRef, hpa.metadata.namespace, ref.name, 'merge', { spec: { replicas: desiredReplicas } }, { subresource: 'scale' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.recorder.event(hpa, 'Warning', 'FailedRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${message}`);
      set('AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${message}`);
      status.currentReplicas = currentReplicas;
      if (metricStatuses) status.currentMetrics = metricStatuses;
      await writeStatus();
      throw new Error(`failed to rescale ${reference}: ${message}`);
    }
    set('AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desiredReplicas}`);
    ctx.recorder.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
    storeScaleEvent(history, hpa.spec.behavior as HorizontalPodAutoscaler['spec']['behavior'], currentReplicas, desiredReplicas, now);
    status.lastScaleTime = nowText;
  } else {
    desiredReplicas = currentReplicas;
  }
  status.currentReplicas = currentReplicas;
  status.desiredReplicas = desiredReplicas;
  if (metricStatuses) status.currentMetrics = metricStatuses;
  else delete status.currentMetrics;
  await writeStatus();
  if (deferred) throw deferred;
}
