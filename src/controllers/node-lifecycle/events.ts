// Records core/v1 Events the way client-go's EventRecorder does for these controllers: one Event
// per occurrence, named <object>.<hex>, in the object's namespace (Node events go to "default").
// Upstream: staging/src/k8s.io/client-go/tools/record/event.go (makeEvent).
import { refs } from '../../api/index.ts';
import type { Event } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import type { Clock } from '../../core/index.ts';
import { formatTime, unixNanos } from '../../core/index.ts';

export interface EventTarget {
  kind: 'Node' | 'Pod';
  name: string;
  namespace?: string;
  uid?: string;
}

export type RecordEvent = (target: EventTarget, type: 'Normal' | 'Warning', reason: string, message: string) => void;

/** A fire-and-forget recorder: a failed Event write is logged, never retried (as client-go drops them). */
export function eventRecorder(options: { client: Client; clock: Clock; component: string; log: (line: string) => void }): RecordEvent {
  let seq = 0;
  return (target, type, reason, message) => {
    const now = options.clock.now();
    const namespace = target.namespace || 'default';
    // client-go names events <name>.<UnixNano in hex>; a counter keeps same-instant events apart.
    const suffix = (unixNanos(now) + BigInt(seq++ % 1_000_000)).toString(16);
    const event: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${target.name}.${suffix}`, namespace },
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
    options.client.create(refs.events, event, { namespace }).catch((error: unknown) => {
      options.log(`${options.component}: cannot record event ${reason} for ${target.kind} ${target.name}: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}
