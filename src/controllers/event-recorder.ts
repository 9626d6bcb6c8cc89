// EventRecorder: how controllers write core/v1 Events about the objects they act on, with
// client-go's naming (`<object>.<hex nanoseconds>`) and its correlator (repeats counted, similar
// events combined, a source's burst about one object limited).
// Upstream: client-go/tools/record/event.go (makeEvent).
import type { Event, ObjectReference } from '../api/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../core/index.ts';
import { formatTime } from '../core/index.ts';
import type { Client } from '../client/index.ts';
import { CoreEventWriter, eventNanos } from '../client/index.ts';

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

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const { client, clock, component, log } = options;
  const writer = new CoreEventWriter({ client, clock, log });
  return {
    event(obj, type, reason, message) {
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
      const now = clock.now();
      const ev: Event = {
        metadata: { name: `${involvedObject.name}.${eventNanos(now).toString(16)}`, namespace: obj.metadata.namespace || 'default' },
        involvedObject,
        reason,
        message,
        source: { component },
        firstTimestamp: formatTime(now),
        lastTimestamp: formatTime(now),
        count: 1,
        type,
        eventTime: null,
        reportingComponent: component,
        reportingInstance: '',
      };
      // A terminating namespace refuses new events; the failure is only logged.
      writer.write(ev, `on ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`);
    },
  };
}
