// Node-pressure eviction as a kubectl user meets it: a Deployment whose server outgrows the node is
// evicted by the kubelet (describe's Reason, Message and event), the node shows MemoryPressure and
// its taint, and the replacement waits Pending behind the taint.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8');

describe('node-pressure eviction with kubectl', () => {
  const dd = drydockForSuite({ config: fixture('eviction/cluster.yaml') });

  test('a server growing past its node is evicted; the node reports MemoryPressure and is tainted', async () => {
    const r = await dd.kubectl(['apply', '-f', dd.writeFile('leaky-server.yaml', fixture('eviction/leaky-server.yaml'))]);
    assert.equal(r.stdout.trim(), 'deployment.apps/leaky created', r.stderr);
    let evicted = '';
    for (let i = 0; i < 120 && !evicted; i++) {
      const g = await dd.kubectl(['get', 'pods', '-l', 'app=leaky', '-o', 'jsonpath={range .items[?(@.status.reason=="Evicted")]}{.metadata.name}{"\\n"}{end}']);
      evicted = g.stdout.split('\n')[0] ?? '';
      if (!evicted) await new Promise((res) => globalThis.setTimeout(res, 250));
    }
    assert.ok(evicted, 'a pod was evicted');
    const described = (await dd.kubectl(['describe', 'pod', evicted])).stdout;
    assert.match(described, /Status:\s+Failed\nReason:\s+Evicted\nMessage:\s+The node was low on resource: memory\. Threshold quantity: 100Mi, available: \S+\. Container server was using \d+Ki, request is 1Gi, has larger consumption of memory\./);
    assert.match(described, /Warning\s+Evicted\s+\S+\s+kubelet\s+The node was low on resource: memory\./);
    let node = '';
    for (let i = 0; i < 60 && !/memory-pressure/.test(node); i++) {
      node = (await dd.kubectl(['get', 'node', 'cpu-0', '-o', 'jsonpath={.status.conditions[?(@.type=="MemoryPressure")].reason} {.spec.taints[*].key}'])).stdout;
      if (!/memory-pressure/.test(node)) await new Promise((res) => globalThis.setTimeout(res, 250));
    }
    assert.equal(node, 'KubeletHasInsufficientMemory node.kubernetes.io/memory-pressure');
  });
});
