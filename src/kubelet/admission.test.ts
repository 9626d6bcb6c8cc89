// The kubelet's admission re-checks required node affinity with the scheduler's predicate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../api/index.ts';
import { admitPod } from './admission.ts';
import type { DeepReadonlyPod } from './types.ts';

const node = (labels: Record<string, string>): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels }, status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } });
const pod = (key: string): DeepReadonlyPod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', uid: 'u1' },
    spec: {
      containers: [{ name: 'c', image: 'x' }],
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'Exists' }] }] } } },
    },
  }) as DeepReadonlyPod;

test("a node without a label named as an Object.prototype member does not have it", () => {
  assert.deepEqual(admitPod(pod('constructor'), node({ zone: 'a' }), []), { admit: false, reason: 'NodeAffinity', message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" });
  assert.deepEqual(admitPod(pod('constructor'), node({ constructor: 'yes' }), []), { admit: true });
  assert.deepEqual(admitPod(pod('zone'), node({ zone: 'a' }), []), { admit: true });
});
