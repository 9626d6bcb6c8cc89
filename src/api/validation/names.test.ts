import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../core/index.ts';
import {
  isCIdentifier,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  isValidPortNum,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validateAnnotations,
  validateLabels,
} from './names.ts';

const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const dns1035Msg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const keyNameMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

test('DNS name checks return upstream messages', () => {
  const table: [(v: string) => string[], string, string[]][] = [
    [isDNS1123Label, 'my-name', []],
    [isDNS1123Label, '123-abc', []],
    [isDNS1123Label, 'My-Name', [labelMsg]],
    [isDNS1123Label, 'a.b', ['must not contain dots']],
    [isDNS1123Label, 'a'.repeat(64), ['must be no more than 63 characters']],
    [isDNS1123Label, '', [labelMsg]],
    [isDNS1123Subdomain, 'example.com', []],
    [isDNS1123Subdomain, 'Example.com', [subdomainMsg]],
    [isDNS1123Subdomain, 'a'.repeat(254), ['must be no more than 253 characters']],
    [isDNS1035Label, 'web', []],
    [isDNS1035Label, 'no-domain.com', [dns1035Msg]],
    [isDNS1035Label, '1abc', [dns1035Msg]],
  ];
  for (const [fn, value, expected] of table) assert.deepEqual(fn(value), expected, `${fn.name}(${JSON.stringify(value)})`);
});

test('isQualifiedName checks prefix and name parts', () => {
  const table: [string, string[]][] = [
    ['app', []],
    ['app.kubernetes.io/name', []],
    ['example.com/MyName', []],
    ['/name', ['prefix part must be non-empty']],
    ['Example.com/name', [`prefix part ${subdomainMsg}`]],
    ['example.com/', ['name part must be non-empty', keyNameMsg]],
    ['-bad', [keyNameMsg]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    [
      'a/b/c',
      [
        "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
  ];
  for (const [value, expected] of table) assert.deepEqual(isQualifiedName(value), expected, value);
});

test('label values, C identifiers and ports', () => {
  assert.deepEqual(isValidLabelValue(''), []);
  assert.deepEqual(isValidLabelValue('my_value'), []);
  assert.deepEqual(isValidLabelValue('bad value'), [
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  ]);
  assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
  assert.deepEqual(isCIdentifier('MY_NAME'), []);
  assert.equal(isCIdentifier('1x').length, 1);
  assert.deepEqual(isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortNum(8080), []);
  assert.deepEqual(isValidPortName('http'), []);
  assert.deepEqual(isValidPortName('TCP-8080'), [
    'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    'must contain at least one letter (a-z)',
  ]);
  assert.deepEqual(isValidPortName('-a--b-'), ['must not contain consecutive hyphens', 'must not begin or end with a hyphen']);
  assert.deepEqual(isValidPortName('8080'), ['must contain at least one letter (a-z)']);
});

test('name validators allow a trailing dash only for prefixes', () => {
  assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
  assert.deepEqual(nameIsDNSSubdomain('web-', false), [subdomainMsg]);
  assert.deepEqual(nameIsDNSLabel('web-', true), []);
  assert.deepEqual(nameIsDNSLabel('a.b-', true), ['must not contain dots']);
});

test('validateLabels and validateAnnotations report field errors', () => {
  const labelErrs = validateLabels({ 'bad key!': 'ok', good: 'bad value' }, 'metadata.labels');
  assert.deepEqual(
    labelErrs.map((e) => formatFieldError(e, { withField: true })),
    [`metadata.labels: Invalid value: "bad key!": ${keyNameMsg}`, `metadata.labels: Invalid value: "bad value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`],
  );
  assert.deepEqual(validateAnnotations({ 'Example.com/Key': 'v' }, 'metadata.annotations'), []);
  const big = validateAnnotations({ a: 'x'.repeat(256 * 1024) }, 'metadata.annotations');
  assert.equal(big.length, 1);
  assert.equal(big[0]?.type, 'FieldValueTooLong');
  assert.equal(big[0]?.field, 'metadata.annotations');
  assert.match(big[0]?.detail ?? '', /262144 bytes$/);
  assert.deepEqual(validateAnnotations({ a: 'x'.repeat(256 * 1024 - 1) }, 'metadata.annotations'), []);
});

test('isDNS1123Label accepts exactly what its anchored regex accepts', () => {
  const label = /^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?)$/;
  const alphabet = ['a', 'Z', '0', '-', '.', '_', 'é'];
  const values = [''];
  for (let length = 1; length <= 4; length++) for (const v of values.filter((x) => x.length === length - 1)) for (const c of alphabet) values.push(v + c);
  values.push('a'.repeat(63), 'a'.repeat(64), 'kube-api-access-abcde', 'web-0');
  for (const v of values) assert.equal(isDNS1123Label(v).length === 0, v.length <= 63 && label.test(v), JSON.stringify(v));
});
