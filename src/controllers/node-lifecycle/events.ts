// Records core/v1 Events the way client-go's EventRecorder does for these controllers: named
// <object>.<hex>, in the object's namespace (Node events go to "default"), through its correlator.
// Upstream: staging/src/k8s.io/client-go/tools/record/event.go (makeEvent).
import type { Event } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { CoreEventWriter, eventNanos } from '../../client/index.ts';
import type { Clock } from '../../core/index.ts';
import { formatTime } from '../../core/index.ts';

export interface EventTarget {
  kind: 'Node' | 'Pod';
  name: string;
  namespace?: string;
  uid?: string;
}

export type RecordEvent = (target: EventTarget, type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** A fire-and-forget recorder through client-go's correlator: a failed Event write is logged, never retried. */
export function eventRecorder(options: { client: Client; clock: Clock; component: string; log: (line: string) => void }): RecordEvent {
  const writer = new CoreEventWriter(options);
  return (target, type, reason, message) => {
    const now = options.clock.now();
    const namespace = target.namespace || 'default';
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${target.name}.${eventNanos(now).toString(16)}`, namespace },
      involvedObject: {
        apiVersion: 'v1',
        kind: target.kind,
        name: target.name,
        ...(target.namespace ? { namespace: target.namespace } : {}),
        ...(target.uid ? { uid: target.uid } : {}),
      },
      reason,
      message,
      source: { component: options.component },
      firstTimestamp: formatTime(now),
      lastTimestamp: formatTime(now),
      count: 1,
      type,
      eventTime: null,
      reportingComponent: options.component,
      reportingInstance: '',
    };
    writer.write(event, `for ${target.kind} ${target.name}`);
  };
}
