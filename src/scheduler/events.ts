// Scheduler events (core/v1 Event, from `default-scheduler`): FailedScheduling, Scheduled,
// Preempted. Repeats of the same event for the same pod become a series (count,
// lastObservedTime), which kubectl describe prints as "(x3 over 2m)". As client-go's events
// broadcaster: the first repeat patches the series (count 2); later ones are only counted, and the
// series is sent every 30 minutes and once it has been idle for 6 minutes (when it leaves the cache).
// Upstream: staging/src/k8s.io/client-go/tools/events/event_broadcaster.go (recordToSink,
// refreshExistingEventSeries, finishSeries), pkg/scheduler/schedule_one.go (Eventf calls).
import type { Event } from '../api/index.ts';
import { refs } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, Timer } from '../core/index.ts';
import { formatMicroTime } from '../core/index.ts';
import { eventNanos, quietlyDropped } from '../client/index.ts';
import type { EventRecord, PodRO } from './framework.ts';

export const schedulerComponent = 'default-scheduler';

interface SeriesState {
  name: string;
  namespace: string;
  count: number;
  eventTime: number;
  lastObservedAt: number;
  /** The last write of this event: a series patch never races ahead of the create. */
  write: Promise<unknown>;
}

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  component?: string;
  instance?: string;
}

/** NoteLengthLimit, the longest note an event may carry. */
const noteLengthLimit = 1024;

/** An event's note cut to NoteLengthLimit, as the scheduler cuts FailedScheduling's (the condition keeps it whole). Upstream: schedule_one.go (truncateMessage). */
export function truncateMessage(message: string): string {
  if (message.length <= noteLengthLimit) return message;
  const suffix = ' ...';
  return message.slice(0, noteLengthLimit - suffix.length) + suffix;
}

/** finishTime and refreshTime of the broadcaster. */
const finishMs = 6 * 60_000;
const refreshMs = 30 * 60_000;

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #series = new Map<string, SeriesState>();
  #pending = new Set<Promise<unknown>>();
  #timers: Timer[] = [];
  #stopped = false;

  constructor(options: EventRecorderOptions) {
    this.#o = options;
  }

  record(pod: PodRO, e: EventRecord): void {
    if (this.#stopped) return;
    const now = this.#o.clock.now();
    const namespace = pod.metadata.namespace ?? 'default';
    const key = `${pod.metadata.uid ?? ''}|${e.type}|${e.reason}|${e.action}|${e.message}`;
    const prev = this.#series.get(key);
    if (prev) {
      prev.count++;
      prev.lastObservedAt = now;
      if (prev.count === 2) this.#sendSeries(prev);
      return;
    }
    const component = this.#o.component ?? schedulerComponent;
    const name = `${pod.metadata.name ?? ''}.${eventNanos(now).toString(16)}`;
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        kind: 'Pod',
        namespace,
        name: pod.metadata.name ?? '',
        ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
        apiVersion: 'v1',
        ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
      },
      reason: e.reason,
      message: truncateMessage(e.message),
      type: e.type,
      source: { component },
      eventTime: formatMicroTime(now),
      action: e.action,
      reportingComponent: component,
      reportingInstance: this.#o.instance ?? `${component}-drydock`,
    };
    const write = this.#track(this.#o.client.create(refs.events, event, { namespace }));
    this.#series.set(key, { name, namespace, count: 1, eventTime: now, lastObservedAt: now, write });
    if (this.#timers.length === 0) this.#timers = [this.#every(refreshMs, () => this.#refresh()), this.#every(finishMs, () => this.#finish())];
  }

  #sendSeries(s: SeriesState): void {
    const series = { count: s.count, lastObservedTime: formatMicroTime(s.lastObservedAt) };
    s.write = this.#track(s.write.then(() => this.#o.client.patch(refs.events, s.namespace, s.name, 'merge', { series })));
  }

  /** refreshExistingEventSeries: every series' current count. */
  #refresh(): void {
    for (const s of this.#series.values()) if (s.count >= 2) this.#sendSeries(s);
  }

  /** finishSeries: a series idle for finishTime is sent a last time; it and single events that old leave the cache. */
  #finish(): void {
    const cutoff = this.#o.clock.now() - finishMs;
    for (const [key, s] of this.#series) {
      if (s.count >= 2 ? s.lastObservedAt >= cutoff : s.eventTime >= cutoff) continue;
      if (s.count >= 2) this.#sendSeries(s);
      this.#series.delete(key);
    }
  }

  #every(ms: number, fn: () => void): Timer {
    let timer: Timer;
    const tick = (): void => {
      if (this.#stopped) return;
      fn();
      timer = this.#o.clock.after(ms, tick);
    };
    timer = this.#o.clock.after(ms, tick);
    return { cancel: () => timer.cancel() };
  }

  #track(p: Promise<unknown>): Promise<unknown> {
    const guarded = p.catch((error: unknown) => {
      if (!this.#stopped && !quietlyDropped(error)) this.#o.log(`event write failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    this.#pending.add(guarded);
    void guarded.finally(() => this.#pending.delete(guarded));
    return guarded;
  }

  /** Resolves once every event write issued so far has finished. */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) t.cancel();
  }
}
