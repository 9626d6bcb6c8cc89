import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRfc3339 } from './rfc3339.ts';

const message = (text: string): string => {
  const r = parseRfc3339(text);
  return r.ok ? `ok ${new Date(r.ms).toISOString()}` : r.message;
};

test('RFC 3339 times parse as Go parses them, offsets and fractions included', () => {
  assert.equal(message('2026-12-06T01:02:03Z'), 'ok 2026-12-06T01:02:03.000Z');
  assert.equal(message('2026-12-06T01:02:03.250+02:00'), 'ok 2026-12-05T23:02:03.250Z');
  assert.equal(message('2024-02-29T00:00:00-00:30'), 'ok 2024-02-29T00:30:00.000Z');
});

test("text that is not one fails with time.ParseError's words at the element where it goes wrong", () => {
  assert.equal(message('bogus'), 'parsing time "bogus" as "2006-01-02T15:04:05Z07:00": cannot parse "bogus" as "2006"');
  assert.equal(message('2026-12-06'), 'parsing time "2026-12-06" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"');
  assert.equal(message('2026-12-06 01:02:03Z'), 'parsing time "2026-12-06 01:02:03Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 01:02:03Z" as "T"');
  assert.equal(message('2026-12-06T01:02:03'), 'parsing time "2026-12-06T01:02:03" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
  assert.equal(message('2026-1-06T01:02:03Z'), 'parsing time "2026-1-06T01:02:03Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-06T01:02:03Z" as "01"');
  assert.equal(message('2026-13-06T01:02:03Z'), 'parsing time "2026-13-06T01:02:03Z": month out of range');
  assert.equal(message('2026-02-30T01:02:03Z'), 'parsing time "2026-02-30T01:02:03Z": day out of range');
  assert.equal(message('2026-12-06T24:02:03Z'), 'parsing time "2026-12-06T24:02:03Z": hour out of range');
  assert.equal(message('2026-12-06T01:02:03Zjunk'), 'parsing time "2026-12-06T01:02:03Zjunk": extra text: "junk"');
  assert.equal(message('2026-12-06T01:02:03Z\u00e9'), 'parsing time "2026-12-06T01:02:03Z\\xc3\\xa9": extra text: "\\xc3\\xa9"');
});
