// The baseline's distributed-training case with the real kubectl: 4 DDP workers needing one GPU
// each, gang size 4, on 3 one-GPU nodes. None binds (three wait at Permit, one does not fit), the
// events say why, and after `drydock node add --pool gpu` all four bind together. Once with the
// 1.35 Workload API, once with Volcano's PodGroup and the `volcano` scheduler profile.
// The clock runs 60x, so the 5-minute gang deadline passes in 5 s.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startDrydock } from './harness.ts';
import type { Drydock, KubectlResult } from './harness.ts';

const fixtures = resolve(import.meta.dirname, '../fixtures/gang');
const fixture = (name: string): string => readFileSync(resolve(fixtures, name), 'utf8');
const config = `${fixture('cluster.yaml')}clock: scaled:60\n`;

interface PodJson {
  metadata: { name: string };
  spec: { nodeName?: string };
  status: { phase?: string };
}
interface EventJson {
  reason: string;
  message: string;
  involvedObject: { kind: string; name: string };
}

async function until(fn: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await delay(200);
  }
  throw new Error('timed out');
}

function gangCase(form: string, manifests: readonly string[]): void {
  describe(`gang scheduling with kubectl (${form})`, () => {
    let dd: Drydock;
    const kubectl = async (args: readonly string[], input?: string): Promise<KubectlResult> => {
      const r = await dd.kubectl(args, input === undefined ? {} : { input });
      assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
      return r;
    };
    const pods = async (): Promise<PodJson[]> => (JSON.parse((await kubectl(['get', 'pods', '-l', 'app=ddp', '-o', 'json'])).stdout) as { items: PodJson[] }).items;
    const events = async (): Promise<EventJson[]> => (JSON.parse((await kubectl(['get', 'events', '-o', 'json'])).stdout) as { items: EventJson[] }).items;
    const drydockNode = (args: readonly string[]): Promise<KubectlResult> => dd.node(args);

    before(async () => {
      dd = await startDrydock({ config });
    });
    after(async () => {
      await dd?.stop();
    });

    test('4 workers on 3 GPUs: none binds, one is reported unschedulable, the waiting three time out together', async () => {
      for (const m of manifests) await kubectl(['apply', '-f', '-'], fixture(m));
      await until(async () => (await events()).some((e) => e.reason === 'FailedScheduling'));
      const ps = await pods();
      assert.equal(ps.length, 4);
      assert.deepEqual(ps.map((p) => [p.spec.nodeName ?? '', p.status.phase]), Array(4).fill(['', 'Pending']));
      const fit = (await events()).filter((e) => e.reason === 'FailedScheduling' && !e.message.includes('timeout'));
      assert.ok(fit.length >= 1);
      assert.match(fit[0]?.message ?? '', /^0\/3 nodes are available: 3 Insufficient nvidia\.com\/gpu\. /);
      // No GPU is held on any node: nothing is bound.
      const described = (await kubectl(['describe', 'nodes'])).stdout;
      assert.doesNotMatch(described, /nvidia\.com\/gpu\s+1\s+1/);
      // 5 minutes of cluster time later, the three pods waiting at Permit are rejected.
      await until(async () => (await events()).filter((e) => e.message.includes('rejected due to timeout')).length >= 3, 20_000);
      // The first waiter starts the shared deadline and waits 5m0s; later ones wait what is left of it.
      const timeouts = (await events()).filter((e) => e.message.includes('rejected due to timeout')).map((e) => e.message);
      assert.ok(timeouts.includes('0/1 nodes are available: 1 rejected due to timeout after waiting 5m0s at plugin GangScheduling.'), timeouts.join('\n'));
      // What is left is under 5m0s by the cluster time between the waiters' Permits: at 60x a busy machine's
      // 20 ms between scheduling cycles is 1.2 s (a CI run under load saw 4m58.86s).
      for (const m of timeouts) assert.match(m, /^0\/1 nodes are available: 1 rejected due to timeout after waiting (5m0s|4m5\d(\.\d+)?s) at plugin GangScheduling\.$/);
      assert.deepEqual((await pods()).map((p) => p.spec.nodeName ?? ''), ['', '', '', '']);
    });

    test('a fourth GPU node: all four bind, one per node', async () => {
      const r = await drydockNode(['add', '--pool', 'gpu']);
      assert.equal(r.code, 0, r.stderr);
      await until(async () => (await pods()).every((p) => p.spec.nodeName));
      assert.deepEqual((await pods()).map((p) => p.spec.nodeName).sort(), ['gpu-0', 'gpu-1', 'gpu-2', 'gpu-3']);
      await until(async () => (await pods()).every((p) => p.status.phase === 'Running'));
      // Now each node's GPU is requested (the check above would have seen this line).
      assert.match((await kubectl(['describe', 'nodes'])).stdout, /nvidia\.com\/gpu\s+1\s+1/);
    });

    if (form === 'Volcano PodGroup') {
      test('the PodGroup went Pending (Unschedulable, NotEnoughResources) and is now Running', async () => {
        await until(async () => JSON.parse((await kubectl(['get', 'podgroup', 'ddp', '-o', 'json'])).stdout).status?.running === 4);
        const pg = JSON.parse((await kubectl(['get', 'pg', 'ddp', '-o', 'json'])).stdout) as { status: { phase: string; running: number } };
        assert.equal(pg.status.phase, 'Running');
        const unsched = (await events()).filter((e) => e.involvedObject.kind === 'PodGroup' && e.reason === 'Unschedulable');
        assert.ok(unsched.length >= 1);
        assert.match(unsched[0]?.message ?? '', /^\d\/4 tasks in gang unschedulable: pod group is not ready, /);
        const table = (await kubectl(['get', 'pg', 'ddp'])).stdout.split('\n')[1] ?? '';
        assert.match(table, /^ddp\s+Running\s+4\s+4\s+/);
      });
    } else {
      test('kubectl sees the Workload kind (discovery, default table, validation)', async () => {
        const res = (await kubectl(['api-resources', '--api-group=scheduling.k8s.io', '-o', 'name'])).stdout.split('\n').filter(Boolean).sort();
        assert.deepEqual(res, ['priorityclasses.scheduling.k8s.io', 'workloads.scheduling.k8s.io']);
        const table = (await kubectl(['get', 'workloads'])).stdout.split('\n');
        // No printer upstream: the server's default table.
        assert.match(table[0] ?? '', /^NAME\s+CREATED AT$/);
        assert.match(table[1] ?? '', /^ddp\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        const bad = await dd.kubectl(['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1alpha1', kind: 'Workload', metadata: { name: 'bad' }, spec: { podGroups: [{ name: 'pg', policy: { gang: { minCount: 0 } } }] } }) });
        assert.notEqual(bad.code, 0);
        assert.match(bad.stderr, /spec\.podGroups\[0\]\.policy\.gang\.minCount: Invalid value: 0: must be greater than zero/);
      });
    }
  });
}

