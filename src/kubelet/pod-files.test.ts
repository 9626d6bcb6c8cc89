// A container's writable layer as PodFiles keeps it: what was copied in stays for the instance, counts
// as the layer's bytes, and is gone when the container restarts (a new instance starts from the image).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { runExec } from './exec-shell.ts';
import { execText } from './exec-text.test-helpers.ts';
import { PodFiles } from './pod-files.ts';

const out = (run: ReturnType<typeof runExec>): string => execText(run, 'stdout');

const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { containers: [{ name: 'app', image: 'vllm' }] } };

test('the writable layer lives as long as the container instance, and its bytes are counted', () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-layer-'));
  try {
    writeFileSync(join(dir, 'weights.bin'), Buffer.alloc(4096, 1));
    const archive = spawnSync('tar', ['cf', '-', '-C', dir, 'weights.bin']).stdout;
    const files = new PodFiles({ client: {} as Client, clock: new VirtualClock(), random: new SeededRandom(1), sources: undefined, allocatable: () => ({ cpu: '1', memory: '1Gi' }), writtenAt: 0 });
    const context = (instance: string) => ({ env: {}, gpuList: undefined, workingDir: '/', files: files.files(pod, 'app', '10.0.0.1', instance) });
    assert.equal(runExec(['tar', '-xmf', '-', '-C', '/tmp'], context('first'), archive).exitCode, 0);
    assert.equal(runExec(['test', '-f', '/tmp/weights.bin'], context('first')).exitCode, 0);
    assert.deepEqual(files.layerBytes(), new Map([['app', 4096]]));
    assert.equal(runExec(['test', '-f', '/tmp/weights.bin'], context('second')).exitCode, 1, 'a restarted container starts from the image');
    assert.deepEqual(files.layerBytes(), new Map());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a container\'s root has the image\'s /tmp and /var/tmp, and shows its mount points', () => {
  const files = new PodFiles({ client: {} as Client, clock: new VirtualClock(), random: new SeededRandom(1), sources: undefined, allocatable: () => ({ cpu: '1', memory: '1Gi' }), writtenAt: 0 });
  const context = (p: Pod) => ({ env: {}, gpuList: undefined, workingDir: '/', files: files.files(p, 'app', '10.0.0.1', 'first') });
  assert.equal(runExec(['test', '-d', '/tmp'], context(pod)).exitCode, 0, 'kubectl cp f pod:/tmp asks this, then writes /tmp/f');
  assert.equal(runExec(['test', '-d', '/var/tmp'], context(pod)).exitCode, 0);
  assert.equal(runExec(['test', '-e', '/models'], context(pod)).exitCode, 1, 'what the image has beyond them is not known');
  assert.equal(out(runExec(['ls', '/'], context(pod))), 'dev\netc\ntmp\nvar\n', 'the known directories and those holding mounts (/etc/hosts, /dev/termination-log)');
  assert.equal(runExec(['ls', '/etc'], context(pod)).exitCode, 2, "the image's /etc is not known");
  const readOnly: Pod = { ...pod, spec: { containers: [{ name: 'app', image: 'vllm', securityContext: { readOnlyRootFilesystem: true } }] } };
  assert.equal(runExec(['test', '-d', '/tmp'], context(readOnly)).exitCode, 0, 'there, but not writable');
});
