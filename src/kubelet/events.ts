// The kubelet's event recorder: core/v1 Events with source {component: kubelet, host: <node>},
// written in order, and repeats of the same event folded into count/lastTimestamp as client-go's
// EventCorrelator does. Upstream: client-go/tools/record (event.go, events_cache.go).
import { refs } from '../api/index.ts';
import type { Event } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock } from '../core/index.ts';
import { formatTime, unixNanos } from '../core/index.ts';
import type { DeepReadonlyPod } from './types.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  node: string;
  log: (line: string) => void;
}

/** What is kept of an event written: enough to patch its count, as client-go's correlator does. */
interface Seen {
  name: string;
  namespace: string;
  count: number;
}

const maxRemembered = 4096;

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #seen = new Map<string, Seen>();
  #chain: Promise<void> = Promise.resolve();
  #seq = 0;

  constructor(options: EventRecorderOptions) {
    this.#o = options;
  }

  /** `fieldPath` is `spec.containers{name}` / `spec.initContainers{name}` for container events. */
  record(pod: DeepReadonlyPod, type: EventType, reason: string, message: string, fieldPath?: string): void {
    const namespace = pod.metadata.namespace ?? 'default';
    const involvedObject: Event['involvedObject'] = {
      kind: 'Pod',
      namespace,
      name: pod.metadata.name ?? '',
      apiVersion: 'v1',
      ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
      ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
      ...(fieldPath ? { fieldPath } : {}),
    };
    this.#record(involvedObject, namespace, `${pod.metadata.uid ?? ''}\u0000${fieldPath ?? ''}`, type, reason, message, `pod ${namespace}/${pod.metadata.name ?? ''}`);
  }

  /**
   * An event about the kubelet's own Node. The kubelet refers to its node by name, with the name as
   * uid and no namespace (kubelet.go nodeRef); events of cluster-scoped objects live in `default`.
   */
  recordNode(type: EventType, reason: string, message: string): void {
    const node = this.#o.node;
    this.#record({ kind: 'Node', name: node, uid: node }, 'default', `node\u0000${node}`, type, reason, message, `node ${node}`);
  }

  #record(involvedObject: Event['involvedObject'], namespace: string, objectKey: string, type: EventType, reason: string, message: string, what: string): void {
    const now = this.#o.clock.now();
    const key = [objectKey, type, reason, message].join('\u0000');
    const write = async (): Promise<void> => {
      const seen = this.#seen.get(key);
      if (seen) {
        seen.count++;
        // Upstream (client-go events_cache.go eventObserve) diffs the event against a copy with
        // count, lastTimestamp and message blanked, so its strategic merge patch carries those
        // three; a failed patch falls back to a new event.
        try {
          await this.#o.client.patch(refs.events, seen.namespace, seen.name, 'strategic', { message, count: seen.count, lastTimestamp: formatTime(now) });
          return;
        } catch {
          this.#seen.delete(key);
        }
      }
      const event = this.#event(involvedObject, namespace, type, reason, message, now);
      const created = await this.#o.client.create<Event>(refs.events, event);
      if (this.#seen.size >= maxRemembered) this.#seen.delete(this.#seen.keys().next().value as string);
      this.#seen.set(key, { name: created.metadata.name ?? '', namespace, count: 1 });
    };
    this.#chain = this.#chain.then(write).catch((error: unknown) => {
      this.#o.log(`kubelet ${this.#o.node}: event ${reason} for ${what}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** Resolves once every event recorded so far is written. */
  flush(): Promise<void> {
    return this.#chain;
  }

  #event(involvedObject: Event['involvedObject'], namespace: string, type: EventType, reason: string, message: string, now: number): Event {
    // Upstream names events <object>.<unix nanos in hex>.
    const name = `${involvedObject.name ?? ''}.${(unixNanos(now) + BigInt(this.#seq++ % 1_000_000)).toString(16)}`;
    return {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject,
      reason,
      message,
      source: { component: 'kubelet', host: this.#o.node },
      firstTimestamp: formatTime(now),
      lastTimestamp: formatTime(now),
      count: 1,
      type,
      eventTime: null,
      reportingComponent: 'kubelet',
      reportingInstance: this.#o.node,
    };
  }
}
