// Autoscaling as a kubectl user meets it: `kubectl top` from the resource metrics API, and a
// VerticalPodAutoscaler in InPlaceOrRecreate raising a pod's CPU in place, then evicting a pod
// whose recommendation its node cannot fit. The cluster runs 20x faster than the wall clock.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drydockForSuite } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: 1
  capacity: {cpu: "4", memory: 8Gi}
clock: scaled:20
`;

const deployment = (name: string, cpu: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: 1
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata:
      labels: {app: ${name}}
      annotations:
        sim.drydock.dev/main: "cpu: ${cpu}\\nmemory: 200Mi"
    spec:
      containers:
      - name: main
        image: nginx
        resources: {requests: {cpu: 50m, memory: 256Mi}}
`;

const vpa = (name: string): string => `apiVersion: autoscaling.k8s.io/v1
kind: VerticalPodAutoscaler
metadata: {name: ${name}}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: ${name}}
  updatePolicy: {updateMode: InPlaceOrRecreate, minReplicas: 1}
`;

interface PodJson {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  spec: { containers: { resources?: { requests?: Record<string, string> } }[] };
  status: { phase?: string; containerStatuses?: { restartCount: number; resources?: { requests?: Record<string, string> } }[] };
}

describe('Autoscaling with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await dd.kubectl(args, { timeoutMs: 90_000, ...(input !== undefined ? { input } : {}) });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stderr}`);
    return r.stdout;
  };
  const podsOf = async (app: string): Promise<PodJson[]> => (JSON.parse(await ok(['get', 'pods', '-l', `app=${app}`, '-o', 'json'])) as { items: PodJson[] }).items;
  /** Polls through kubectl until `check` yields a value, for up to 60 s of wall time (20 min of cluster time). */
  const until = async <T>(what: string, check: () => Promise<T | undefined>, seconds = 60): Promise<T> => {
    const deadline = performance.now() + seconds * 1000;
    while (performance.now() < deadline) {
      const v = await check();
      if (v !== undefined) return v;
      await new Promise((resolve) => globalThis.setTimeout(resolve, 250));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const events = async (reason: string): Promise<{ message: string; involvedObject: { uid: string } }[]> =>
    (JSON.parse(await ok(['get', 'events', '--field-selector', `reason=${reason}`, '-o', 'json'])) as { items: { message: string; involvedObject: { uid: string } }[] }).items;

  test('kubectl top pods and top nodes show the simulated usage', async () => {
    await ok(['apply', '-f', '-'], deployment('web', '400m'));
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    const top = await until('pod metrics', async () => {
      const r = await dd.kubectl(['top', 'pods', '-l', 'app=web', '--no-headers']);
      return r.code === 0 && r.stdout.trim() ? r.stdout.trim() : undefined;
    });
    assert.match(top, /^web-[a-z0-9]+-[a-z0-9]{5}\s+400m\s+200Mi$/);
    const header = (await ok(['top', 'pods', '-l', 'app=web'])).split('\n')[0]?.trim().split(/\s+/);
    assert.deepEqual(header, ['NAME', 'CPU(cores)', 'MEMORY(bytes)']);
    const nodes = (await ok(['top', 'nodes'])).trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(nodes[0], ['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']);
    // 400m of 4 cores allocatable = 10%; 200Mi of the node's 8Gi less 100Mi eviction threshold = 2%.
    assert.deepEqual(nodes[1], ['cpu-0', '400m', '10%', '200Mi', '2%']);
    // metrics-server's own table for `kubectl get`, and its quantities in canonical form.
    const podMetrics = (await ok(['get', 'pods.metrics.k8s.io', '-l', 'app=web'])).trim().split('\n').map((l) => l.trim().split(/\s+/));
    assert.deepEqual(podMetrics[0], ['NAME', 'CPU', 'MEMORY', 'WINDOW']);
    assert.deepEqual(podMetrics[1]?.slice(1), ['400m', '200Mi', '15s']);
    const raw = JSON.parse(await ok(['get', '--raw', '/apis/metrics.k8s.io/v1beta1/nodes/cpu-0'])) as { usage: Record<string, string> };
    assert.deepEqual(raw.usage, { cpu: '400m', memory: '200Mi' });
  });

  test('a VPA in InPlaceOrRecreate raises the CPU request in place: same uid, no restart', async () => {
    const [before] = await podsOf('web');
    assert.ok(before);
    await ok(['apply', '-f', '-'], vpa('web'));
    const pod = await until('the in-place resize', async () => {
      const [p] = await podsOf('web');
      return p?.status.containerStatuses?.[0]?.resources?.requests?.cpu === '476m' ? p : undefined;
    });
    assert.equal(pod.metadata.uid, before.metadata.uid);
    assert.equal(pod.spec.containers[0]?.resources?.requests?.cpu, '476m');
    assert.equal(pod.status.containerStatuses?.[0]?.restartCount, 0);
    const resized = await events('InPlaceResizedByVPA');
    assert.ok(resized.some((e) => e.involvedObject.uid === before.metadata.uid && e.message === 'Pod was resized in place by VPA Updater.'));
    assert.deepEqual(await events('EvictedByVPA'), []);
    const vpaOut = (await ok(['get', 'vpa', 'web', '--no-headers'])).trim().split(/\s+/);
    assert.deepEqual([vpaOut[0], vpaOut[1], vpaOut[2], vpaOut[4]], ['web', 'InPlaceOrRecreate', '476m', 'True']);
  });

  test('a recommendation the node cannot fit is evicted instead, and the new pod gets it at admission', async () => {
    // Using all 4 cores of the node: the recommendation (p90 bucket end + 15%) exceeds its capacity, so the resize is Infeasible.
    await ok(['apply', '-f', '-'], deployment('big', '4'));
    await ok(['rollout', 'status', 'deployment/big', '--timeout=60s']);
    const [old] = await podsOf('big');
    assert.ok(old);
    await ok(['apply', '-f', '-'], vpa('big'));
    const evicted = await until('EvictedByVPA', async () => {
      const e = (await events('EvictedByVPA')).find((x) => x.involvedObject.uid === old.metadata.uid);
      return e;
    });
    assert.equal(evicted.message, 'Pod was evicted by VPA Updater to apply resource recommendation.');
    const replacement = await until('the replacement pod', async () => (await podsOf('big')).find((p) => p.metadata.uid !== old.metadata.uid));
    assert.equal(replacement.spec.containers[0]?.resources?.requests?.cpu, '4743m');
    assert.equal(replacement.metadata.annotations?.vpaUpdates, 'Pod resources updated by big: container 0: cpu request, memory request');
    // 4743m cannot be scheduled on a 4-core node: the replacement stays Pending.
    assert.equal(replacement.status.phase, 'Pending');
  });
});
