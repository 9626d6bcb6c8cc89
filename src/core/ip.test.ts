// IP addresses and prefixes: Go's sloppy and strict parsers, canonical text, containment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatIP, formatPrefix, parseIP, parsePrefix, prefixContains } from './ip.ts';

const canonical = (text: string, strict = true): string | undefined => {
  const ip = parseIP(text, strict);
  return ip && formatIP(ip.family, ip.value);
};

test('parseIP: IPv4 and IPv6 in canonical form, leading zeros only when sloppy', () => {
  assert.equal(canonical('10.96.0.1'), '10.96.0.1');
  assert.equal(canonical('010.1.1.1'), undefined);
  assert.equal(canonical('010.1.1.1', false), '10.1.1.1');
  assert.equal(canonical('2001:0DB8:0:0:0:0:0:1'), '2001:db8::1');
  assert.equal(canonical('1:0:0:2:0:0:0:3'), '1:0:0:2::3', 'the longest zero run is the one shortened');
  assert.equal(canonical('::'), '::');
  assert.equal(canonical('::ffff:1.2.3.4'), '::ffff:1.2.3.4');
  assert.equal(parseIP('::ffff:1.2.3.4')?.mapped, true);
  for (const bad of ['foo', '1.2.3', '1.2.3.256', '1::2::3', '1:2:3:4:5:6:7:8:9', '']) assert.equal(parseIP(bad, false), undefined, bad);
});

test('parsePrefix: strict refuses leading zeros; the network, text and containment', () => {
  const p = parsePrefix('10.96.0.1/12');
  assert.ok(p);
  assert.equal(formatPrefix(p), '10.96.0.0/12');
  assert.equal(parsePrefix('10.0.0.0/08'), undefined);
  assert.ok(parsePrefix('10.0.0.0/08', false));
  assert.equal(parsePrefix('10.0.0.0/33', false), undefined);
  const inside = parseIP('10.111.255.254');
  const outside = parseIP('10.112.0.1');
  assert.ok(inside && outside);
  assert.deepEqual([prefixContains(p, inside), prefixContains(p, outside)], [true, false]);
});
