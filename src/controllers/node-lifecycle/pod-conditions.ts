// Pod condition updates as the controllers write them: a condition's lastTransitionTime moves only
// when its status changes, and an update that changes nothing is reported as such. Pure.
// Upstream: pkg/api/v1/pod/util.go (UpdatePodCondition).
import type { PodCondition } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { formatTime } from '../../core/index.ts';

/** The conditions with `condition` set, or undefined when nothing would change. */
export function updatePodCondition(
  conditions: readonly DeepReadonly<PodCondition>[] | undefined,
  condition: Omit<PodCondition, 'lastTransitionTime'>,
  now: number,
): PodCondition[] | undefined {
  const list = (conditions ?? []).map((c) => ({ ...c }) as PodCondition);
  const i = list.findIndex((c) => c.type === condition.type);
  const old = list[i];
  if (i < 0 || !old) return [...list, { ...condition, lastTransitionTime: formatTime(now) }];
  const next: PodCondition = { ...condition, lastTransitionTime: condition.status === old.status && old.lastTransitionTime ? old.lastTransitionTime : formatTime(now) };
  const equal =
    next.status === old.status &&
    next.reason === old.reason &&
    next.message === old.message &&
    (next.lastProbeTime ?? null) === (old.lastProbeTime ?? null) &&
    next.lastTransitionTime === old.lastTransitionTime;
  if (equal) return undefined;
  list[i] = next;
  return list;
}
