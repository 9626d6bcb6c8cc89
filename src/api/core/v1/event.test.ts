import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { eventDefinition as def, validateEventCreate } from './event.ts';
import type { Event } from './event.ts';

const now = Date.parse('2026-01-01T00:10:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

function event(over: Partial<Event> = {}): Event {
  return {
    metadata: { name: 'web.17c3a', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' },
    involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{app}' },
    reason: 'Started',
    message: 'Started container app\n',
    source: { component: 'kubelet', host: 'cpu-0' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:05:00Z',
    count: 3,
    type: 'Normal',
    eventTime: null,
    reportingComponent: 'kubelet',
    reportingInstance: 'cpu-0',
    ...over,
  };
}

test('event table: every cell, server-side wide', () => {
  assert.deepEqual(def.table?.columns.map((c) => `${c.name}${c.priority ? ' p1' : ''}`), [
    'Last Seen', 'Type', 'Reason', 'Object', 'Subobject p1', 'Source p1', 'Message', 'First Seen p1', 'Count p1', 'Name p1',
  ]);
  assert.deepEqual(def.table?.cells(event(), now), ['5m', 'Normal', 'Started', 'pod/web', 'spec.containers{app}', 'kubelet, cpu-0', 'Started container app', '10m', 3, 'web.17c3a']);
});

test('event table: new-style event uses eventTime, series and the reporting controller', () => {
  const e = event({
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    count: 0,
    eventTime: '2026-01-01T00:08:00.000000Z',
    reportingComponent: 'default-scheduler',
    reportingInstance: '',
  });
  assert.deepEqual(def.table?.cells(e, now).slice(0, 9), ['2m', 'Normal', 'Started', 'pod/web', 'spec.containers{app}', 'default-scheduler', 'Started container app', '2m', 1]);
  const series = event({ series: { count: 7, lastObservedTime: '2026-01-01T00:09:30.000000Z' } });
  const cells = def.table?.cells(series, now) ?? [];
  assert.equal(cells[0], '30s');
  assert.equal(cells[8], 7);
  assert.equal(def.table?.cells(event({ involvedObject: { kind: 'Node' } }), now)[3], 'node');
});

test('event field labels, source falling back to reportingComponent', () => {
  const e = event();
  assert.equal(def.fieldLabels?.['involvedObject.name']?.(e), 'web');
  assert.equal(def.fieldLabels?.['involvedObject.uid']?.(e), 'u1');
  assert.equal(def.fieldLabels?.['source']?.(e), 'kubelet');
  assert.equal(def.fieldLabels?.['source']?.(event({ source: {}, reportingComponent: 'default-scheduler' })), 'default-scheduler');
  assert.equal(def.fieldLabels?.['type']?.(e), 'Normal');
});

test('core/v1 event validation: namespace agreement and reportingComponent naming', () => {
  assert.deepEqual(msgs(def.validateCreate?.(event({ involvedObject: { kind: 'Pod', name: 'web', namespace: 'other' } }), ctx)), [
    'involvedObject.namespace: Invalid value: "other": does not match event.namespace',
  ]);
  const newStyle = event({ eventTime: '2026-01-01T00:00:00.000000Z', reportingComponent: '', reportingInstance: '', action: '' });
  assert.deepEqual(msgs(validateEventCreate(newStyle, 'v1')), [
    'reportingComponent: Required value',
    'reportingComponent: Invalid value: "": name part must be non-empty',
    `reportingComponent: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    'reportingInstance: Required value',
    'action: Required value',
  ]);
});

test('core/v1 event update stays lenient', () => {
  const old = event({ metadata: { name: 'web.17c3a', namespace: 'default', resourceVersion: '5' } });
  const upd = event({ metadata: { name: 'web.17c3a', namespace: 'default', resourceVersion: '5' }, count: 4, message: 'changed' });
  assert.deepEqual(msgs(def.validateUpdate?.(upd, old, ctx)), []);
});

test('an event reads as upstream encodes it: unset times null, source and the reporting fields present', () => {
  const e: Event = { metadata: { name: 'web.1', namespace: 'default' }, involvedObject: { kind: 'Pod', name: 'web' }, reason: 'Scheduled', eventTime: '2026-01-01T00:00:00.000000Z', reportingComponent: 'default-scheduler' };
  def.defaults?.(e);
  assert.deepEqual(
    { source: e.source, firstTimestamp: e.firstTimestamp, lastTimestamp: e.lastTimestamp, eventTime: e.eventTime, reportingComponent: e.reportingComponent, reportingInstance: e.reportingInstance },
    { source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: '2026-01-01T00:00:00.000000Z', reportingComponent: 'default-scheduler', reportingInstance: '' },
  );
});
