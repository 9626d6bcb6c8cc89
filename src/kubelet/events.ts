// The kubelet's event recorder: core/v1 Events with source {component: kubelet, host: <node>},
// written in order through client-go's EventCorrelator (repeats counted, similar events combined,
// a burst about one object limited). Upstream: client-go/tools/record (event.go, events_cache.go).
import type { Event } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import { CoreEventWriter, eventNanos } from '../client/index.ts';
import type { Clock } from '../core/index.ts';
import { formatTime } from '../core/index.ts';
import type { DeepReadonlyPod } from './types.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  client: Client;
  clock: Clock;
  node: string;
  log: (line: string) => void;
}

export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #writer: CoreEventWriter;

  constructor(options: EventRecorderOptions) {
    this.#o = options;
    this.#writer = new CoreEventWriter({ client: options.client, clock: options.clock, log: (line) => options.log(`kubelet ${options.node}: ${line}`), inOrder: true });
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
    this.#writer.write(this.#event(involvedObject, namespace, type, reason, message), `for pod ${namespace}/${pod.metadata.name ?? ''}`);
  }

  /**
   * An event about the kubelet's own Node. The kubelet refers to its node by name, with the name as
   * uid and no namespace (kubelet.go nodeRef); events of cluster-scoped objects live in `default`.
   */
  recordNode(type: EventType, reason: string, message: string): void {
    const node = this.#o.node;
    this.#writer.write(this.#event({ kind: 'Node', name: node, uid: node }, 'default', type, reason, message), `for node ${node}`);
  }

  /** Resolves once every event recorded so far is written. */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  #event(involvedObject: Event['involvedObject'], namespace: string, type: EventType, reason: string, message: string): Event {
    const now = this.#o.clock.now();
    // Upstream names events <object>.<unix nanos in hex>.
    const name = `${involvedObject.name ?? ''}.${eventNanos(now).toString(16)}`;
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

/** format.Pod: how the kubelet names a pod in its messages. Upstream: pkg/kubelet/util/format/pod.go. */
export function formatPod(pod: DeepReadonlyPod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid ?? ''})`;
}
