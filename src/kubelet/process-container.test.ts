// The process runtime on the real clock: a container's command runs on the host, its output is its
// log, its exit code its status, SIGTERM reaches it when the pod is deleted, and a command that does
// not exist is a StartError. Containers without a command stay simulated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { CryptoRandom, RealClock } from '../core/index.ts';
import { workerUsage } from './usage.ts';

const config = clusterConfigFrom({ nodePools: [{ name: 'host', count: 1, runtime: 'process', capacity: { cpu: '4', memory: '4Gi' } }] });

function pod(name: string, command: string[] | undefined, restartPolicy: 'Never' | 'Always' = 'Never'): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { restartPolicy, containers: [{ name: 'c', image: 'busybox', ...(command ? { command } : {}), env: [{ name: 'GREETING', value: 'hello from the host' }] }] } };
}

async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The events about pod `name` in default, as `kubectl get events --field-selector involvedObject.name=` lists them. */
async function eventsOf(c: Cluster, name: string): Promise<Event[]> {
  return (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === name);
}

test('runtime: process runs the command on the host: its output, exit code, SIGTERM, and a missing command', async () => {
  await using c = await Cluster.start({ config, clock: new RealClock(), random: new CryptoRandom(), components: true });
  await c.client.create(refs.pods, pod('echo', ['sh', '-c', 'echo "$GREETING on $HOSTNAME"; echo to-stderr >&2; exit 3']));
  await c.client.create(refs.pods, pod('sleeper', ['sleep', '30']));
  await c.client.create(refs.pods, pod('missing', ['no-such-command-drydock']));
  await c.client.create(refs.pods, pod('simulated', undefined, 'Always'));

  const echo = await until('echo to exit', async () => {
    const p = await c.client.get<Pod>(refs.pods, 'default', 'echo');
    return p.status?.phase === 'Failed' ? p : undefined;
  });
  assert.deepEqual([echo.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, echo.status?.containerStatuses?.[0]?.state?.terminated?.reason], [3, 'Error']);
  const lines = c.podLogs.kubelet('host-0')?.worker('default', 'echo')?.logsOf('c')?.current?.lines().map((l) => l.text);
  assert.deepEqual(lines?.slice().sort(), ['hello from the host on echo', 'to-stderr']);

  const missing = await until('missing to fail', async () => (await c.client.get<Pod>(refs.pods, 'default', 'missing')).status?.containerStatuses?.[0]?.state?.terminated);
  assert.deepEqual([missing.exitCode, missing.reason], [128, 'StartError']);
  assert.equal(missing.message, 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "no-such-command-drydock": executable file not found in $PATH: unknown');
  // The recorder writes events after the status: wait for the Failed one, then no Started beside it.
  const reasons = async (): Promise<string[]> => (await eventsOf(c, 'missing')).map((e) => e.reason ?? '');
  const events = await until('the Failed event', async () => ((await reasons()).includes('Failed') ? reasons() : undefined));
  assert.ok(!events.includes('Started'), events.join(','));

  await until('sleeper to run', async () => ((await c.client.get<Pod>(refs.pods, 'default', 'sleeper')).status?.phase === 'Running' ? true : undefined));
  assert.equal((await c.client.get<Pod>(refs.pods, 'default', 'simulated')).status?.phase, 'Running');
  const sleeper = c.podLogs.kubelet('host-0')?.worker('default', 'sleeper');
  await c.client.delete(refs.pods, 'default', 'sleeper', { gracePeriodSeconds: 5 });
  const killed = await until('sleeper to stop', async () => sleeper?.records.get('c')?.current?.exit);
  // sleep has no SIGTERM handler: the signal ends it (128 + 15).
  assert.deepEqual([killed.exitCode, killed.reason], [143, 'Error']);
});

test('runtime: process probes for real: an exec readiness probe on the host, an httpGet one on loopback', async () => {
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { createServer } = await import('node:net');
  const dir = mkdtempSync(join(tmpdir(), 'drydock-probe-'));
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  try {
    await using c = await Cluster.start({ config, clock: new RealClock(), random: new CryptoRandom(), components: true });
    const ready = join(dir, 'ready');
    // The container makes its ready file once the test says so: Ready cannot come before that, however slow the machine.
    const go = join(dir, 'go');
    await c.client.create(refs.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'warming', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', `until [ -f ${go} ]; do sleep 0.1; done; touch ${ready}; sleep 30`], readinessProbe: { exec: { command: ['test', '-f', ready] }, periodSeconds: 1 } }] },
    });
    const server = `require("http").createServer((q, s) => { s.statusCode = q.url === "/healthz" ? 200 : 404; s.end(); }).listen(${port}, "127.0.0.1")`;
    await c.client.create(refs.pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'server', namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'node', command: [process.execPath, '-e', server], ports: [{ name: 'http', containerPort: port }], readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 1 } }] },
    });
    const isReady = async (name: string): Promise<boolean> => (await c.client.get<Pod>(refs.pods, 'default', name)).status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True';
    // A failed probe, then not Ready: what `kubectl describe` and `get` show before the file is made (a loaded
    // machine's probe may time out rather than exit 1, so the event's words are not compared).
    const failedProbe = (e: Event): boolean => e.reason === 'Unhealthy' && (e.message ?? '').startsWith('Readiness probe failed:');
    await until('a failed readiness probe on warming', async () => (await eventsOf(c, 'warming')).find(failedProbe));
    assert.equal(await isReady('warming'), false, 'the file is not there yet');
    writeFileSync(go, '');
    await until('warming to be Ready', async () => ((await isReady('warming')) ? true : undefined));
    await until('server to be Ready', async () => ((await isReady('server')) ? true : undefined));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('kubectl top reads a host process by its RSS', async () => {
  const clock = new RealClock();
  await using c = await Cluster.start({ config, clock, random: new CryptoRandom(), components: true });
  await c.client.create(refs.pods, pod('resident', [process.execPath, '-e', 'globalThis.keep = Buffer.alloc(64 * 1024 * 1024, 1); setTimeout(() => {}, 30000)']));
  const bytes = await until('its RSS to pass 64Mi', async () => {
    const w = c.podLogs.kubelet('host-0')?.worker('default', 'resident');
    const used = w ? (workerUsage(w, clock.now())[0]?.memoryBytes ?? 0) : 0;
    return used > 64 * 1024 * 1024 ? used : undefined;
  });
  assert.ok(bytes < 1024 * 1024 * 1024, String(bytes));
});
