// client-go's EventCorrelator and its sink: what every core/v1 event recorder does before it writes.
// Repeats of one event become a count on the first; an object's eleventh distinct message of one
// reason within 10 minutes becomes "(combined from similar events): ..."; a source may burst 25
// events about one object, then one every 5 minutes, the rest dropped.
// Upstream: client-go/tools/record/events_cache.go (EventAggregate, eventObserve, the spam filter),
// event.go (recordToSink, recordEvent).
import { refs } from '../api/index.ts';
import type { Event } from '../api/index.ts';
import type { Clock } from '../core/index.ts';
import { formatTime, isApiError, unixNanos } from '../core/index.ts';
import type { Client } from './client.ts';

const maxLruCacheEntries = 4096;
const defaultSpamBurst = 25;
const defaultSpamQps = 1 / 300;
const defaultAggregateMaxEvents = 10;
const defaultAggregateIntervalMs = 600_000;

// Shared by every recorder in the process: two events about one object at the same (virtual) instant
// still get distinct names.
let lastNanos = 0n;

/** The Unix nanoseconds client-go names an event by (`<object>.<hex>`), made unique and increasing. */
export function eventNanos(now: number): bigint {
  let nanos = unixNanos(now);
  if (nanos <= lastNanos) nanos = lastNanos + 1n;
  lastNanos = nanos;
  return nanos;
}

/** A Map kept to its most recently used `max` entries, as golang/groupcache's lru.Cache. */
class Lru<V> {
  readonly #max: number;
  readonly #entries = new Map<string, V>();

  constructor(max: number) {
    this.#max = max;
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
  }
}

const objectParts = (e: Event): string[] => {
  const o = e.involvedObject;
  return [e.source?.component ?? '', e.source?.host ?? '', o.kind ?? '', o.namespace ?? '', o.name ?? ''];
};

/** getEventKey: what makes two events the same one. */
function eventKey(e: Event): string {
  const o = e.involvedObject;
  return [...objectParts(e), o.fieldPath ?? '', o.uid ?? '', o.apiVersion ?? '', e.type ?? '', e.reason ?? '', e.message ?? ''].join('');
}

/** EventAggregatorByReasonFunc's key: the events of one reason about one object, whatever their message. */
function aggregateKey(e: Event): string {
  const o = e.involvedObject;
  return [...objectParts(e), o.uid ?? '', o.apiVersion ?? '', e.type ?? '', e.reason ?? '', e.reportingComponent ?? '', e.reportingInstance ?? ''].join('');
}

/** getSpamKey: one source's events about one object. */
function spamKey(e: Event): string {
  const o = e.involvedObject;
  return [...objectParts(e), o.uid ?? '', o.apiVersion ?? ''].join('');
}

export interface Correlated {
  event: Event;
  /** The key its observations are kept under: writes of one key go in order. */
  key: string;
  /** A repeat: the existing event (event.metadata.name) gets the new count, message and lastTimestamp. */
  repeat: boolean;
}

export class EventCorrelator {
  readonly #clock: Clock;
  readonly #aggregates = new Lru<{ messages: Set<string>; lastAt: number }>(maxLruCacheEntries);
  readonly #observed = new Lru<{ count: number; firstTimestamp: string; name: string }>(maxLruCacheEntries);
  readonly #spam = new Lru<{ tokens: number; at: number }>(maxLruCacheEntries);

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** EventCorrelate: the event to write, or undefined when the spam filter drops it. */
  correlate(event: Event): Correlated | undefined {
    const now = this.#clock.now();
    const { event: aggregated, key } = this.#aggregate(event, now);
    const observed = this.#observe(aggregated, key);
    return this.#allowed(event, now) ? { event: observed, key, repeat: (observed.count ?? 1) > 1 } : undefined;
  }

