// formatTime keeps the last second's text; each value must still print as metav1.Time does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMicroTime, formatTime, unixNanos } from './clock.ts';

test('formatTime prints RFC 3339 seconds, whatever came before', () => {
  const cases: [number, string][] = [
    [Date.UTC(2026, 0, 2, 3, 4, 5, 0), '2026-01-02T03:04:05Z'],
    [Date.UTC(2026, 0, 2, 3, 4, 5, 999), '2026-01-02T03:04:05Z'],
    [Date.UTC(2026, 0, 2, 3, 4, 6, 0), '2026-01-02T03:04:06Z'],
    [Date.UTC(2026, 0, 2, 3, 4, 5, 500), '2026-01-02T03:04:05Z'],
    [0, '1970-01-01T00:00:00Z'],
    [-0.5, '1970-01-01T00:00:00Z'],
    [-1, '1969-12-31T23:59:59Z'],
    [999.9, '1970-01-01T00:00:00Z'],
    [1000.2, '1970-01-01T00:00:01Z'],
    [-1000, '1969-12-31T23:59:59Z'],
    [-1001, '1969-12-31T23:59:58Z'],
  ];
  for (const [ms, want] of cases) assert.equal(formatTime(ms), want, `formatTime(${ms})`);
});

test('formatTime of an invalid time throws every time', () => {
  assert.throws(() => formatTime(Number.NaN), RangeError);
  assert.throws(() => formatTime(Number.NaN), RangeError);
  assert.throws(() => formatTime(9e15), RangeError);
});

test('formatMicroTime prints RFC 3339 microseconds, as metav1.MicroTime does', () => {
  assert.equal(formatMicroTime(Date.UTC(2026, 0, 2, 3, 4, 5, 678)), '2026-01-02T03:04:05.678000Z');
  assert.equal(formatMicroTime(0), '1970-01-01T00:00:00.000000Z');
  assert.equal(formatMicroTime(-1), '1969-12-31T23:59:59.999000Z');
  assert.throws(() => formatMicroTime(Number.NaN), RangeError);
});

test('unixNanos takes the fractional readings of the virtual and scaled clocks', () => {
  assert.equal(unixNanos(1767225905596), 1767225905596000000n);
  assert.equal(unixNanos(1767225905596.5), 1767225905596500000n);
  // A jittered timer's reading: not representable exactly, still a whole number of nanoseconds.
  const jittered = unixNanos(1767225905596.1113);
  assert.ok(jittered > 1767225905596111000n && jittered < 1767225905596112000n, String(jittered));
  assert.equal(unixNanos(0.5), 500000n);
});