gangCase('Workload API', ['workload.yaml', 'ddp-workers.yaml']);
gangCase('Volcano PodGroup', ['volcano-podgroup.yaml', 'volcano-workers.yaml']);

interface JobPodJson {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { nodeName?: string };
  status: {
    initContainerStatuses?: { name: string; state: { terminated?: { startedAt: string; finishedAt: string } } }[];
    containerStatuses?: { name: string; state: { terminated?: { startedAt: string; finishedAt: string; exitCode: number } } }[];
  };
}

describe('a gang-scheduled Indexed Job with a native sidecar (kubectl)', () => {
  let dd: Drydock;
  const kubectl = async (args: readonly string[], input?: string): Promise<KubectlResult> => {
    const r = await dd.kubectl(args, input === undefined ? {} : { input });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r;
  };
  const jobPods = async (): Promise<JobPodJson[]> => (JSON.parse((await kubectl(['get', 'pods', '-l', 'app=finetune', '-o', 'json'])).stdout) as { items: JobPodJson[] }).items;
  const eventsOf = async (pod: string): Promise<EventJson[]> => (JSON.parse((await kubectl(['get', 'events', '-o', 'json', '--field-selector', `involvedObject.name=${pod}`])).stdout) as { items: EventJson[] }).items;
  const job = fixture('indexed-job.yaml');
  // The same Job with 4 ranks: one more GPU than the 3 nodes have.
  const tooBig = job.replace('minCount: 3', 'minCount: 4').replace('completions: 3', 'completions: 4').replace('parallelism: 3', 'parallelism: 4');

  before(async () => {
    dd = await startDrydock({ config });
  });
  after(async () => {
    await dd?.stop();
  });

  test('4 ranks on 3 GPUs wait; deleting the Job frees the GPUs its waiting pods held, so the 3-rank Job binds at once', async () => {
    await kubectl(['apply', '-f', '-'], tooBig);
    await until(async () => {
      for (const p of await jobPods()) if ((await eventsOf(p.metadata.name)).some((e) => e.reason === 'FailedScheduling')) return true;
      return false;
    });
    // The Workload's pod groups are immutable: the user deletes what they applied and applies the smaller Job.
    await kubectl(['delete', '-f', '-'], tooBig);
    await until(async () => (await jobPods()).length === 0);
    await kubectl(['apply', '-f', '-'], job);
    await until(async () => {
      const ps = await jobPods();
      return ps.length === 3 && ps.every((p) => p.spec.nodeName);
    });
    const ps = await jobPods();
    assert.deepEqual(ps.map((p) => p.spec.nodeName).sort(), ['gpu-0', 'gpu-1', 'gpu-2']);
    for (const p of ps) assert.deepEqual((await eventsOf(p.metadata.name)).filter((e) => e.reason === 'FailedScheduling').map((e) => e.message), [], p.metadata.name);
  });

  test('the Job completes with every index; each log shipper started before its trainer and stopped after it', async () => {
    await until(async () => JSON.parse((await kubectl(['get', 'job', 'finetune', '-o', 'json'])).stdout).status?.succeeded === 3);
    const status = JSON.parse((await kubectl(['get', 'job', 'finetune', '-o', 'json'])).stdout).status as { completedIndexes: string; conditions: { type: string; status: string; reason: string }[] };
    assert.equal(status.completedIndexes, '0-2');
    assert.deepEqual(status.conditions.map((c) => [c.type, c.status, c.reason]), [['SuccessCriteriaMet', 'True', 'CompletionsReached'], ['Complete', 'True', 'CompletionsReached']]);
    for (const p of await jobPods()) {
      const shipper = p.status.initContainerStatuses?.[0]?.state.terminated;
      const trainer = p.status.containerStatuses?.[0]?.state.terminated;
      assert.ok(shipper && trainer, p.metadata.name);
      assert.equal(trainer.exitCode, 0);
      assert.ok(shipper.startedAt <= trainer.startedAt && shipper.finishedAt >= trainer.finishedAt, `${p.metadata.name}: ${JSON.stringify([shipper, trainer])}`);
      const rank = p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'];
      assert.equal((await kubectl(['logs', p.metadata.name, '-c', 'trainer'])).stdout, `rank ${rank} of 3 starting\n`);
    }
  });
});
