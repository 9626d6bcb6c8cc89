// client-go's EventCorrelator and its sink: what every core/v1 event recorder does before it writes.
// Repeats of one event become a count on the first; an object's eleventh distinct message of one
// reason within 10 minutes becomes "(combined from similar events): ..."; a source may burst 25
// events about one object, then one every 5 minutes, the rest dropped.
// Upstream: client-go/tools/record/events_cache.go (EventAggregate, eventObserve, the spam filter),
// event.go (recordToSink, recordEvent).
import { refs } from '../api/index.ts';
import type { Event } from '../api/index.ts';
import type { Clock } from '../core/index.ts';
import { formatTime, hasStatusCause, isApiError, namespaceTerminatingCause, unixNanos } from '../core/index.ts';
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

/**
 * A 30-bit hash of an event's message (FNV-1a folded), a small integer: what is remembered of an event
 * is its hash, not its text, so a running pod's remembered events cost a few words each. Two messages
 * of one reason about one object colliding (about one in a billion) would count as one event.
 */
function messageHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h ^ (h >>> 30)) & 0x3fffffff;
}

/** The message hash of a combined event's observation: no message of its own. */
const combinedMessage = -1;

/** One event written: enough to make a repeat a count on it (eventObserve's eventLog). */
interface Observation {
  readonly type: string;
  readonly reason: string;
  readonly fieldPath: string;
  readonly message: number;
  count: number;
  /** Unix seconds (a small integer), as firstTimestamp has them. */
  readonly firstAt: number;
  readonly name: string;
}

/**
 * The aggregator's record of one type and reason about one object: the distinct messages (hashed) of
 * the window, one number while there is only one, and when the last came (Unix seconds).
 */
interface AggregateWindow {
  readonly type: string;
  readonly reason: string;
  messages: number | number[];
  lastAt: number;
}

/** One object's events from this writer's source: its spam-filter bucket, windows and observations. */
interface ObjectState {
  tokens: number;
  at: number;
  readonly windows: AggregateWindow[];
  readonly observed: Observation[];
}

/** Observations kept per object (upstream's LRU holds 4096 per source; an object rarely has more than a few). */
const maxObservationsPerObject = 64;
const aggregateIntervalSeconds = defaultAggregateIntervalMs / 1000;

/**
 * The object an event is about. One writer has one source (component, host) and one reporting
 * controller, so upstream's keys differ only in the object, type, reason, field path and message.
 */
function objectKey(e: Event): string {
  const o = e.involvedObject;
  return o.uid ? o.uid : `${o.kind ?? ''}\u0000${o.namespace ?? ''}\u0000${o.name ?? ''}\u0000${o.apiVersion ?? ''}`;
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
  readonly #objects = new Lru<ObjectState>(maxLruCacheEntries);

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** EventCorrelate: aggregate, observe, then the spam filter; undefined when the filter drops it. */
  correlate(event: Event): Correlated | undefined {
    const now = this.#clock.now();
    const objectId = objectKey(event);
    const object = this.#objects.get(objectId) ?? { tokens: defaultSpamBurst, at: now, windows: [], observed: [] };
    this.#objects.set(objectId, object);
    const type = event.type ?? '';
    const reason = event.reason ?? '';
    const message = messageHash(event.message ?? '');
    const key = `${objectId}\u0000${type}\u0000${reason}`;
    const correlated = aggregate(object, type, reason, message, Math.floor(now / 1000)) ? observe(object, event, message, key) : combine(object, event, now, key);
    return allowed(object, now) ? correlated : undefined;
  }
}

/**
 * EventAggregate: whether the event stands on its own (under 10 distinct messages of its reason in the
 * window, which restarts after 10 quiet minutes); otherwise one message is forgotten, as PopAny does.
 */
