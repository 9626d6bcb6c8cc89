// From a metric proposal to the replica count to set: stabilization windows over past
// recommendations, then min/max and the scale rate (behaviour policies, or the legacy
// max(2x, 4) limit when the HPA has no behaviour). Each step names the condition it implies.
// Pure: the per-HPA history is passed in and updated in place; `now` comes from the Clock.
// Upstream: pkg/controller/podautoscaler/horizontal.go (normalizeDesiredReplicas*, stabilizeRecommendation*,
// convertDesiredReplicasWith*, calculateScale{Up,Down}Limit*, storeScaleEvent).
import type { HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerConditionType, HPAScalingRules } from '../../api/index.ts';

export interface History {
  recommendations: { replicas: number; at: number }[];
  scaleUpEvents: ScaleEvent[];
  scaleDownEvents: ScaleEvent[];
}
interface ScaleEvent {
  change: number;
  at: number;
  outdated: boolean;
}
export const newHistory = (): History => ({ recommendations: [], scaleUpEvents: [], scaleDownEvents: [] });

export interface ConditionIntent {
  type: HorizontalPodAutoscalerConditionType;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface NormalizeInput {
  currentReplicas: number;
  desiredReplicas: number;
  minReplicas: number;
  maxReplicas: number;
  behavior: HorizontalPodAutoscalerBehavior | undefined;
  /** --horizontal-pod-autoscaler-downscale-stabilization (5m). */
  downscaleStabilisationWindowMs: number;
  now: number;
}

const withinRange = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };

