// Scheduler events (core/v1 Event, from `default-scheduler`): FailedScheduling, Scheduled,
// Preempted. Repeats of the same event for the same pod become a series (count,
// lastObservedTime), which kubectl describe prints as "(x3 over 2m)".
// Upstream: staging/src/k8s.io/client-go/tools/events/event_broadcaster.go (recordToSink),
// pkg/scheduler/schedule_one.go (Eventf calls).
import type { Event } from '../api/index.ts';
import { refs } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock } from '../core/index.ts';
import { formatMicroTime, unixNanos } from '../core/index.ts';
import type { EventRecord, PodRO } from './framework.ts';

export const schedulerComponent = 'default-scheduler';

interface SeriesState {
  name: string;
  namespace: string;
  count: number;
  firstAt: number;
  write: Promise<unknown>;
}

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  component?: string;
  instance?: string;
}

/** Isomorphic events within this window join a series (the recorder's 6-minute cache). */
const seriesWindowMs = 6 * 60_000;

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #series = new Map<string, SeriesState>();
  #pending = new Set<Promise<unknown>>();
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
    if (prev && now - prev.firstAt < seriesWindowMs) {
      prev.count++;
      const count = prev.count;
      // Chain on the create so the patch never races ahead of it.
      prev.write = this.#track(prev.write.then(() =>
        this.#o.client.patch(refs.events, prev.namespace, prev.name, 'merge', { series: { count, lastObservedTime: formatMicroTime(now) } })));
      return;
    }
    const component = this.#o.component ?? schedulerComponent;
    const name = `${pod.metadata.name ?? ''}.${unixNanos(now).toString(16)}`;
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
      message: e.message.length > 1024 ? `${e.message.slice(0, 1021)}...` : e.message,
      type: e.type,
      source: { component },
      eventTime: formatMicroTime(now),
      action: e.action,
      reportingComponent: component,
      reportingInstance: this.#o.instance ?? `${component}-drydock`,
    };
    const write = this.#track(this.#o.client.create(refs.events, event, { namespace }));
    if (this.#series.size > 10_000) this.#series.clear();
    this.#series.set(key, { name, namespace, count: 1, firstAt: now, write });
  }

  #track(p: Promise<unknown>): Promise<unknown> {
    const guarded = p.catch((error: unknown) => {
      if (!this.#stopped) this.#o.log(`event write failed: ${error instanceof Error ? error.message : String(error)}`);
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
  }
}
