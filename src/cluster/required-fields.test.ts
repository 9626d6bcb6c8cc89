// Every object a working cluster holds carries the fields upstream's schemas mark required and the
// fields Go writes even at their zero value (structs, and fields without omitempty: emptyObject's
// skeleton): clients that check them, as python3-kubernetes's models do, fail a whole list on one
// object without them. The cluster runs real workloads through rollouts, scale-downs, completions
// and failures first, since zero counts are where fields went missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Cluster, clusterConfigFrom } from './index.ts';
import { SeededRandom, VirtualClock, isApiError } from '../core/index.ts';
import { emptyObject } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { allSchemas, schemaFor } from '../apiserver/index.ts';
import type { OpenApiSchema } from '../apiserver/index.ts';

const fixtures = ['vllm-statefulset.yaml', 'vllm-ingress.yaml', 'sidecar-job.yaml', 'dcgm-exporter-daemonset.yaml', 'limit-range.yaml', 'dra/mig-deployment.yaml', 'quota/gpu-quota.yaml', 'volumes/rwop.yaml'];

const inline = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: failing}
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox, command: [sh, -c, exit 1]}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: every-minute}
spec:
  schedule: "* * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: pods}
spec: {hard: {pods: "100"}}
`;

function manifests(): KubeObject[] {
  const texts = [...fixtures.map((f) => readFileSync(join(import.meta.dirname, '../../test/fixtures', f), 'utf8')), inline];
  return texts.flatMap((t) => parseAllDocuments(t).map((d) => d.toJS() as KubeObject)).filter((o) => o?.kind);
}

const schemas = allSchemas();
const resolve = (s: OpenApiSchema | undefined): OpenApiSchema | undefined => {
  let cur = s;
  while (cur?.$ref || cur?.allOf?.length === 1) cur = cur.$ref ? schemas[cur.$ref.replace('#/components/schemas/', '')] : cur.allOf?.[0];
  return cur;
};

/** Paths of required fields absent (null is Go's nil slice or zero time, written as such). */
function missingRequired(value: unknown, schema: OpenApiSchema | undefined, path: string, out: Set<string>): void {
  const s = resolve(schema);
  if (!s || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) missingRequired(item, s.items, `${path}[]`, out);
    return;
  }
  const obj = value as Record<string, unknown>;
  for (const field of s.required ?? []) if (!(field in obj)) out.add(`${path}.${field}`);
  for (const [key, v] of Object.entries(obj)) {
    const next = s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
    missingRequired(v, next, `${path}.${key}`, out);
  }
}

/** Paths of the zero-value skeleton absent from `value` (metadata aside: creationTimestamp is omitted when zero). */
function missingZeroFields(value: unknown, skeleton: unknown, path: string, out: Set<string>): void {
  if (typeof value !== 'object' || value === null || typeof skeleton !== 'object' || skeleton === null || Array.isArray(skeleton)) return;
  for (const [key, zero] of Object.entries(skeleton)) {
    if (key === 'metadata') continue;
    if (!(key in value)) out.add(`${path}.${key}`);
    else missingZeroFields((value as Record<string, unknown>)[key], zero, `${path}.${key}`, out);
  }
}

test('every object of a cluster that ran workloads through rollouts, scale-downs and failures has its required and always-written fields', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 2, capacity: { cpu: '32', memory: '64Gi' } }, { name: 'gpu', count: 1, gpus: { model: 'H100-80GB', count: 8, mig: 'dynamic' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(3), components: true });
  try {
    await c.client.create({ group: '', version: 'v1', resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    for (const obj of manifests()) {
      const [group, version] = obj.apiVersion?.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion ?? ''];
      const def = c.server.index.findKind(group ?? '', version ?? '', obj.kind ?? '');
      assert.ok(def, `${obj.apiVersion} ${obj.kind} is served`);
      await c.client.create({ group: def.group, version: def.version, resource: def.resource }, obj, { namespace: obj.metadata.namespace ?? 'default' });
    }
    await clock.advance(20_000);
    const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };
    await c.client.patch(deployments, 'default', 'web', 'strategic', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } } });
    await clock.advance(20_000);
    await c.client.patch(deployments, 'default', 'web', 'merge', { spec: { replicas: 0 } });
    await c.client.patch({ group: 'apps', version: 'v1', resource: 'statefulsets' }, 'default', 'vllm', 'merge', { spec: { replicas: 0 } });
    await clock.advance(90_000);

    const missing = new Set<string>();
    let listed = 0;
    for (const def of c.server.index.all()) {
      const schema = schemaFor(def.group, def.version, def.kind);
      if (!schema) continue;
      let items: KubeObject[];
      try {
        items = (await c.client.list({ group: def.group, version: def.version, resource: def.resource }, {})).items;
      } catch (error) {
        if (isApiError(error)) continue; // not listable (the review kinds)
        throw error;
      }
      listed += items.length;
      for (const item of items) {
        missingRequired(item, schema, `${def.kind}(${def.group}/${def.version})`, missing);
        missingZeroFields(item, emptyObject(def.group, def.version, def.kind), `${def.kind}(${def.group}/${def.version})`, missing);
      }
    }
    assert.ok(listed > 100, `listed ${listed} objects`);
    assert.deepEqual([...missing].sort(), []);
  } finally {
    await c.stop();
  }
});
