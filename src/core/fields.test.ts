import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeFieldValue,
  fieldSelectorRequiresExactMatch,
  parseFieldSelector,
  unescapeFieldValue,
  unsupportedFieldLabels,
  type FieldSelectorMatcher,
} from './fields.ts';

function mustParse(text: string): FieldSelectorMatcher {
  const r = parseFieldSelector(text);
  if (!r.ok) throw new Error(r.message);
  return r.selector;
}

test('parseFieldSelector splits, sorts and unescapes terms', () => {
  const table: [string, string, { field: string; operator: '=' | '!='; value: string }[]][] = [
    ['', '', []],
    ['metadata.name=web', 'metadata.name=web', [{ field: 'metadata.name', operator: '=', value: 'web' }]],
    ['spec.nodeName==n1', 'spec.nodeName=n1', [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]],
    [
      'status.phase!=Failed,spec.nodeName=n,status.phase!=Succeeded',
      'spec.nodeName=n,status.phase!=Failed,status.phase!=Succeeded',
      [
        { field: 'spec.nodeName', operator: '=', value: 'n' },
        { field: 'status.phase', operator: '!=', value: 'Failed' },
        { field: 'status.phase', operator: '!=', value: 'Succeeded' },
      ],
    ],
    ['a=x\\,y\\=z\\\\', 'a=x\\,y\\=z\\\\', [{ field: 'a', operator: '=', value: 'x,y=z\\' }]],
    ['a=', 'a=', [{ field: 'a', operator: '=', value: '' }]],
    ['a=b,,', 'a=b', [{ field: 'a', operator: '=', value: 'b' }]],
  ];
  for (const [input, canonical, requirements] of table) {
    const s = mustParse(input);
    assert.equal(s.toString(), canonical, input);
    assert.deepEqual(s.requirements, requirements, input);
    assert.equal(s.empty, requirements.length === 0);
  }
});

test('parseFieldSelector reports upstream errors', () => {
  const table: [string, string][] = [
    ['abc', "invalid selector: 'abc'; can't understand 'abc'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a=\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  for (const [input, message] of table) assert.deepEqual(parseFieldSelector(input), { ok: false, message }, input);
});

test('field selectors match through a getter; missing fields read as empty', () => {
  const fields: Record<string, string> = { 'metadata.name': 'web', 'status.phase': 'Running' };
  const get = (f: string): string | undefined => fields[f];
  const table: [string, boolean][] = [
    ['', true],
    ['metadata.name=web', true],
    ['metadata.name!=web', false],
    ['status.phase!=Failed,status.phase!=Succeeded', true],
    ['spec.nodeName=', true],
    ['spec.nodeName=n1', false],
  ];
  for (const [input, expected] of table) assert.equal(mustParse(input).matches(get), expected, input);
});

test('exact-match lookup, supported labels and escaping helpers', () => {
  const s = mustParse('spec.nodeName=n1,status.phase!=Failed,spec.foo=x');
  assert.equal(fieldSelectorRequiresExactMatch(s, 'spec.nodeName'), 'n1');
  assert.equal(fieldSelectorRequiresExactMatch(s, 'status.phase'), undefined);
  assert.deepEqual(unsupportedFieldLabels(s, new Set(['spec.nodeName', 'status.phase', 'metadata.name'])), ['spec.foo']);
  assert.equal(escapeFieldValue('a,b=c\\'), 'a\\,b\\=c\\\\');
  assert.deepEqual(unescapeFieldValue('plain'), { ok: true, value: 'plain' });
});
