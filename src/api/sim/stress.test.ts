import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stressForm } from './stress.ts';

const mi = 1024 * 1024;

test("kubernetes.io's memory pages: stress's vm workers hold --vm-bytes each, say what they dispatch, run until killed", () => {
  const form = stressForm('polinux/stress', ['stress', '--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1']);
  assert.deepEqual(form, {
    logs: [{ atMs: 0, text: 'stress: info: [1] dispatching hogs: 0 cpu, 0 io, 1 vm, 0 hdd' }],
    memory: { fromBytes: 151 * mi, toBytes: 151 * mi, rampMs: 0 },
    cpuMilli: 0,
    onSigterm: 'ignore',
    runForever: true,
  });
  // "Assign Memory Resources": 250M over a 100Mi limit is what gets memory-demo-2 OOMKilled.
  assert.equal(stressForm('polinux/stress', ['stress', '--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'])?.memory?.toBytes, 251 * mi);
  const timed = stressForm('polinux/stress', ['stress', '-c', '2', '-m', '2', '-t', '1m']);
  assert.deepEqual([timed?.cpuMilli, timed?.memory?.toBytes, timed?.runForMs, timed?.exitCode, timed?.logs?.at(-1)], [4000, 513 * mi, 60_000, 0, { atMs: 60_000, text: 'stress: info: [1] successful run completed in 60s' }]);
});

test("kubernetes.io's CPU page: vish/stress -cpus 2 spins two CPUs (the kubelet caps it at the limit)", () => {
  assert.equal(stressForm('vish/stress', ['-cpus', '2'])?.cpuMilli, 2000);
  assert.equal(stressForm('vish/stress', ['--cpus=3'])?.cpuMilli, 3000);
});

test('other programs and options stress does not take are not simulated', () => {
  for (const [image, argv] of [['polinux/stress', ['stress', '--vm', 'x']], ['polinux/stress', ['stress', '--vm-bytes', '1T']], ['polinux/stress', ['stress', '--bogus']], ['vish/stress', ['-mem-total', '150Mi']], ['busybox', ['-cpus', '2']], ['busybox', ['sleep', '1']]] as const) {
    assert.equal(stressForm(image, argv), undefined, `${image} ${argv.join(' ')}`);
  }
});
