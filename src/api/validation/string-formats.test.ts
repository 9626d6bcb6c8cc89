// CRD string formats as kube-openapi's strfmt checks them, on the values its tests and docs use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFormatDuration, stringFormatCheck } from './string-formats.ts';

test('each supported format accepts and refuses what strfmt does; unknown formats are not checked', () => {
  const table: [string, string[], string[]][] = [
    ['date-time', ['2014-12-15T19:30:20.000Z', '2021-01-01T00:00:00Z', '2021-01-01t10:00:00+05:30', '2012-04-23T18:25:43.511123456Z'], ['2021-01-01', '2021-01-01 00:00:00Z', '2021-13-01T00:00:00Z', '2021-01-01T24:00:00Z', '2021-01-01T00:00:00']],
    ['datetime', ['2021-01-01T00:00:00Z'], ['x']],
    ['date', ['2006-01-02', '2024-02-29'], ['2023-02-29', '06-01-02', '2006-1-2']],
    ['duration', ['1h30m', '-1.5s', '0', '3 days', '1 hour 5min', '2w'], ['', '1x', 'h1', '1.5 days']],
    ['byte', ['aGVsbG8=', 'aGVsbG8h'], ['', 'a', 'aGVsbG8']],
    ['uuid', ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'], ['123e4567-e89b-12d3-a456', 'z23e4567-e89b-12d3-a456-426614174000']],
    ['uuid4', ['f47ac10b-58cc-4372-a567-0e02b2c3d479'], ['f47ac10b-58cc-3372-a567-0e02b2c3d479']],
    ['ipv4', ['192.168.0.1'], ['192.168.0.01', '::1', 'x']],
    ['ipv6', ['::1', '2001:db8::1', '::ffff:1.2.3.4'], ['1.2.3.4', 'fe80::1%eth0']],
    ['cidr', ['10.0.0.0/8', '2001:db8::/32'], ['10.0.0.0', '10.0.0.0/33']],
    ['mac', ['00:00:5e:00:53:01', '00-00-5E-00-53-01', '0000.5e00.5301', '02:00:5e:10:00:00:00:01'], ['00:00:5e:00:53', '0000.5e00']],
    ['hostname', ['example.com', 'a', 'xn--bcher-kva.example', 'my-host.local'], ['-bad.com', 'a_b.com', `${'a'.repeat(64)}.com`]],
    ['email', ['user@example.com', 'Jane Doe <jane@example.com>', '"quoted name"@example.com'], ['user', 'user@', '@example.com']],
    ['uri', ['http://example.com/a?b=c', '/absolute/path', 'mailto:x@example.com'], ['relative/path', '']],
    ['bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901']],
    ['isbn10', ['0321751043', '0-321-75104-3'], ['0321751044']],
    ['isbn13', ['978-0321751041'], ['978-0321751042']],
    ['creditcard', ['4111 1111 1111 1111'], ['4111 1111 1111 1112']],
    ['ssn', ['123-45-6789', '123 45 6789'], ['123456789', '12-345-6789']],
    ['hexcolor', ['#fff', 'FFFFFF'], ['#ffff']],
    ['rgbcolor', ['rgb(255, 255, 0)'], ['rgb(256,0,0)']],
    ['password', ['anything'], []],
    ['k8s-short-name', ['my-name'], ['My-Name', '-a', 'a.b']],
    ['k8s-long-name', ['a.b-c.d'], ['A.b', 'a..b']],
  ];
  for (const [format, good, bad] of table) {
    const check = stringFormatCheck(format);
    assert.ok(check, format);
    for (const s of good) assert.equal(check(s), true, `${format} accepts ${JSON.stringify(s)}`);
    for (const s of bad) assert.equal(check(s), false, `${format} refuses ${JSON.stringify(s)}`);
  }
  for (const ignored of ['int32', 'quantity', 'zip', 'k8s-ip-sloppy']) assert.equal(stringFormatCheck(ignored), undefined, ignored);
});

test('durations in milliseconds, in Go syntax or strfmt amounts with units', () => {
  assert.equal(parseFormatDuration('1h30m'), 5_400_000);
  assert.equal(parseFormatDuration('1.5s'), 1500);
  assert.equal(parseFormatDuration('3 days'), 259_200_000);
  assert.equal(parseFormatDuration('1 hour 5min'), 3_900_000);
  assert.equal(parseFormatDuration('nope'), undefined);
});
