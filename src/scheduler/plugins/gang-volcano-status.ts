// Volcano compatibility: the PodGroup status the Volcano scheduler writes in its session close,
// simplified. phase is Pending until minMember pods are bound, then Running (Completed once
// minMember pods succeeded and none runs); Inqueue and Unknown are not modelled. running,
// succeeded and failed count member pods by phase. While members are rejected, the group gets
// condition Unschedulable=True reason NotEnoughResources and a Warning Unschedulable event;
// on reaching Running a Normal Scheduled event "pod group is ready".
// Upstream: volcano-sh/volcano pkg/scheduler/framework/job_updater.go, plugins/gang/gang.go
// (OnSessionClose); the message keeps Volcano's "x/y tasks in gang unschedulable: pod group is
// not ready, ..." shape without the "Origin reasons" tail.
import type { Event, Pod } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { Informer } from '../../client/index.ts';
import { formatMicroTime, formatTime } from '../../core/index.ts';
import { eventNanos, quietlyDropped } from '../../client/index.ts';
import type { Handle, PodRO } from '../framework.ts';
import type { VolcanoPodGroup } from './gang-groups.ts';
import { volcanoPodGroups } from './gang-groups.ts';

interface Options {
  handle: Handle;
  pods: Informer<Pod>;
  podGroups: Informer<VolcanoPodGroup>;
  groupKey: (pod: PodRO) => string | undefined;
  members: (key: string) => readonly PodRO[];
}

interface Summary {
  phase: 'Pending' | 'Running' | 'Completed';
  running: number;
  succeeded: number;
  failed: number;
  unschedulable?: string;
}

/** The status a PodGroup should have, from its member pods (pure). */
export function summarizePodGroup(minMember: number, members: readonly PodRO[]): Summary {
  let running = 0;
  let succeeded = 0;
  let failed = 0;
  let bound = 0;
  let pending = 0;
  let rejected = 0;
  for (const p of members) {
    const phase = p.status?.phase;
    if (phase === 'Running') running++;
    else if (phase === 'Succeeded') succeeded++;
    else if (phase === 'Failed') failed++;
    if (p.spec.nodeName) bound++;
    else {
      pending++;
      const c = p.status?.conditions?.find((x) => x.type === 'PodScheduled');
      if (c?.status === 'False' && c.reason === 'Unschedulable') rejected++;
    }
  }
  const phase = succeeded >= minMember && minMember > 0 && running === 0 ? 'Completed' : bound >= minMember ? 'Running' : 'Pending';
  const s: Summary = { phase, running, succeeded, failed };
  if (phase === 'Pending' && rejected > 0) {
    s.unschedulable = `${Math.max(minMember - bound, 0)}/${members.length} tasks in gang unschedulable: pod group is not ready, ${pending} Pending, ${minMember} minAvailable; Pending: ${rejected} Unschedulable, ${pending - rejected} Schedulable`;
  }
  return s;
}

export function startPodGroupStatus(o: Options): void {
  const dirty = new Set<string>();
  let armed = false;
  const mark = (key: string | undefined): void => {
    if (!key) return;
    dirty.add(key);
    if (armed) return;
    armed = true;
    o.handle.clock.after(0, () => {
      armed = false;
      const keys = [...dirty];
      dirty.clear();
      for (const k of keys) void sync(k).catch((error: unknown) => o.handle.log(`podgroup status ${k}: ${error instanceof Error ? error.message : String(error)}`));
    });
  };
  const keyOfGroup = (pg: VolcanoPodGroup): string => `volcano/${pg.metadata.namespace ?? ''}/${pg.metadata.name ?? ''}`;
  o.pods.addHandlers({ onAdd: (p) => mark(o.groupKey(p)), onUpdate: (_old, p) => mark(o.groupKey(p)), onDelete: (p) => mark(o.groupKey(p)) });
  o.podGroups.addHandlers({ onAdd: (pg) => mark(keyOfGroup(pg)), onUpdate: (_old, pg) => mark(keyOfGroup(pg)) });

  async function sync(key: string): Promise<void> {
    const [, ns = '', name = ''] = key.split('/');
    const pg = o.podGroups.getByName(ns, name);
    if (!pg) return;
    const s = summarizePodGroup(pg.spec?.minMember ?? 0, o.members(key));
    const old = pg.status ?? {};
    const now = formatTime(o.handle.clock.now());
    const prevUnsched = (old.conditions as { type?: string; status?: string; message?: string }[] | undefined)?.find((c) => c.type === 'Unschedulable');
    const conditions = s.unschedulable
      ? [{ type: 'Unschedulable', status: 'True', transitionID: pg.metadata.uid ?? '', lastTransitionTime: prevUnsched?.status === 'True' && prevUnsched.message === s.unschedulable ? ((prevUnsched as { lastTransitionTime?: string }).lastTransitionTime ?? now) : now, reason: 'NotEnoughResources', message: s.unschedulable }]
      : s.phase === 'Pending' ? (old.conditions ?? []) : [{ type: 'Scheduled', status: 'True', transitionID: pg.metadata.uid ?? '', lastTransitionTime: now, reason: 'tasks in gang are ready to be scheduled', message: '' }];
    const changed = old.phase !== s.phase || (old.running ?? 0) !== s.running || (old.succeeded ?? 0) !== s.succeeded || (old.failed ?? 0) !== s.failed
      || JSON.stringify((old.conditions ?? []).map((c) => ({ ...(c as object), lastTransitionTime: '' }))) !== JSON.stringify(conditions.map((c) => ({ ...(c as object), lastTransitionTime: '' })));
    if (!changed) return;
    if (s.phase === 'Running' && s.phase !== old.phase && old.phase !== 'Completed') recordEvent(pg, 'Normal', 'Scheduled', 'pod group is ready');
    if (s.unschedulable && prevUnsched?.message !== s.unschedulable) recordEvent(pg, 'Warning', 'Unschedulable', s.unschedulable);
    const status = { phase: s.phase, running: s.running, succeeded: s.succeeded, failed: s.failed, conditions };
    await o.handle.client.patch(volcanoPodGroups, ns, name, 'merge', { status }, { subresource: 'status' });
  }

  function recordEvent(pg: VolcanoPodGroup, type: 'Normal' | 'Warning', reason: string, message: string): void {
    const now = o.handle.clock.now();
    const namespace = pg.metadata.namespace ?? 'default';
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${pg.metadata.name ?? ''}.${eventNanos(now).toString(16)}`, namespace },
      involvedObject: { kind: 'PodGroup', namespace, name: pg.metadata.name ?? '', apiVersion: 'scheduling.volcano.sh/v1beta1', ...(pg.metadata.uid ? { uid: pg.metadata.uid } : {}) },
      reason,
      message,
      type,
      source: { component: 'volcano' },
      eventTime: formatMicroTime(now),
      action: 'Scheduling',
      reportingComponent: 'volcano',
      reportingInstance: 'volcano-drydock',
    };
    void o.handle.client.create(refs.events, event, { namespace }).catch((error: unknown) => quietlyDropped(error) || o.handle.log(`podgroup event: ${error instanceof Error ? error.message : String(error)}`));
  }
}
