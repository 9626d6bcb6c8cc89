import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isGlobalUnicast, splitSchemeNamePort } from './proxy-route.ts';

test('a proxy id is name, name:port or scheme:name:port, as SplitSchemeNamePort reads it', () => {
  assert.deepEqual(splitSchemeNamePort('web'), { scheme: '', name: 'web', port: '' });
  assert.deepEqual(splitSchemeNamePort('web:8080'), { scheme: '', name: 'web', port: '8080' });
  assert.deepEqual(splitSchemeNamePort('https:web:metrics'), { scheme: 'https', name: 'web', port: 'metrics' });
  assert.deepEqual(splitSchemeNamePort('web:'), { scheme: '', name: 'web', port: '' });
  for (const bad of ['', ':80', 'ftp:web:21', 'a:b:c:d', 'http::80']) assert.equal(splitSchemeNamePort(bad), undefined, bad);
});

test('only a global unicast pod IP may be proxied to', () => {
  for (const ip of ['10.128.0.2', '192.168.1.5', '8.8.8.8', 'fd00::5', '2001:db8::1', '010.128.0.2', '0.1.2.3', '240.0.0.1']) assert.equal(isGlobalUnicast(ip), true, ip);
  for (const ip of ['', '0.0.0.0', '127.0.0.1', '169.254.169.254', '224.0.0.1', '255.255.255.255', '::', '::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', 'not-an-ip']) assert.equal(isGlobalUnicast(ip), false, ip);
});
