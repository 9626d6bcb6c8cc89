// Records core/v1 Events for the Job controller (source component `job-controller`), the
// way client-go's recorder does: fire and forget, repeats of the same event bump its count.
// Upstream: client-go/tools/record/{event.go,events_cache.go}.
import type { Client } from '../../client/index.ts';
import type { Clock, DeepReadonly, ObjectMeta, Random } from '../../core/index.ts';
import { formatTime } from '../../core/index.ts';
import type { Event } from '../../api/index.ts';
import { refs } from '../../api/index.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  event(obj: { readonly apiVersion?: string | undefined; readonly kind?: string | undefined; readonly metadata: DeepReadonly<ObjectMeta> }, type: EventType, reason: string, message: string): void;
}

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  random: Random;
  component: string;
  log: (line: string) => void;
}

export function createEventRecorder(options: EventRecorderOptions): EventRecorder {
  const { client, clock, random, component, log } = options;
  // Keyed by what makes two events the same; holds the stored event to bump.
  const seen = new Map<string, Promise<Event | undefined>>();
  const record = async (key: string, previous: Promise<Event | undefined> | undefined, build: () => Event): Promise<Event | undefined> => {
    const prior = await previous;
    const now = formatTime(clock.now());
    try {
      if (prior) {
        return await client.update<Event>(refs.events, { ...prior, count: (prior.count ?? 1) + 1, lastTimestamp: now });
      }
      return await client.create<Event>(refs.events, build());
    } catch (error) {
      log(`${component}: recording event ${key}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };
  return {
    event(obj, type, reason, message) {
      const meta = obj.metadata;
      const namespace = meta.namespace ?? 'default';
      const key = [meta.uid ?? '', type, reason, message].join('\u0000');
      const build = (): Event => {
        const now = formatTime(clock.now());
        const name = `${meta.name ?? ''}.${(clock.now() * 1000 + random.int(1_000_000)).toString(16)}`;
        return {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name, namespace },
          involvedObject: {
            kind: obj.kind ?? '',
            namespace,
            name: meta.name ?? '',
            uid: meta.uid ?? '',
            apiVersion: obj.apiVersion ?? '',
            resourceVersion: meta.resourceVersion ?? '',
          },
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
      };
      const next = record(key, seen.get(key), build);
      seen.set(key, next);
      if (seen.size > 4096) seen.delete(seen.keys().next().value ?? '');
    },
  };
}