/** convertDesiredReplicasWithRules: the legacy clamp (no behaviour). */
export function convertDesiredReplicasWithRules(current: number, desired: number, min: number, max: number): { replicas: number; reason: string; message: string } {
  const scaleUpLimit = Math.trunc(Math.max(2 * current, 4));
  const [maxAllowed, reason, message] = max > scaleUpLimit
    ? [scaleUpLimit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']
    : [max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
  if (desired < min) return { replicas: min, reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };
  if (desired > maxAllowed) return { replicas: maxAllowed, reason, message };
  return { replicas: desired, ...withinRange };
}

function changeInPeriod(periodSeconds: number, events: readonly ScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  return events.filter((e) => e.at > cutoff).reduce((sum, e) => sum + e.change, 0);
}

/** calculateScaleUpLimitWithScalingRules / calculateScaleDownLimitWithBehaviors. */
export function scaleLimit(direction: 'up' | 'down', current: number, h: History, rules: HPAScalingRules, now: number): number {
  const select = rules.selectPolicy ?? 'Max';
  if (select === 'Disabled') return current;
  // For scale-up the Max policy allows the largest count; for scale-down the Max policy allows the smallest.
  const pickLargest = (direction === 'up') === (select !== 'Min');
  let result = pickLargest ? -Infinity : Infinity;
  for (const p of rules.policies ?? []) {
    const periodStart = current - changeInPeriod(p.periodSeconds, h.scaleUpEvents, now) + changeInPeriod(p.periodSeconds, h.scaleDownEvents, now);
    const proposed = direction === 'up'
      ? p.type === 'Pods' ? periodStart + p.value : Math.ceil(periodStart * (1 + p.value / 100))
      : p.type === 'Pods' ? periodStart - p.value : Math.trunc(periodStart * (1 - p.value / 100));
    result = pickLargest ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

function record(h: History, desired: number, now: number, isOld: (at: number) => boolean): void {
  const old = h.recommendations.findLastIndex((r) => isOld(r.at));
  if (old >= 0) h.recommendations[old] = { replicas: desired, at: now };
  else h.recommendations.push({ replicas: desired, at: now });
}

/** The replica count to set and the AbleToScale / ScalingLimited conditions that explain it. */
export function normalizeDesiredReplicas(input: NormalizeInput, h: History): { replicas: number; conditions: ConditionIntent[] } {
  const { currentReplicas: current, desiredReplicas: desired, minReplicas: min, maxReplicas: max, now } = input;
  const conditions: ConditionIntent[] = [];
  const limited = (replicas: number, stabilized: number, reason: string, message: string): void => {
    conditions.push({ type: 'ScalingLimited', status: replicas === stabilized ? 'False' : 'True', reason, message });
  };
  if (!input.behavior) {
    // stabilizeRecommendation: the highest recommendation of the downscale window.
    const cutoff = now - input.downscaleStabilisationWindowMs;
    let stabilized = desired;
    for (const r of h.recommendations) if (r.at >= cutoff && r.replicas > stabilized) stabilized = r.replicas;
    record(h, desired, now, (at) => at < cutoff);
    conditions.push(stabilized !== desired
      ? { type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' }
      : { type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' });
    const out = convertDesiredReplicasWithRules(current, stabilized, min, max);
    limited(out.replicas, stabilized, out.reason, out.message);
    return { replicas: out.replicas, conditions };
  }
  const up = input.behavior.scaleUp ?? {};
  const down = input.behavior.scaleDown ?? {};
  const upCutoff = now - (up.stabilizationWindowSeconds ?? 0) * 1000;
  const downCutoff = now - (down.stabilizationWindowSeconds ?? input.downscaleStabilisationWindowMs / 1000) * 1000;
  let upRecommendation = desired;
  let downRecommendation = desired;
  for (const r of h.recommendations) {
    if (r.at > upCutoff) upRecommendation = Math.min(r.replicas, upRecommendation);
    if (r.at > downCutoff) downRecommendation = Math.max(r.replicas, downRecommendation);
  }
  const stabilized = Math.min(Math.max(current, upRecommendation), downRecommendation);
  record(h, desired, now, (at) => at < upCutoff && at < downCutoff);
  if (stabilized !== desired) {
    conditions.push(desired >= current
      ? { type: 'AbleToScale', status: 'True', reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
      : { type: 'AbleToScale', status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' });
  } else {
    conditions.push({ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' });
  }
  let out = { replicas: stabilized, ...withinRange };
  if (stabilized > current) {
    const limit = Math.max(scaleLimit('up', current, h, up, now), current);
    const [allowed, reason, message] = max > limit
      ? [limit, 'ScaleUpLimit', 'the desired replica count is increasing faster than the maximum scale rate']
      : [max, 'TooManyReplicas', 'the desired replica count is more than the maximum replica count'];
    if (stabilized > allowed) out = { replicas: allowed, reason, message };
  } else if (stabilized < current) {
    const limit = Math.min(scaleLimit('down', current, h, down, now), current);
    const [allowed, reason, message] = min < limit
      ? [limit, 'ScaleDownLimit', 'the desired replica count is decreasing faster than the maximum scale rate']
      : [min, 'TooFewReplicas', 'the desired replica count is less than the minimum replica count'];
    if (stabilized < allowed) out = { replicas: allowed, reason, message };
  }
  limited(out.replicas, stabilized, out.reason, out.message);
  return { replicas: out.replicas, conditions };
}

/** storeScaleEvent: remembers a rescale for the rate policies, reusing an outdated slot. */
export function storeScaleEvent(h: History, behavior: HorizontalPodAutoscalerBehavior | undefined, prev: number, next: number, now: number): void {
  if (!behavior) return;
  const upward = next > prev;
  const rules = (upward ? behavior.scaleUp : behavior.scaleDown) ?? {};
  const events = upward ? h.scaleUpEvents : h.scaleDownEvents;
  const longest = Math.max(0, ...(rules.policies ?? []).map((p) => p.periodSeconds));
  for (const e of events) if (e.at < now - longest * 1000) e.outdated = true;
  const event = { change: Math.abs(next - prev), at: now, outdated: false };
  const slot = events.findLastIndex((e) => e.outdated);
  if (slot >= 0) events[slot] = event;
  else events.push(event);
}
