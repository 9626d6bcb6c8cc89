// Kubernetes' IP, CIDR and URL CEL libraries against the examples upstream's library documents, and
// its error texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCel as run } from './cel.test-support.ts';

test('ip(): family, address classes, canonical text and equality, as ip.go documents them', () => {
  const cases: [string, unknown][] = [
    ["ip('127.0.0.1').family()", 4n],
    ["ip('::1').family()", 6n],
    ["ip('0.0.0.0').isUnspecified()", true],
    ["ip('127.0.0.1').isLoopback() && !ip('192.168.0.1').isLoopback()", true],
    ["ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()", true],
    ["ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && !ip('fd80::1').isLinkLocalUnicast()", true],
    ["ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && ip('2001:db8::abcd').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast()", true],
    ["string(ip('2001:DB8::0:1'))", '2001:db8::1'],
    ["ip('10.0.0.1') == ip('10.0.0.1')", true],
    ["isIP('1.2.3.4') && !isIP('010.0.0.1') && !isIP('fe80::1%eth0') && !isIP('::ffff:1.2.3.4')", true],
    ["ip.isCanonical('127.0.0.1') && ip.isCanonical('2001:db8::abcd') && !ip.isCanonical('2001:DB8::ABCD') && !ip.isCanonical('2001:db8::0:0:0:abcd')", true],
    ["ip('010.0.0.1')", 'error: IP Address "010.0.0.1" parse error during conversion from string: ParseAddr("010.0.0.1"): IPv4 field has octet with leading zero'],
    ["ip('fe80::1%eth0')", 'error: IP address "fe80::1%eth0" with zone value is not allowed'],
    ["ip('::ffff:1.2.3.4')", 'error: IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
  ];
  for (const [expression, want] of cases) assert.equal(run(expression), want, expression);
});

test('cidr(): containment of addresses and ranges, ip(), masked(), prefixLength(), as cidr.go documents them', () => {
  const cases: [string, unknown][] = [
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && !cidr('192.168.0.0/24').containsIP('192.168.1.1')", true],
    ["cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25')) && cidr('192.168.0.0/24').containsCIDR('192.168.0.0/24') && !cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')", true],
    ["string(cidr('192.168.0.1/24').ip())", '192.168.0.1'],
    ["string(cidr('192.168.0.1/24').masked())", '192.168.0.0/24'],
    ["cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked() && cidr('192.168.0.1/24') != cidr('192.168.0.1/24').masked()", true],
    ["cidr('::1/128').prefixLength()", 128n],
    ["isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0')", true],
    ["cidr('1.2.3.4/33')", 'error: network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("1.2.3.4/33"): prefix length out of range'],
  ];
  for (const [expression, want] of cases) assert.equal(run(expression), want, expression);
});

test('url(): a request URI\'s scheme, host, hostname, port, escaped path and query; what ParseRequestURI refuses', () => {
  const cases: [string, unknown][] = [
    ["url('https://example.com:8443/path').getHost()", 'example.com:8443'],
    ["url('https://[::1]:80/path').getHostname()", '::1'],
    ["url('https://example.com:8443/path').getPort() + url('https://example.com/path').getPort()", '8443'],
    ["url('https://example.com/with%20space').getEscapedPath()", '/with%20space'],
    ["url('/absolute-path').getScheme() + url('HTTPS://example.com').getScheme()", 'https'],
    ["isURL('https://example.com') && isURL('/path') && !isURL('example.com')", true],
    ["url('example.com')", 'error: URL parse error during conversion from string: parse "example.com": invalid URI for request'],
  ];
  for (const [expression, want] of cases) assert.equal(run(expression), want, expression);
  assert.deepEqual(run("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()"), { k1: ['a'], k2: ['b', 'c'] });
});
