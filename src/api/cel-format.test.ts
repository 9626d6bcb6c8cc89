// The Format library as CRD rules and policies use it: upstream's documented examples, and the
// messages a messageExpression joins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCel as run } from './cel.test-support.ts';

test("format.<name>().validate: none for a valid string, the validation's messages otherwise", () => {
  const valid = [
    "format.dns1123Label().validate('my-label-name')",
    "format.dns1123Subdomain().validate('apiextensions.k8s.io')",
    "format.dns1035Label().validate('my-label-name')",
    "format.qualifiedName().validate('apiextensions.k8s.io/v1beta1')",
    "format.dns1123LabelPrefix().validate('my-label-prefix-')",
    "format.dns1123SubdomainPrefix().validate('mysubdomain.prefix.-')",
    "format.dns1035LabelPrefix().validate('my-label-prefix-')",
    "format.uri().validate('http://example.com')",
    "format.uuid().validate('123e4567-e89b-12d3-a456-426614174000')",
    "format.byte().validate('aGVsbG8=')",
    "format.date().validate('2021-01-01')",
    "format.datetime().validate('2021-01-01T00:00:00Z')",
    "format.labelValue().validate('')",
  ];
  for (const expression of valid) assert.equal(run(`!${expression}.hasValue()`), true, expression);
  const cases: [string, unknown][] = [
    ["format.dns1123Label().validate('My_Name').value()", ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]],
    ["format.dns1123Label().validate('a.b').value()", ['must not contain dots']],
    ["format.uri().validate('example.com').value()", ['parse "example.com": invalid URI for request']],
    ["format.uuid().validate('nope').value()", ['does not match the UUID format']],
    ["format.byte().validate('a').value()", ['invalid base64']],
    ["format.date().validate('2021-02-30').value()", ['invalid date']],
    ["format.datetime().validate('2021-01-01 00:00:00').value()", ['invalid datetime']],
    ["format.named('dns1123Label').hasValue() && !format.named('nope').hasValue()", true],
    ["format.named('uuid').value() == format.uuid()", true],
    ["format.named('uuid').value() == format.byte()", false],
    ["format.dns1123Label().validate(self.name).orValue([]).join('; ')", 'must not contain dots'],
  ];
  for (const [expression, want] of cases) assert.deepEqual(run(expression, { name: 'x.y' }), want, expression);
});
