// Event (core/v1): wire types, validation (legacy and the strict events.k8s.io rules, shared with
// events/v1 because upstream serves both from one storage), table and field selectors.
// Upstream: staging/src/k8s.io/api/core/v1/types.go (Event), pkg/apis/core/validation/events.go,
// pkg/registry/core/event/strategy.go, pkg/printers/internalversion/printers.go (printEvent).
import { FieldPath, invalidValue, lookupTable, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { fillZeroFields, zeroFields } from '../../empty-objects.ts';
import { column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { byteLength, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { isDeepEqual } from '../../workload-template.ts';
import type { ObjectReference } from './binding.ts';

export interface EventSource {
  component?: string;
  host?: string;
}

export interface EventSeries {
  count?: number;
  /** MicroTime (RFC 3339 with microseconds). */
  lastObservedTime?: string;
}

export type EventType = 'Normal' | 'Warning';

export interface Event extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Event';
  metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent?: string;
  reportingInstance?: string;
}

export const reportingInstanceLengthLimit = 128;
export const actionLengthLimit = 128;
export const reasonLengthLimit = 128;
export const noteLengthLimit = 1024;

/** Which API the write came through: field names in messages and the strict rules depend on it. */
export type EventRequestVersion = 'v1' | 'events.k8s.io/v1';

const root = (name: string): FieldPath => FieldPath.root(name);
const isSet = (t: string | null | undefined): t is string => typeof t === 'string' && t !== '';

function legacyValidateEvent(e: Event, version: EventRequestVersion): FieldError[] {
  const errs: FieldError[] = [];
  const reportingField = version === 'v1' ? 'reportingComponent' : 'reportingController';
  const ns = e.metadata.namespace ?? '';
  const involvedNs = e.involvedObject?.namespace ?? '';
  const nsPath = root('involvedObject').child('namespace');
  if (!isSet(e.eventTime)) {
    // Old-style events: the event lives where its object does (or in default, for old clients).
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) {
      errs.push(invalidValue(nsPath, involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== 'kube-system') errs.push(invalidValue(nsPath, involvedNs, 'does not match event.namespace'));
    const controller = e.reportingComponent ?? '';
    if (controller === '') errs.push(required(root(reportingField)));
    for (const msg of isQualifiedName(controller)) errs.push(invalidValue(root(reportingField), controller, msg));
    const instance = e.reportingInstance ?? '';
    if (instance === '') errs.push(required(root('reportingInstance')));
    if (byteLength(instance) > reportingInstanceLengthLimit) {
      errs.push(invalidValue(root('reportingInstance'), '', `can have at most ${reportingInstanceLengthLimit} characters`));
    }
    const action = e.action ?? '';
    if (action === '') errs.push(required(root('action')));
    if (byteLength(action) > actionLengthLimit) errs.push(invalidValue(root('action'), '', `can have at most ${actionLengthLimit} characters`));
    const reason = e.reason ?? '';
    if (reason === '') errs.push(required(root('reason')));
    if (byteLength(reason) > reasonLengthLimit) errs.push(invalidValue(root('reason'), '', `can have at most ${reasonLengthLimit} characters`));
    if (byteLength(e.message ?? '') > noteLengthLimit) errs.push(invalidValue(root('message'), '', `can have at most ${noteLengthLimit} characters`));
  }
  for (const msg of isDNS1123Subdomain(ns)) errs.push(invalidValue(root('namespace'), ns, msg));
  return errs;
}

function validateV1EventSeries(e: Event): FieldError[] {
  if (!e.series) return [];
  const errs: FieldError[] = [];
  if ((e.series.count ?? 0) < 2) errs.push(invalidValue(root('series.count'), '', 'should be at least 2'));
  if (!isSet(e.series.lastObservedTime)) errs.push(required(root('series.lastObservedTime')));
  return errs;
}

export function validateEventCreate(e: Event, version: EventRequestVersion): FieldError[] {
  const errs = legacyValidateEvent(e, version);
  // The core/v1 API keeps its historical leniency; only events.k8s.io writes get the strict rules.
  if (version === 'v1') return errs;
  errs.push(...validateObjectMeta(e.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }));
  errs.push(...validateV1EventSeries(e));
  if (!isSet(e.eventTime)) errs.push(required(root('eventTime')));
  if (e.type !== 'Normal' && e.type !== 'Warning') errs.push(invalidValue(root('type'), '', `has invalid value: ${e.type ?? ''}`));
  if (isSet(e.firstTimestamp)) errs.push(invalidValue(root('firstTimestamp'), '', 'needs to be unset'));
  if (isSet(e.lastTimestamp)) errs.push(invalidValue(root('lastTimestamp'), '', 'needs to be unset'));
  if ((e.count ?? 0) !== 0) errs.push(invalidValue(root('count'), '', 'needs to be unset'));
  if (e.source?.component || e.source?.host) errs.push(invalidValue(root('source'), '', 'needs to be unset'));
  return errs;
}

/** MicroTime comparison at microsecond precision (kubernetes#111928). */
function sameMicroTime(a: string | null | undefined, b: string | null | undefined): boolean {
  const micros = (t: string | null | undefined): string => {
    if (!isSet(t)) return '';
    const m = /^(.*?)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(t);
    if (!m) return t;
    const ms = Date.parse(`${m[1] ?? ''}${m[3] ?? ''}`);
    return `${ms}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}`;
  };
  return micros(a) === micros(b);
}

export function validateEventUpdate(e: Event, old: Event, version: EventRequestVersion): FieldError[] {
  const errs = legacyValidateEvent(e, version);
  if (version === 'v1') return errs;
  errs.push(...validateObjectMetaUpdate(e.metadata, old.metadata));
  if (!isDeepEqual(e.series, old.series)) errs.push(...validateV1EventSeries(e));
  const immutable = (field: keyof Event & string, pathName: string = field): void => {
    errs.push(...validateImmutableField(e[field], old[field], root(pathName)));
  };
  immutable('involvedObject');
  immutable('reason');
  immutable('message');
  immutable('source');
  immutable('firstTimestamp');
  immutable('lastTimestamp');
  immutable('count');
  immutable('reason');
  immutable('type');
  if (!sameMicroTime(e.eventTime, old.eventTime)) immutable('eventTime');
  immutable('action');
  immutable('related');
  immutable('reportingComponent', 'reportingController');
  immutable('reportingInstance');
  return errs;
}

/** formatEventSource: component (or reportingController), then `, host` (or reportingInstance). */
export function formatEventSource(e: Event): string {
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

export const eventTable: TablePrinter<Event> = {
  columns: [
    column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    column('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
    column('Object', 'string', 'The object that this event is about.'),
    column(
      'Subobject',
      'string',
      'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
      1,
    ),
    column('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
    column('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
    column('Count', 'string', 'The number of times this event has occurred.', 1),
    { ...nameColumn, priority: 1 },
  ],
  cells(e, now) {
    const firstSeen = isSet(e.firstTimestamp) ? translateTimestampSince(e.firstTimestamp, now) : translateTimestampSince(e.eventTime ?? undefined, now);
    let lastSeen = isSet(e.lastTimestamp) ? translateTimestampSince(e.lastTimestamp, now) : firstSeen;
    let count = e.count ?? 0;
    if (e.series) {
      lastSeen = translateTimestampSince(e.series.lastObservedTime, now);
      count = e.series.count ?? 0;
    } else if (count === 0) {
      // Singleton events don't have a count set in the new API.
      count = 1;
    }
    const kind = (e.involvedObject?.kind ?? '').toLowerCase();
    const target = e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
    return [lastSeen, e.type ?? '', e.reason ?? '', target, e.involvedObject?.fieldPath ?? '', formatEventSource(e), (e.message ?? '').trim(), firstSeen, count, e.metadata.name ?? ''];
  },
};

const referenceFields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

/** The `<prefix>.kind`, `<prefix>.name`, ... field labels of an ObjectReference field. */
export function objectReferenceFieldLabels<T>(prefix: string, ref: (obj: T) => Partial<Record<(typeof referenceFields)[number], string>> | undefined): Record<string, (obj: T) => string> {
  const labels: Record<string, (obj: T) => string> = {};
  for (const field of referenceFields) labels[`${prefix}.${field}`] = (obj) => ref(obj)?.[field] ?? '';
  return labels;
}

/** ToSelectableFields; `source` falls back to the reporting controller for new-style events. */
export const eventFieldLabels: Readonly<Record<string, (e: Event) => string>> = lookupTable({
  ...objectReferenceFieldLabels<Event>('involvedObject', (e) => e.involvedObject),
  reason: (e) => e.reason ?? '',
  reportingComponent: (e) => e.reportingComponent ?? '',
  source: (e) => e.source?.component || e.reportingComponent || '',
  type: (e) => e.type ?? '',
});

/**
 * What upstream's encoding writes for an Event whoever made it: the reference and source are structs,
 * the three times are struct-typed (null at zero) and the reporting fields are not omitempty. An Event
 * written in the events.k8s.io form gets them from its conversion; one written here may lack them.
 */
function defaultEvent(e: Event): void {
  fillZeroFields(e as unknown as Record<string, unknown>, zeroFields('', 'v1', 'Event'));
}

export const eventDefinition: ResourceDefinition<Event> = {
  group: '',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  hasStatus: false,
  defaults: defaultEvent,
  validateCreate: (e) => validateEventCreate(e, 'v1'),
  validateUpdate: (e, old) => validateEventUpdate(e, old, 'v1'),
  table: eventTable,
  fieldLabels: eventFieldLabels,
};
