import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnCell, goJson, parseRfc3339 } from './printer-columns.ts';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);

test('a printer column cell takes the first match, converted to the column type as tableconvertor does', () => {
  const cases: [string, unknown, unknown][] = [
    ['string', 'x', 'x'],
    ['string', { a: 'b', c: [1] }, '{"a":"b","c":[1]}'],
    ['string', ['x', true], '["x",true]'],
    ['string', 3, '3'],
    ['string', 1.5, '1.5'],
    ['string', 1234567.5, '1.2345675e+06'],
    ['string', 0.00001, '1e-05'],
    ['string', true, 'true'],
    ['string', null, '<no value>'],
    ['integer', 1.7, 1],
    ['integer', -1.7, -1],
    ['integer', 5, 5],
    ['integer', '5', null],
    ['integer', true, null],
    ['number', 2, 2],
    ['number', 2.5, 2.5],
    ['number', '2.5', null],
    ['boolean', true, true],
    ['boolean', 'true', null],
    ['boolean', 1, null],
    ['integer', null, null],
    ['date', '2026-01-01T11:00:00Z', '60m'],
    ['date', '2026-01-01T13:00:00+02:00', '60m'],
    ['date', 'yesterday', '<invalid>'],
    ['date', '2026-02-30T00:00:00Z', '<invalid>'],
    ['date', '', '<unknown>'],
    ['date', 1767225600, null],
  ];
  for (const [type, value, expected] of cases) assert.deepEqual(columnCell(type, [value, 'second'], now), expected, `${type} ${JSON.stringify(value)}`);
  assert.equal(columnCell('string', [], now), null, 'no match is an empty cell');
});

test('encoding/json order and escaping: keys sorted, integer-like keys too, HTML characters escaped', () => {
  assert.equal(goJson({ b: 1, a: { '2': 'x', '10': '<&>' } }), '{"a":{"10":"\\u003c\\u0026\\u003e","2":"x"},"b":1}');
});

test('RFC 3339 as time.Parse reads it: fractional seconds and offsets, no out-of-range fields', () => {
  assert.equal(parseRfc3339('2026-01-01T00:00:00.5Z'), Date.UTC(2026, 0, 1) + 500);
  assert.equal(parseRfc3339('2026-01-01T01:00:00+01:00'), Date.UTC(2026, 0, 1));
  assert.equal(parseRfc3339('2026-13-01T00:00:00Z'), undefined);
  assert.equal(parseRfc3339('2026-01-01 00:00:00Z'), undefined);
});
