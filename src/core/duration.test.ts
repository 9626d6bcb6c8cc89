// Tables from upstream apimachinery/pkg/util/duration/duration_test.go and Go's time_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatGoDuration,
  formatGoDurationNanos,
  humanDuration,
  parseGoDuration,
  parseGoDurationNanos,
  shortHumanDuration,
  translateTimestampSince,
} from './duration.ts';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;
const y = 365 * d;

test('humanDuration cut-offs match upstream', () => {
  const table: [number, string][] = [
    [-2 * s, '<invalid>'],
    [-1.9 * s, '0s'],
    [-0.5 * s, '0s'],
    [0, '0s'],
    [1 * s, '1s'],
    [70 * s, '70s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 1 * s, '2m1s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 30 * m, '3h30m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h, '8h'],
    [47 * h + 59 * m, '47h'],
    [48 * h, '2d'],
    [48 * h + 5 * h, '2d5h'],
    [8 * d - 1, '7d23h'],
    [8 * d, '8d'],
    [2 * y - 1, '729d'],
    [2 * y, '2y'],
    [2 * y + 10 * d, '2y10d'],
    [8 * y - 1, '7y364d'],
    [8 * y, '8y'],
    [100 * y, '100y'],
  ];
  for (const [ms, expected] of table) assert.equal(humanDuration(ms), expected, String(ms));
});

test('shortHumanDuration keeps one unit', () => {
  const table: [number, string][] = [
    [-2 * s, '<invalid>'],
    [-1 * s, '0s'],
    [59 * s, '59s'],
    [60 * s, '1m'],
    [59 * m, '59m'],
    [60 * m, '1h'],
    [23 * h, '23h'],
    [24 * h, '1d'],
    [364 * d, '364d'],
    [365 * d, '1y'],
  ];
  for (const [ms, expected] of table) assert.equal(shortHumanDuration(ms), expected, String(ms));
});

test('translateTimestampSince renders AGE cells', () => {
  const now = Date.parse('2025-01-01T01:00:00Z');
  assert.equal(translateTimestampSince(undefined, now), '<unknown>');
  assert.equal(translateTimestampSince('2025-01-01T00:55:00Z', now), '5m');
  assert.equal(translateTimestampSince('2025-01-01T01:00:05Z', now), '<invalid>');
});

test('parseGoDuration accepts what time.ParseDuration accepts', () => {
  const table: [string, number][] = [
    ['0', 0],
    ['-0', 0],
    ['5s', 5000],
    ['30s', 30000],
    ['1478s', 1478000],
    ['-5s', -5000],
    ['+5s', 5000],
    ['5.0s', 5000],
    ['5.6s', 5600],
    ['5.s', 5000],
    ['.5s', 500],
    ['1.004s', 1004],
    ['500ms', 500],
    ['10ns', 0.00001],
    ['11us', 0.011],
    ['12µs', 0.012],
    ['12μs', 0.012],
    ['3h30m', 12_600_000],
    ['1h2m3.5s', 3_723_500],
    ['-1.5h', -5_400_000],
    ['39h9m14.425s', 140_954_425],
  ];
  for (const [text, ms] of table) assert.equal(parseGoDuration(text), ms, text);
  assert.equal(parseGoDurationNanos('9223372036854775807ns').ok, true);
});

test('parseGoDuration rejects with Go error texts', () => {
  const table: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['3', 'time: missing unit in duration "3"'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['.', 'time: invalid duration "."'],
    ['-.', 'time: invalid duration "-."'],
    ['.s', 'time: invalid duration ".s"'],
    ['+.s', 'time: invalid duration "+.s"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
  ];
  for (const [text, message] of table) {
    assert.deepEqual(parseGoDurationNanos(text), { ok: false, message }, text);
    assert.equal(parseGoDuration(text), undefined);
  }
});

test('formatGoDuration matches Duration.String()', () => {
  const table: [bigint, string][] = [
    [0n, '0s'],
    [1n, '1ns'],
    [1100n, '1.1µs'],
    [2_200_000n, '2.2ms'],
    [3_300_000_000n, '3.3s'],
    [4n * 60n * 1_000_000_000n + 5_000_000_000n, '4m5s'],
    [4n * 60n * 1_000_000_000n + 5_001_000_000n, '4m5.001s'],
    [5n * 3_600_000_000_000n + 6n * 60_000_000_000n + 7_001_000_000n, '5h6m7.001s'],
    [8n * 60_000_000_000n + 1n, '8m0.000000001s'],
    [9223372036854775807n, '2562047h47m16.854775807s'],
    [-9223372036854775808n, '-2562047h47m16.854775808s'],
  ];
  for (const [nanos, expected] of table) assert.equal(formatGoDurationNanos(nanos), expected, expected);
  assert.equal(formatGoDuration(60_000), '1m0s');
  assert.equal(formatGoDuration(3_600_000), '1h0m0s');
  assert.equal(formatGoDuration(500), '500ms');
});
