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

const strictPod = (policy: 'Merge' | 'Strict'): DeepReadonlyPod =>
  ({ metadata: { name: 'p', namespace: 'default', uid: 'u2' }, spec: { containers: [{ name: 'c', image: 'x' }], securityContext: { supplementalGroupsPolicy: policy } } }) as DeepReadonlyPod;
const withGroupsFeature = (supported: boolean | undefined): Node => ({ ...node({}), status: { ...node({}).status, ...(supported === undefined ? {} : { features: { supplementalGroupsPolicy: supported } }) } });

test('a Strict pod is refused on a node whose status does not report supplementalGroupsPolicy support', () => {
  const refused = { admit: false, reason: 'SupplementalGroupsPolicyNotSupported', message: 'SupplementalGroupsPolicy=Strict is not supported in this node' };
  assert.deepEqual(admitPod(strictPod('Strict'), withGroupsFeature(false), []), refused);
  assert.deepEqual(admitPod(strictPod('Strict'), withGroupsFeature(undefined), []), refused);
  assert.deepEqual(admitPod(strictPod('Strict'), withGroupsFeature(true), []), { admit: true });
  assert.deepEqual(admitPod(strictPod('Merge'), withGroupsFeature(false), []), { admit: true });
});

test('a kubelet without the SupplementalGroupsPolicy gate admits a Strict pod anywhere', () => {
  assert.deepEqual(admitPod(strictPod('Strict'), withGroupsFeature(undefined), [], false), { admit: true });
});