function aggregate(object: ObjectState, type: string, reason: string, message: number, nowSeconds: number): boolean {
  let w = object.windows.find((x) => x.reason === reason && x.type === type);
  if (!w) {
    object.windows.push({ type, reason, messages: message, lastAt: nowSeconds });
    return true;
  }
  if (nowSeconds - w.lastAt > aggregateIntervalSeconds) w.messages = [];
  w.lastAt = nowSeconds;
  let messages = typeof w.messages === 'number' ? [w.messages] : w.messages;
  if (!messages.includes(message)) messages = [...messages, message];
  if (messages.length >= defaultAggregateMaxEvents) {
    messages.shift();
    w.messages = messages;
    return false;
  }
  w.messages = messages.length === 1 ? (messages[0] as number) : messages;
  return true;
}

/** eventObserve of an event of its own: a repeat of an observed one is one count higher on it. */
function observe(object: ObjectState, event: Event, message: number, key: string): Correlated {
  const fieldPath = event.involvedObject.fieldPath ?? '';
  const type = event.type ?? '';
  const reason = event.reason ?? '';
  const last = object.observed.find((o) => o.message === message && o.reason === reason && o.type === type && o.fieldPath === fieldPath);
  const eventKey = `${key}\u0000${fieldPath}\u0000${message}`;
  if (!last) {
    remember(object, { type, reason, fieldPath, message, count: 1, firstAt: Math.floor(Date.parse(event.firstTimestamp ?? '') / 1000), name: event.metadata.name ?? '' });
    return { event, key: eventKey, repeat: false };
  }
  last.count++;
  return { event: repeated(event, last), key: eventKey, repeat: true };
}

/** The aggregator's combined event, observed under its reason's own key. */
function combine(object: ObjectState, event: Event, now: number, key: string): Correlated {
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
  const type = event.type ?? '';
  const reason = event.reason ?? '';
  const last = object.observed.find((o) => o.message === combinedMessage && o.reason === reason && o.type === type);
  if (!last) {
    remember(object, { type, reason, fieldPath: '', message: combinedMessage, count: 1, firstAt: Math.floor(now / 1000), name: combined.metadata.name ?? '' });
    return { event: combined, key, repeat: false };
  }
  last.count++;
  return { event: repeated(combined, last), key, repeat: true };
}

function remember(object: ObjectState, observation: Observation): void {
  object.observed.push(observation);
  if (object.observed.length > maxObservationsPerObject) object.observed.shift();
}

function repeated(event: Event, last: Observation): Event {
  return { ...event, metadata: { ...event.metadata, name: last.name }, firstTimestamp: formatTime(last.firstAt * 1000), count: last.count };
}

/** EventSourceObjectSpamFilter: a token bucket per object, full at first, refilled at one per 5 minutes. */
function allowed(object: ObjectState, now: number): boolean {
  object.tokens = Math.min(defaultSpamBurst, object.tokens + ((now - object.at) / 1000) * defaultSpamQps);
  object.at = now;
  if (object.tokens < 1) return false;
  object.tokens -= 1;
  return true;
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

/**
 * A refusal an event writer drops without a word, as client-go's recordToSink does: the event exists
 * already, or its namespace is being deleted (the pods' last events while their namespace goes).
 */
export function quietlyDropped(error: unknown): boolean {
  return (isApiError(error) && error.reason === 'AlreadyExists') || hasStatusCause(error, namespaceTerminatingCause);
}
export class CoreEventWriter {
  readonly #o: CoreEventWriterOptions;
  readonly #correlator: EventCorrelator;
  readonly #pending = new Map<string, Promise<void>>();
  #chain: Promise<void> = Promise.resolve();

  constructor(options: CoreEventWriterOptions) {
    this.#o = options;
    this.#correlator = new EventCorrelator(options.clock);
  }

  /** `what` names the event in a failure's log line. Every event of one writer has one source. */
  write(event: Event, what: string): void {
    const correlated = this.#correlator.correlate(event);
    if (!correlated) return;
    const { key } = correlated;
    const after = this.#o.inOrder ? this.#chain : (this.#pending.get(key) ?? Promise.resolve());
    const written = after.then(() => this.#send(correlated)).catch((error: unknown) => {
      if (quietlyDropped(error)) return;
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