  #aggregate(event: Event, now: number): { event: Event; key: string } {
    const key = aggregateKey(event);
    let record = this.#aggregates.get(key);
    if (!record || now - record.lastAt > defaultAggregateIntervalMs) record = { messages: new Set(), lastAt: now };
    record.messages.add(event.message ?? '');
    record.lastAt = now;
    this.#aggregates.set(key, record);
    if (record.messages.size < defaultAggregateMaxEvents) return { event, key: eventKey(event) };
    record.messages.delete(record.messages.values().next().value as string);
    const at = formatTime(now);
    const combined: Event = {
      ...(event.apiVersion ? { apiVersion: event.apiVersion, kind: event.kind } : {}),
      metadata: { name: `${event.involvedObject.name ?? ''}.${eventNanos(now).toString(16)}`, namespace: event.metadata.namespace ?? '' },
      involvedObject: event.involvedObject,
      reason: event.reason ?? '',
      message: `(combined from similar events): ${event.message ?? ''}`,
      ...(event.source ? { source: event.source } : {}),
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      type: event.type ?? '',
    };
    return { event: combined, key };
  }

  /** eventObserve: a key seen before makes this a repeat of that event, one count higher. */
  #observe(event: Event, key: string): Event {
    const last = this.#observed.get(key);
    const observed: Event = last ? { ...event, metadata: { ...event.metadata, name: last.name }, firstTimestamp: last.firstTimestamp, count: last.count + 1 } : event;
    this.#observed.set(key, { count: observed.count ?? 1, firstTimestamp: observed.firstTimestamp ?? '', name: observed.metadata.name ?? '' });
    return observed;
  }

  /** EventSourceObjectSpamFilter: a token bucket per source and object, full at first. */
  #allowed(event: Event, now: number): boolean {
    const key = spamKey(event);
    const bucket = this.#spam.get(key) ?? { tokens: defaultSpamBurst, at: now };
    bucket.tokens = Math.min(defaultSpamBurst, bucket.tokens + ((now - bucket.at) / 1000) * defaultSpamQps);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#spam.set(key, bucket);
    return allowed;
  }
}

export interface CoreEventWriterOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** Every write after the one before it (one broadcaster goroutine, as the kubelet's); else only a key's. */
  inOrder?: boolean;
}

/**
 * recordToSink: correlates each event, then creates it or patches the existing one's count, message and
 * lastTimestamp (a repeat whose event is gone is created again). Fire and forget; a failure is logged.
 */
export class CoreEventWriter {
  readonly #o: CoreEventWriterOptions;
  readonly #correlator: EventCorrelator;
  readonly #pending = new Map<string, Promise<void>>();
  #chain: Promise<void> = Promise.resolve();

  constructor(options: CoreEventWriterOptions) {
    this.#o = options;
    this.#correlator = new EventCorrelator(options.clock);
  }

  /** `what` names the event in a failure's log line. */
  write(event: Event, what: string): void {
    const correlated = this.#correlator.correlate(event);
    if (!correlated) return;
    const { key } = correlated;
    const after = this.#o.inOrder ? this.#chain : (this.#pending.get(key) ?? Promise.resolve());
    const written = after.then(() => this.#send(correlated)).catch((error: unknown) => {
      this.#o.log(`${event.source?.component ?? ''}: event ${event.reason ?? ''} ${what}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (this.#o.inOrder) this.#chain = written;
    else {
      this.#pending.set(key, written);
      void written.then(() => {
        if (this.#pending.get(key) === written) this.#pending.delete(key);
      });
    }
  }

  /** Resolves once every event written so far is sent (in-order writers only). */
  flush(): Promise<void> {
    return this.#chain;
  }

  async #send({ event, repeat }: Correlated): Promise<void> {
    const namespace = event.metadata.namespace || 'default';
    if (repeat) {
      try {
        await this.#o.client.patch(refs.events, namespace, event.metadata.name ?? '', 'strategic', { message: event.message, count: event.count, lastTimestamp: event.lastTimestamp });
        return;
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      }
    }
    await this.#o.client.create<Event>(refs.events, event, { namespace });
  }
}
