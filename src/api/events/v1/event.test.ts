import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { Event as CoreEvent } from '../../core/v1/event.ts';
import { coreEventToEventsV1, eventsV1EventDefinition as def, eventsV1ToCoreEvent } from './event.ts';
import type { Event } from './event.ts';

const now = Date.parse('2026-01-01T00:01:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

function event(over: Partial<Event> = {}): Event {
  return {
    metadata: { name: 'web.1', namespace: 'default', resourceVersion: '4' },
    eventTime: '2026-01-01T00:00:00.000000Z',
    reportingController: 'default-scheduler',
    reportingInstance: 'default-scheduler-drydock',
    action: 'Binding',
    reason: 'Scheduled',
    regarding: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1' },
    note: 'Successfully assigned default/web to cpu-0',
    type: 'Normal',
    ...over,
  };
}

test('events.k8s.io -> core/v1 renames fields and fills Go zero values', () => {
  assert.deepEqual(eventsV1ToCoreEvent(event({ deprecatedCount: 2, series: { count: 2, lastObservedTime: '2026-01-01T00:00:30.000000Z' } })), {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web.1', namespace: 'default', resourceVersion: '4' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1' },
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    eventTime: '2026-01-01T00:00:00.000000Z',
    reportingComponent: 'default-scheduler',
    reportingInstance: 'default-scheduler-drydock',
    reason: 'Scheduled',
    message: 'Successfully assigned default/web to cpu-0',
    count: 2,
    type: 'Normal',
    action: 'Binding',
    series: { count: 2, lastObservedTime: '2026-01-01T00:00:30.000000Z' },
  });
});

test('core/v1 -> events.k8s.io for a kubelet-style event', () => {
  const core: CoreEvent = {
    metadata: { name: 'web.2', namespace: 'default' },
    involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
    reason: 'Started',
    message: 'Started container app',
    source: { component: 'kubelet', host: 'cpu-0' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:00:10Z',
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: 'cpu-0',
  };
  const v1 = coreEventToEventsV1(core);
  assert.deepEqual(v1, {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: 'web.2', namespace: 'default' },
    eventTime: null,
    reportingController: 'kubelet',
    reportingInstance: 'cpu-0',
    reason: 'Started',
    regarding: { kind: 'Pod', name: 'web', namespace: 'default' },
    note: 'Started container app',
    type: 'Normal',
    deprecatedSource: { component: 'kubelet', host: 'cpu-0' },
    deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
    deprecatedLastTimestamp: '2026-01-01T00:00:10Z',
    deprecatedCount: 1,
  });
  assert.deepEqual({ ...eventsV1ToCoreEvent(v1), apiVersion: undefined, kind: undefined }, { ...core, apiVersion: undefined, kind: undefined });
});

test('events.k8s.io create is strict', () => {
  assert.deepEqual(msgs(def.validateCreate?.(event(), ctx)), []);
  const bad = event({
    eventTime: null,
    reportingController: '',
    type: 'Info',
    deprecatedCount: 3,
    deprecatedSource: { component: 'kubelet' },
    series: { count: 1, lastObservedTime: '' },
  });
  assert.deepEqual(msgs(def.validateCreate?.(bad, ctx)), [
    'series.count: Invalid value: "": should be at least 2',
    'series.lastObservedTime: Required value',
    'eventTime: Required value',
    'type: Invalid value: "": has invalid value: Info',
    'count: Invalid value: "": needs to be unset',
    'source: Invalid value: "": needs to be unset',
  ]);
  const noController = event({ reportingController: '' });
  assert.deepEqual(msgs(def.validateCreate?.(noController, ctx)).slice(0, 1), ['reportingController: Required value']);
});

test('events.k8s.io update: note and regarding are immutable', () => {
  const old = event();
  assert.deepEqual(msgs(def.validateUpdate?.(event({ note: 'edited' }), old, ctx)), ['message: Invalid value: "edited": field is immutable']);
  assert.deepEqual(msgs(def.validateUpdate?.(event({ series: { count: 2, lastObservedTime: '2026-01-01T00:00:40.000000Z' } }), old, ctx)), []);
});

test('events.k8s.io table and field selectors use the shared columns', () => {
  const cells = def.table?.cells(event(), now) ?? [];
  assert.deepEqual(cells.slice(0, 7), ['60s', 'Normal', 'Scheduled', 'pod/web', '', 'default-scheduler, default-scheduler-drydock', 'Successfully assigned default/web to cpu-0']);
  assert.equal(def.fieldLabels?.['regarding.name']?.(event()), 'web');
  assert.equal(def.fieldLabels?.['reportingController']?.(event()), 'default-scheduler');
});
