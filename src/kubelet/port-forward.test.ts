import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardedPorts, sandboxIdOf } from './port-forward.ts';

test('the WebSocket ports are read as the kubelet reads them, with its refusals', () => {
  const ports = (q: string) => forwardedPorts(new URLSearchParams(q));
  assert.deepEqual(ports('ports=80'), [80]);
  assert.deepEqual(ports('ports=80,8080&ports=9090'), [80, 8080, 9090]);
  assert.deepEqual(ports(''), { error: 'query parameter "port" is required' });
  assert.deepEqual(ports('ports='), { error: 'query parameter "port" cannot be empty' });
  assert.deepEqual(ports('ports=http'), { error: 'unable to parse "http" as a port: strconv.ParseUint: parsing "http": invalid syntax' });
  assert.deepEqual(ports('ports=80,70000'), { error: 'unable to parse "80,70000" as a port: strconv.ParseUint: parsing "70000": value out of range' });
  assert.deepEqual(ports('ports=0'), { error: 'port "0" must be > 0' });
});

test('a pod\'s sandbox ID is 64 hex digits, the same for the same pod', () => {
  assert.match(sandboxIdOf('uid-1'), /^[0-9a-f]{64}$/);
  assert.equal(sandboxIdOf('uid-1'), sandboxIdOf('uid-1'));
  assert.notEqual(sandboxIdOf('uid-1'), sandboxIdOf('uid-2'));
});
