// `drydock controllers`: Drydock's controllers as ordinary API clients of a running cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { startDrydock } from './harness.ts';

const main = resolve(import.meta.dirname, '../../drydock.mjs');

test('an unknown controller is a one-line usage error with exit code 2', () => {
  const r = spawnSync(main, ['controllers', '--kubeconfig', '/nonexistent', '--only', 'nope'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^drydock: --only: unknown controller "nope" \(controllers: namespace, /);
  // A name that an object's prototype has is no controller either.
  const proto = spawnSync(main, ['controllers', '--kubeconfig', '/nonexistent', '--only', 'constructor'], { encoding: 'utf8' });
  assert.equal(proto.status, 2, proto.stderr);
  assert.match(proto.stderr, /^drydock: --only: unknown controller "constructor" /);
  // --feature-gates as kube's components read it, with component-base's errors.
  const badFlags: [string, string][] = [['DRADeviceTaints', 'missing bool value for DRADeviceTaints'], ['DRADeviceTaints=maybe', 'invalid value of DRADeviceTaints=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'], ['NoSuchGate=true', 'unrecognized feature gate: NoSuchGate']];
  for (const [flag, message] of badFlags) {
    const gates = spawnSync(main, ['controllers', '--kubeconfig', '/nonexistent', '--feature-gates', flag], { encoding: 'utf8' });
    assert.deepEqual([gates.status, gates.stderr], [2, `drydock: --feature-gates: ${message}\n`]);
  }
});

test('the namespace controller run from outside empties and removes a namespace', async () => {
  await using dd = await startDrydock({ config: 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools: []\n' });
  const child = spawn(main, ['controllers', '--kubeconfig', dd.kubeconfig, '--only', 'namespace,garbagecollector'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  try {
    for (let i = 0; i < 100 && !out.includes('running'); i++) await new Promise((r) => globalThis.setTimeout(r, 50));
    assert.match(out, /^drydock controllers running against https:\/\/127\.0\.0\.1:\d+: namespace, garbagecollector$/m);
    await dd.kubectl(['create', 'namespace', 'outside']);
    await dd.kubectl(['create', 'configmap', 'c', '-n', 'outside', '--from-literal=a=b']);
    const r = await dd.kubectl(['delete', 'namespace', 'outside', '--timeout=30s']);
    assert.equal(r.stdout.trim(), 'namespace "outside" deleted', r.stderr);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
});

test('a controller whose feature gate is off is skipped as kube-controller-manager skips it; the rest run', async () => {
  await using dd = await startDrydock({ config: 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools: []\n' });
  const child = spawn(main, ['controllers', '--kubeconfig', dd.kubeconfig, '--only', 'device-taint-eviction-controller,namespace', '--feature-gates', 'DRADeviceTaints=false'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  try {
    for (let i = 0; i < 100 && !out.includes('running'); i++) await new Promise((r) => globalThis.setTimeout(r, 50));
    assert.match(out, /^drydock controllers running against https:\/\/127\.0\.0\.1:\d+: namespace$/m);
    assert.equal(err.split('\n')[0], 'Controller is disabled by a feature gate controller="device-taint-eviction-controller" requiredFeatureGates=["DRADeviceTaints"]');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
});
