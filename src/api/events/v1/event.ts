// Event (events.k8s.io/v1): the newer representation of the same stored events as core/v1, with
// the conversions both ways, validation (the strict rules) and the shared table.
// Upstream: staging/src/k8s.io/api/events/v1/types.go, pkg/apis/events/v1/conversion.go,
// pkg/registry/core/event/strategy.go (one strategy for both groups), pkg/apis/core/validation/events.go.
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ObjectReference } from '../../core/v1/binding.ts';
import { eventTable, objectReferenceFieldLabels, validateEventCreate, validateEventUpdate } from '../../core/v1/event.ts';
import type { Event as CoreEvent, EventSource } from '../../core/v1/event.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { lookupTable } from '../../../core/index.ts';

export interface EventSeries {
  count: number;
  /** MicroTime. */
  lastObservedTime: string;
}

export interface Event extends KubeObject {
  apiVersion?: 'events.k8s.io/v1';
  kind?: 'Event';
  metadata: ObjectMeta;
  /** MicroTime; required for new events, null for ones written through core/v1 without it. */
  eventTime: string | null;
  series?: EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
}

function assign<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

const isSet = (s: string | null | undefined): s is string => typeof s === 'string' && s !== '';

/** Convert_core_Event_To_v1_Event, on wire shapes. */
export function coreEventToEventsV1(e: CoreEvent): Event {
  const out: Event = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: structuredClone(e.metadata), eventTime: isSet(e.eventTime) ? e.eventTime : null };
  if (e.series) {
    out.series = { count: e.series.count ?? 0, lastObservedTime: e.series.lastObservedTime ?? '' };
  }
  assign(out, 'reportingController', e.reportingComponent || undefined);
  assign(out, 'reportingInstance', e.reportingInstance || undefined);
  assign(out, 'action', e.action || undefined);
  assign(out, 'reason', e.reason || undefined);
  out.regarding = structuredClone(e.involvedObject ?? {});
  assign(out, 'related', e.related ? structuredClone(e.related) : undefined);
  assign(out, 'note', e.message || undefined);
  assign(out, 'type', e.type || undefined);
  // Go serializes the empty struct and the zero times too.
  out.deprecatedSource = structuredClone(e.source ?? {});
  out.deprecatedFirstTimestamp = isSet(e.firstTimestamp) ? e.firstTimestamp : null;
  out.deprecatedLastTimestamp = isSet(e.lastTimestamp) ? e.lastTimestamp : null;
  assign(out, 'deprecatedCount', e.count || undefined);
  return out;
}

/** Convert_v1_Event_To_core_Event, on wire shapes. */
export function eventsV1ToCoreEvent(e: Event): CoreEvent {
  const out: CoreEvent = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: structuredClone(e.metadata),
    involvedObject: structuredClone(e.regarding ?? {}),
    source: structuredClone(e.deprecatedSource ?? {}),
    firstTimestamp: isSet(e.deprecatedFirstTimestamp) ? e.deprecatedFirstTimestamp : null,
    lastTimestamp: isSet(e.deprecatedLastTimestamp) ? e.deprecatedLastTimestamp : null,
    eventTime: isSet(e.eventTime) ? e.eventTime : null,
    reportingComponent: e.reportingController ?? '',
    reportingInstance: e.reportingInstance ?? '',
  };
  assign(out, 'reason', e.reason);
  assign(out, 'message', e.note);
  assign(out, 'count', e.deprecatedCount);
  assign(out, 'type', e.type);
  assign(out, 'action', e.action);
  assign(out, 'related', e.related ? structuredClone(e.related) : undefined);
  if (e.series) out.series = { count: e.series.count, lastObservedTime: e.series.lastObservedTime };
  return out;
}

/** The field selectors events.k8s.io accepts, mapped onto the stored core fields. */
export const eventsV1FieldLabels: Readonly<Record<string, (e: Event) => string>> = lookupTable({
  reason: (e) => e.reason ?? '',
  ...objectReferenceFieldLabels<Event>('regarding', (e) => e.regarding),
  reportingController: (e) => e.reportingController ?? '',
  type: (e) => e.type ?? '',
});

const eventsV1Table: TablePrinter<Event> = {
  columns: eventTable.columns,
  cells: (e, now) => eventTable.cells(eventsV1ToCoreEvent(e), now),
};

export function validateEventsV1Create(e: Event): FieldError[] {
  return validateEventCreate(eventsV1ToCoreEvent(e), 'events.k8s.io/v1');
}

export function validateEventsV1Update(e: Event, old: Event): FieldError[] {
  return validateEventUpdate(eventsV1ToCoreEvent(e), eventsV1ToCoreEvent(old), 'events.k8s.io/v1');
}

export const eventsV1EventDefinition: ResourceDefinition<Event> = {
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  hasStatus: false,
  validateCreate: validateEventsV1Create,
  validateUpdate: validateEventsV1Update,
  table: eventsV1Table,
  fieldLabels: eventsV1FieldLabels,
  // Upstream serves events.k8s.io/v1 from the core/v1 Event registry: one object, two forms.
  storedAs: {
    group: '',
    resource: 'events',
    toStored: (e) => eventsV1ToCoreEvent(e) as unknown as KubeObject,
    fromStored: (e) => coreEventToEventsV1(e as unknown as CoreEvent),
  },
};
