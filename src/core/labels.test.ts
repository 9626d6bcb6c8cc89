import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  everythingSelector,
  formatLabelSelector,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  labelSelectorFromObject,
  nothingSelector,
  parseLabelSelector,
  selectorFromSet,
  type LabelSelectorMatcher,
} from './labels.ts';

function mustParse(text: string): LabelSelectorMatcher {
  const r = parseLabelSelector(text);
  if (!r.ok) throw new Error(r.message);
  return r.selector;
}

test('parseLabelSelector canonicalizes like upstream String()', () => {
  const table: [string, string][] = [
    ['', ''],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a', 'x=a,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x==a', 'x==a'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    [' x = a , !y ', 'x=a,!y'],
    ['x=', 'x='],
    ['x>1,z<5', 'x>1,z<5'],
    ['x in (in,notin)', 'x in (in,notin)'],
    ['app.kubernetes.io/name=web', 'app.kubernetes.io/name=web'],
  ];
  for (const [input, expected] of table) assert.equal(mustParse(input).toString(), expected, input);
  assert.equal(mustParse('').empty, true);
  assert.equal(mustParse('a').empty, false);
});

test('parseLabelSelector reports upstream errors', () => {
  const keyMsg =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  const table: [string, string][] = [
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    [',', "found ',', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a b', "unable to parse requirement: found 'b', expected: '=', '!=', '==', 'in', notin'"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x=>', "unable to parse requirement: found '>', expected: identifier"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x>1.1', `unable to parse requirement: values[0]: Invalid value: "1.1": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['-x', `unable to parse requirement: <nil>: Invalid value: "-x": ${keyMsg}`],
    [
      'x=a||y',
      `unable to parse requirement: values[0][x]: Invalid value: "a||y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ],
  ];
  for (const [input, message] of table) assert.deepEqual(parseLabelSelector(input), { ok: false, message }, input);
});

test('selectors match label sets', () => {
  const labels = { app: 'web', tier: 'front', replicas: '3' };
  const table: [string, boolean][] = [
    ['', true],
    ['app=web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (db,web)', true],
    ['app notin (web)', false],
    ['missing notin (web)', true],
    ['app', true],
    ['!app', false],
    ['!missing', true],
    ['replicas>2', true],
    ['replicas<3', false],
    ['app>1', false],
    ['app=web,tier=back', false],
  ];
  for (const [input, expected] of table) assert.equal(mustParse(input).matches(labels), expected, input);
  assert.equal(mustParse('!app').matches(undefined), true);
  assert.equal(mustParse('app').matches(undefined), false);
});

test("label keys named as Object.prototype's members parse and match as any other", () => {
  const labels = { app: 'web', toString: 'x' };
  const table: [string, boolean][] = [
    ['constructor', false],
    ['!constructor', true],
    ['toString', true],
    ['toString=x', true],
    ['valueOf notin (x)', true],
    ['hasOwnProperty in (x)', false],
  ];
  for (const [input, expected] of table) assert.equal(mustParse(input).matches(labels), expected, input);
});

test('labelSelectorFromObject follows LabelSelectorAsSelector', () => {
  assert.equal(labelSelectorFromObject(undefined), nothingSelector);
  assert.equal(nothingSelector.matches({}), false);
  assert.equal(labelSelectorFromObject({}), everythingSelector);
  assert.equal(everythingSelector.matches(undefined), true);
  const s = labelSelectorFromObject({
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'In', values: ['b', 'a'] },
      { key: 'env', operator: 'DoesNotExist' },
    ],
  });
  assert.ok(!('error' in s));
  assert.equal(s.toString(), 'app=web,!env,tier in (a,b)');
  assert.equal(s.matches({ app: 'web', tier: 'a' }), true);
  assert.equal(s.matches({ app: 'web', tier: 'a', env: 'x' }), false);
  assert.deepEqual(labelSelectorFromObject({ matchExpressions: [{ key: 'x', operator: 'In', values: [] }] }), {
    error: "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
  });
  assert.deepEqual(labelSelectorFromObject({ matchExpressions: [{ key: 'x', operator: 'Bad' as 'In' }] }), {
    error: '"Bad" is not a valid label selector operator',
  });
});

test('formatLabelSelector prints Selector columns', () => {
  assert.equal(formatLabelSelector(undefined), '<none>');
  assert.equal(formatLabelSelector({}), '<none>');
  assert.equal(formatLabelSelector({ matchLabels: { app: 'web' } }), 'app=web');
  assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'x', operator: 'Exists', values: ['a'] }] }), '<error>');
  assert.equal(selectorFromSet({ b: '2', a: '1' }).toString(), 'a=1,b=2');
  assert.equal(selectorFromSet(undefined).empty, true);
});

test('the label and subdomain checks accept exactly what their anchored regexes accept', () => {
  // The checks scan characters instead of running the regexes on valid values; this compares both
  // on every string of up to 4 characters over an alphabet with each character class, and on longer ones.
  const subdomain = /^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$/;
  const name = /^(?:([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/;
  const qualified = (v: string): boolean => {
    const parts = v.split('/');
    if (parts.length === 1) return v.length <= 63 && name.test(v);
    const [prefix = '', rest = ''] = parts;
    return parts.length === 2 && prefix.length > 0 && prefix.length <= 253 && subdomain.test(prefix) && rest.length <= 63 && name.test(rest);
  };
  const alphabet = ['a', 'Z', '0', '-', '.', '_', '/', 'é', ' '];
  const values = [''];
  for (let length = 1; length <= 4; length++) for (const v of values.filter((x) => x.length === length - 1)) for (const c of alphabet) values.push(v + c);
  values.push('a'.repeat(63), 'a'.repeat(64), `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`, `${'a'.repeat(250)}.bcd`, `example.com/${'n'.repeat(63)}`, `example.com/${'n'.repeat(64)}`, 'created-x7k2p', 'kube-api-access-abcde', 'app.kubernetes.io/name');
  for (const v of values) {
    assert.equal(isDNS1123Subdomain(v).length === 0, v.length <= 253 && subdomain.test(v), `subdomain ${JSON.stringify(v)}`);
    assert.equal(isQualifiedName(v).length === 0, qualified(v), `qualified name ${JSON.stringify(v)}`);
    assert.equal(isValidLabelValue(v).length === 0, v === '' || (v.length <= 63 && name.test(v)), `label value ${JSON.stringify(v)}`);
  }
});
