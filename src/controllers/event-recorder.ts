// EventRecorder: how controllers write core/v1 Events about the objects they act on, with
// client-go's naming (`<object>.<hex nanoseconds>`) and its correlation of repeats: the same
// (object, type, reason, message) bumps count and lastTimestamp on the existing Event.
// Upstream: client-go/tools/record/{event.go,events_cache.go}.
import { refs } from '../api/index.ts';
import type { Event, ObjectReference } from '../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../core/index.ts';
import { formatTime, isApiError, unixNanos } from '../core/index.ts';
import type { Client } from '../client/index.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  /** Fire and forget, as upstream: a failed write is logged, never thrown. */
  event(obj: DeepReadonly<KubeObject>, type: EventType, reason: string, message: string): void;
}

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  component: string;
  log: (line: string) => void;
  /** apiVersion/kind of objects that arrive without TypeMeta (informer objects usually carry it). */
  typeOf?: (obj: DeepReadonly<KubeObject>) => { apiVersion: string; kind: string };
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  firstTimestamp: string;
}

const maxCached = 4096;
// Shared by every recorder in the process: two components writing about one object at the same
// (virtual) instant must still get distinct Event names.
let lastNanos = 0n;

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const { client, clock, component, log } = options;
  const seen = new Map<string, Seen>();

  const write = async (obj: DeepReadonly<KubeObject>, type: EventType, reason: string, message: string): Promise<void> => {
    const typeMeta = obj.kind && obj.apiVersion ? { apiVersion: obj.apiVersion, kind: obj.kind } : options.typeOf?.(obj);
    const involvedObject: ObjectReference = {
      kind: typeMeta?.kind ?? '',
      namespace: obj.metadata.namespace ?? '',
      name: obj.metadata.name ?? '',
      uid: obj.metadata.uid ?? '',
      apiVersion: typeMeta?.apiVersion ?? '',
      resourceVersion: obj.metadata.resourceVersion ?? '',
    };
    if (!involvedObject.namespace) delete involvedObject.namespace;
    const namespace = obj.metadata.namespace || 'default';
    const now = formatTime(clock.now());
    const key = [involvedObject.uid, type, reason, message].join('\u0000');
    const previous = seen.get(key);
    if (previous) {
      previous.count++;
      seen.delete(key);
      seen.set(key, previous);
      try {
        await client.patch(refs.events, previous.namespace, previous.name, 'strategic', { count: previous.count, lastTimestamp: now });
        return;
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
        seen.delete(key);
      }
    }
    // Unique, increasing names even when the clock stands still (virtual time).
    let nanos = unixNanos(clock.now());
    if (nanos <= lastNanos) nanos = lastNanos + 1n;
    lastNanos = nanos;
    const name = `${involvedObject.name}.${nanos.toString(16)}`;
    const ev: Event = {
      metadata: { name, namespace },
      involvedObject,
      reason,
      message,
      source: { component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: '',
    };
    await client.create(refs.events, ev, { namespace });
    seen.set(key, { name, namespace, count: 1, firstTimestamp: now });
    if (seen.size > maxCached) seen.delete(seen.keys().next().value ?? '');
  };

  return {
    event(obj, type, reason, message) {
      write(obj, type, reason, message).catch((error: unknown) => {
        // A terminating namespace refuses new events; nothing to report then.
        log(`${component}: event ${reason} on ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  };
}
