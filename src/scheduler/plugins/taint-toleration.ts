// TaintToleration: NoSchedule/NoExecute taints a pod does not tolerate reject the node;
// untolerated PreferNoSchedule taints lower its score. (NoExecute eviction of running pods
// belongs to the node-lifecycle controller.)
// Upstream: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go,
// staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint).
import { toleratesTaint } from '../../api/index.ts';
import type { Node, Taint, Toleration } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import type { Plugin, PluginFactory, PodRO } from '../framework.ts';
import { ActionType, maxNodeScore, stateKey, success, unresolvable } from '../framework.ts';
import { defaultNormalizeScore } from './normalize.ts';

export const name = 'TaintToleration';
export const errReasonNotMatch = 'node(s) had untolerated taint(s)';

type T = DeepReadonly<Toleration>;
type TaintLike = Pick<DeepReadonly<Taint>, 'key' | 'effect'> & { readonly value?: string | undefined };


export function tolerationsTolerateTaint(tolerations: readonly T[] | undefined, taint: TaintLike): boolean {
  for (const t of tolerations ?? []) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** The first NoSchedule/NoExecute taint not tolerated, if any. */
export function findUntoleratedTaint(taints: readonly DeepReadonly<Taint>[], tolerations: readonly T[] | undefined): DeepReadonly<Taint> | undefined {
  for (const taint of taints) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  }
  return undefined;
}

const preScoreKey = stateKey<readonly T[]>('PreScoreTaintToleration');

export const newTaintToleration: PluginFactory = () =>
  ({
    name,
    filter(_state, pod, nodeInfo) {
      if (nodeInfo.taints.length === 0) return success;
      return findUntoleratedTaint(nodeInfo.taints, pod.pod.spec.tolerations) ? unresolvable(errReasonNotMatch) : success;
    },
    preScore(state, pod) {
      state.write(preScoreKey, (pod.pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule'));
      return success;
    },
    score(state, _pod, nodeInfo) {
      const tolerations = state.read(preScoreKey) ?? [];
      let n = 0;
      for (const taint of nodeInfo.taints) if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, taint)) n++;
      return n;
    },
    normalizeScore(_state, _pod, scores) {
      defaultNormalizeScore(maxNodeScore, true, scores);
    },
    eventsToRegister: () => [
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint }, hint: (pod: PodRO, oldObj, newObj) => {
        const next = newObj as DeepReadonly<Node> | undefined;
        if (!next) return 'QueueSkip';
        const prev = oldObj as DeepReadonly<Node> | undefined;
        const nowOk = !findUntoleratedTaint(next.spec?.taints ?? [], pod.spec.tolerations);
        const wasOk = prev ? !findUntoleratedTaint(prev.spec?.taints ?? [], pod.spec.tolerations) : false;
        return nowOk && !wasOk ? 'Queue' : 'QueueSkip';
      } },
      { event: { resource: 'UnscheduledPod', actionType: ActionType.UpdatePodToleration } },
    ],
  }) satisfies Plugin;
