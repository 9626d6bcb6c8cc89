// The HorizontalPodAutoscaler as a kubectl user meets it: an autoscaling/v2 HPA over a Deployment
// whose pods use 400m of 200m requests, `kubectl get hpa` columns, and the Deployment scaled up.
// The cluster runs 20x faster than the wall clock.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drydockForSuite } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: 2
  capacity: {cpu: "8", memory: 16Gi}
clock: scaled:20
`;

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations:
        sim.drydock.dev/main: "cpu: 400m"
    spec:
      containers:
      - name: main
        image: nginx
        resources: {requests: {cpu: 200m}}
`;

const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

describe('HorizontalPodAutoscaler with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await dd.kubectl(args, { timeoutMs: 90_000, ...(input !== undefined ? { input } : {}) });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stderr}`);
    return r.stdout;
  };
  // Bounded by wall time, not by a count of kubectl calls, whose speed varies with the machine.
  const until = async <T>(what: string, check: () => Promise<T | undefined>, seconds = 90): Promise<T> => {
    const deadline = performance.now() + seconds * 1000;
    while (performance.now() < deadline) {
      const v = await check();
      if (v !== undefined) return v;
      await new Promise((resolve) => globalThis.setTimeout(resolve, 250));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  test('an HPA at 50% CPU scales a Deployment using 200% of its requests to maxReplicas', async () => {
    await ok(['apply', '-f', '-'], deployment);
    await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    assert.equal((await ok(['apply', '-f', '-'], hpa)).trim(), 'horizontalpodautoscaler.autoscaling/web created');
    const fresh = (await ok(['get', 'hpa'])).trim().split('\n').map((l) => l.trim().split(/\s{2,}/));
    assert.deepEqual(fresh[0], ['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    assert.deepEqual(fresh[1]?.slice(0, 6), ['web', 'Deployment/web', 'cpu: <unknown>/50%', '1', '5', '0']);
    const scaled = await until('the Deployment at 5 replicas', async () => {
      const d = JSON.parse(await ok(['get', 'deployment', 'web', '-o', 'json'])) as { spec: { replicas: number } };
      return d.spec.replicas === 5 ? d : undefined;
    });
    assert.equal(scaled.spec.replicas, 5);
    const row = await until('the HPA showing 5 replicas', async () => {
      const cells = (await ok(['get', 'hpa', 'web', '--no-headers'])).trim().split(/\s{2,}/);
      return cells[5] === '5' ? cells : undefined;
    });
    assert.deepEqual(row.slice(0, 6), ['web', 'Deployment/web', 'cpu: 200%/50%', '1', '5', '5']);
    const status = (JSON.parse(await ok(['get', 'hpa', 'web', '-o', 'json'])) as { status: { conditions: { type: string; reason: string }[] } }).status;
    assert.deepEqual(status.conditions.map((c) => `${c.type}/${c.reason}`), ['AbleToScale/ReadyForNewScale', 'ScalingActive/ValidMetricFound', 'ScalingLimited/TooManyReplicas']);
    const events = (JSON.parse(await ok(['get', 'events', '--field-selector', 'reason=SuccessfulRescale', '-o', 'json'])) as { items: { message: string }[] }).items.map((e) => e.message);
    assert.equal(events[0], 'New size: 4; reason: cpu resource utilization (percentage of request) above target');
    const explain = await ok(['explain', 'hpa.spec.behavior.scaleUp.selectPolicy']);
    assert.deepEqual(explain.split('\n').slice(0, 5), ['GROUP:      autoscaling', 'KIND:       HorizontalPodAutoscaler', 'VERSION:    v2', '', 'FIELD: selectPolicy <string>']);
  });

  test('kubectl autoscale creates an autoscaling/v1 HPA, served from the same object as v2', async () => {
    await ok(['create', 'deployment', 'api', '--image=nginx']);
    assert.equal((await ok(['autoscale', 'deployment', 'api', '--cpu-percent=60', '--min=1', '--max=3'])).trim(), 'horizontalpodautoscaler.autoscaling/api autoscaled');
    const v1 = JSON.parse(await ok(['get', '--raw', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/api'])) as { spec: { targetCPUUtilizationPercentage: number; maxReplicas: number } };
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 60);
    assert.equal(v1.spec.maxReplicas, 3);
    const v2 = JSON.parse(await ok(['get', '--raw', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/api'])) as { spec: { metrics: unknown } };
    assert.deepEqual(v2.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
  });

  test('an autoscaling/v1 manifest is checked against its own schema: explain prints its fields, a misspelt field is refused', async () => {
    const explain = await ok(['explain', 'hpa.spec.targetCPUUtilizationPercentage', '--api-version=autoscaling/v1']);
    assert.deepEqual(explain.split('\n').slice(0, 5), ['GROUP:      autoscaling', 'KIND:       HorizontalPodAutoscaler', 'VERSION:    v1', '', 'FIELD: targetCPUUtilizationPercentage <integer>']);
    const misspelt = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: typo}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  maxReplicas: 3
  targetCPUUtilizationPercentag: 50
`;
    const r = await dd.kubectl(['apply', '-f', '-'], { input: misspelt });
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'Error from server (BadRequest): error when creating "STDIN": HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: strict decoding error: unknown field "spec.targetCPUUtilizationPercentag"');
    assert.equal((await dd.kubectl(['get', 'hpa', 'typo'])).code, 1);
  });
});
