// The node-facing admission plugins with real kubectl: TaintNodesByCondition taints a node made with
// `kubectl create -f node.yaml` not-ready:NoSchedule (lifted by the node controller, before the
// ready line for Drydock's own nodes), and PodTopologyLabels gives a scheduled pod its node's zone
// and region labels, which the downward API hands to its container.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { drydockForSuite } from './harness.ts';
import type { Drydock } from './harness.ts';

const node = `apiVersion: v1
kind: Node
metadata:
  name: edge-0
  labels:
    topology.kubernetes.io/zone: edge-a
`;

const pod = `apiVersion: v1
kind: Pod
metadata:
  name: zone-aware
  labels:
    app: zone-aware
spec:
  nodeSelector:
    kubernetes.io/hostname: cpu-1
  containers:
  - name: app
    image: nginx
    env:
    - name: ZONE
      valueFrom:
        fieldRef:
          fieldPath: metadata.labels['topology.kubernetes.io/zone']
`;

describe('node admission: TaintNodesByCondition and PodTopologyLabels', () => {
  const dd = drydockForSuite();

  const taintsByNode = (): Promise<string> => dd.ok(['get', 'nodes', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.taints}{"\\n"}{end}']);

  test('at the ready line no node is still tainted not-ready', async () => {
    assert.equal(await taintsByNode(), 'cpu-0=\ncpu-1=\nh100-0=\nh100-1=\n');
  });

  test('kubectl create -f node.yaml answers with the not-ready:NoSchedule taint; the node controller lifts it', async () => {
    const path = dd.writeFile('edge-node.yaml', node);
    assert.equal(await dd.ok(['create', '-f', path, '-o', 'jsonpath={.spec.taints}']), '[{"effect":"NoSchedule","key":"node.kubernetes.io/not-ready"}]');
    // With no Ready condition yet, upstream's NoSchedule pass wants no condition taint at all.
    let taints = '';
    for (let i = 0; i < 100; i++) {
      taints = await dd.ok(['get', 'node', 'edge-0', '-o', 'jsonpath={.spec.taints}']);
      if (taints === '') break;
      await delay(50);
    }
    assert.equal(taints, '');
    await dd.ok(['delete', 'node', 'edge-0']);
  });

  test('a scheduled pod carries its node\'s zone and region, and reads the zone through the downward API', async () => {
    const path = dd.writeFile('zone-aware.yaml', pod);
    assert.equal(await dd.ok(['apply', '-f', path]), 'pod/zone-aware created\n');
    await dd.ok(['wait', '--for=condition=Ready', 'pod/zone-aware', '--timeout=20s']);
    const nodeLabels = JSON.parse(await dd.ok(['get', 'node', 'cpu-1', '-o', 'jsonpath={.metadata.labels}'])) as Record<string, string>;
    const zone = nodeLabels['topology.kubernetes.io/zone'] ?? '';
    const region = nodeLabels['topology.kubernetes.io/region'] ?? '';
    assert.deepEqual(JSON.parse(await dd.ok(['get', 'pod', 'zone-aware', '-o', 'jsonpath={.metadata.labels}'])), { app: 'zone-aware', 'topology.kubernetes.io/region': region, 'topology.kubernetes.io/zone': zone });
    assert.equal(await dd.ok(['exec', 'zone-aware', '--', 'printenv', 'ZONE']), `${zone}\n`);
  });
});
