// GangScheduling (KEP-4671, alpha in 1.35): all-or-nothing scheduling for the pods of a gang.
// PreEnqueue holds pods until their Workload exists and minCount pods of the group exist;
// Reserve marks a pod assumed (its node resources stay held in the scheduler cache); Permit
// makes each pod wait until minCount pods of the gang are assumed or bound, then allows them
// all at once. The first waiter starts a deadline shared by the gang (5 minutes on the Clock);
// at the deadline every waiting pod is rejected, unreserved and requeued, and the next attempt
// starts a new deadline. In the `volcano` profile a Volcano PodGroup (minMember) is a gang too.
// Upstream: pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go,
// pkg/scheduler/backend/workloadmanager/pod_group_info.go (SchedulingTimeout, Assume/ForgetPod).
import type { Pod, Workload } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { ClusterEventWithHint, Handle, Plugin, PluginFactory, PodRO, Status } from '../framework.ts';
import { ActionType, errorStatus, success, unresolvable, waitStatus } from '../framework.ts';
import type { GangGroups, VolcanoPodGroup } from './gang-groups.ts';
import { newGangGroups, volcanoPodGroups, volcanoSchedulerName } from './gang-groups.ts';
import { startPodGroupStatus } from './gang-volcano-status.ts';

export const name = 'GangScheduling';

/** DefaultSchedulingTimeoutDuration. */
export const defaultSchedulingTimeoutMs = 5 * 60_000;
export const waitingOnPermitReason = 'waiting for minCount pods from a gang to be waiting on permit';
export const waitingToAppearReason = 'waiting for minCount pods from a gang to appear in scheduling queue';

interface GangState {
  readonly assumed: Set<string>;
  deadline?: number;
}

export const newGangScheduling: PluginFactory = (_args, handle: Handle) => {
  const volcano = handle.schedulerName === volcanoSchedulerName;
  const workloads = handle.informer<Workload>(refs.workloads);
  const podGroups = volcano ? handle.informer<VolcanoPodGroup>(volcanoPodGroups) : undefined;
  const groups: GangGroups = newGangGroups(workloads, podGroups);
  // One index per profile: the volcano profile's keys include PodGroup members.
  const gangIndex = `${name}:${handle.schedulerName}`;
  const pods = handle.informer<Pod>(refs.pods, (inf) => inf.addIndex(gangIndex, (p) => {
    const k = groups.keyOf(p);
    return k ? [k] : [];
  }));
  const members = (key: string): PodRO[] => pods.byIndex(gangIndex, key);
  if (podGroups) startPodGroupStatus({ handle, pods, podGroups, groupKey: groups.keyOf, members });
  const states = new Map<string, GangState>();
  const stateOf = (key: string): GangState => {
    let s = states.get(key);
    if (!s) states.set(key, (s = { assumed: new Set() }));
    return s;
  };
  const synced = (): boolean => groups.informers.every((i) => i.hasSynced());

  /** SchedulingTimeout: the time left until the gang's deadline, starting a new one when none is running. */
  const schedulingTimeout = (s: GangState): number => {
    const now = handle.clock.now();
    // Upstream renews only a deadline strictly in the past; on a virtual clock time stands still at
    // the deadline, so a deadline equal to now is renewed too (else: 0 ms waits, rejected in a loop).
    if (s.deadline === undefined || s.deadline <= now) s.deadline = now + defaultSchedulingTimeoutMs;
    return s.deadline - now;
  };

  const sameGang = (pod: PodRO, other: PodRO | undefined): boolean => {
    if (!other || other.metadata.namespace !== pod.metadata.namespace) return false;
    const k = groups.keyOf(pod);
    return k !== undefined && k === groups.keyOf(other);
  };

  const plugin: Plugin = {
    name,
    preEnqueue(pod: PodRO): Status {
      const key = groups.keyOf(pod);
      if (!key) return success;
      const g = groups.lookup(pod);
      switch (g.kind) {
        case 'none':
        case 'basic':
          return success;
        case 'missing':
          return unresolvable(g.reason);
        case 'gang':
          return members(key).length < g.minCount ? unresolvable(waitingToAppearReason) : success;
        default: {
          const never: never = g;
          return errorStatus(new Error(`unknown gang lookup ${String(never)}`));
        }
      }
    },
    reserve(_state, pi) {
      const key = groups.keyOf(pi.pod);
      if (key) stateOf(key).assumed.add(pi.uid);
      return success;
    },
    unreserve(_state, pi) {
      const key = groups.keyOf(pi.pod);
      if (key) states.get(key)?.assumed.delete(pi.uid);
    },
    permit(_state, pi) {
      const pod = pi.pod;
      const key = groups.keyOf(pod);
      if (!key) return { status: success };
      if (!synced()) return { status: errorStatus(new Error('gang scheduling caches are not synced yet')) };
      const g = groups.lookup(pod);
      if (g.kind === 'missing') return { status: errorStatus(new Error(g.error)) };
      if (g.kind !== 'gang') return { status: success };
      const s = stateOf(key);
      const all = members(key);
      let ready = s.assumed.size;
      for (const m of all) if (m.spec.nodeName && !s.assumed.has(m.metadata.uid ?? '')) ready++;
      if (ready < g.minCount) {
        // Activate the rest of the gang in case they were waiting for this pod to be scheduled.
        handle.activate(all.filter((m) => !m.spec.nodeName && !s.assumed.has(m.metadata.uid ?? '')));
        return { status: waitStatus(waitingOnPermitReason), timeoutMs: schedulingTimeout(s) };
      }
      for (const uid of s.assumed) handle.waitingPod(uid)?.allow(name);
      return { status: success };
    },
    eventsToRegister(): ClusterEventWithHint[] {
      const events: ClusterEventWithHint[] = [
        // A new pod may complete a gang; gang membership is immutable, so pod updates do not matter.
        { event: { resource: 'Pod', actionType: ActionType.Add }, hint: (pod, _old, next) => (sameGang(pod, next as PodRO | undefined) ? 'Queue' : 'QueueSkip') },
        // Workload podGroups are immutable: only an added Workload can make a pod schedulable.
        {
          event: { resource: 'Workload', actionType: ActionType.Add, ref: refs.workloads },
          hint: (pod, _old, next) => {
            const w = next as Workload | undefined;
            const ref = pod.spec.workloadRef;
            return ref && w && w.metadata.namespace === pod.metadata.namespace && w.metadata.name === ref.name ? 'Queue' : 'QueueSkip';
          },
        },
      ];
      if (volcano) {
        // A PodGroup's minMember may change (Volcano allows it), so updates count as well.
        events.push({
          event: { resource: 'PodGroup', actionType: ActionType.Add | ActionType.UpdateOther, ref: volcanoPodGroups },
          hint: (pod, _old, next) => {
            const pg = next as VolcanoPodGroup | undefined;
            return pg && groups.keyOf(pod) === `volcano/${pg.metadata.namespace ?? ''}/${pg.metadata.name ?? ''}` ? 'Queue' : 'QueueSkip';
          },
        });
      }
      return events;
    },
  };
  // Forget the state of gangs whose pods are all gone.
  pods.addHandlers({
    onDelete: (p) => {
      const key = groups.keyOf(p);
      if (!key) return;
      states.get(key)?.assumed.delete(p.metadata.uid ?? '');
      if (members(key).length === 0) states.delete(key);
    },
  });
  return plugin;
};
