import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDecoded } from './decode-check.ts';

test('checkDecoded words a mistyped field as encoding/json does', () => {
  const cases: [unknown, string | undefined][] = [
    [{ spec: { containers: 'nginx' } }, 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container'],
    [{ spec: { containers: [{ name: 'a', image: 3 }] } }, 'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string'],
    [{ spec: 'x' }, 'json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec'],
    [{ spec: { terminationGracePeriodSeconds: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64'],
    [{ metadata: { labels: { a: 1 } } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    [{ spec: { containers: [{ name: 'a', resources: { limits: { cpu: 1 } } }] } }, undefined],
    [{ spec: { hostNetwork: null } }, undefined],
  ];
  for (const [pod, expected] of cases) assert.equal(checkDecoded(pod, '', 'v1', 'Pod', { prune: false }).typeError, expected, JSON.stringify(pod));
});

test('checkDecoded prunes unknown fields and reports them in document order', () => {
  const pod = { metadata: { name: 'p', labelz: {} }, spec: { containers: [{ name: 'a', imagePullPolicyy: 'Always' }] } };
  const check = checkDecoded(pod, '', 'v1', 'Pod', { prune: true });
  assert.deepEqual(check.unknown, ['metadata.labelz', 'spec.containers[0].imagePullPolicyy']);
  assert.deepEqual(pod, { metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }] } });
});

test("an unknown field named as one of Object.prototype's members is unknown all the same", () => {
  const pod = { spec: { constructor: { a: 1 }, toString: 5, containers: [{ name: 'a', valueOf: 2, hasOwnProperty: 'x' }] } };
  const check = checkDecoded(pod, '', 'v1', 'Pod', { prune: true });
  assert.deepEqual(check.unknown, ['spec.constructor', 'spec.toString', 'spec.containers[0].valueOf', 'spec.containers[0].hasOwnProperty']);
  assert.deepEqual(pod, { spec: { containers: [{ name: 'a' }] } });
});

test('quantities decode as Quantity.UnmarshalJSON does: trimmed, written back canonical unless they were, or refused in its words', () => {
  const pod = { spec: { containers: [{ name: 'a', resources: { requests: { cpu: '0.5', memory: '1024Mi', 'nvidia.com/gpu': 1 }, limits: { cpu: ' 1000m ', memory: '2147483648' } } }] } };
  assert.equal(checkDecoded(pod, '', 'v1', 'Pod', { prune: true }).typeError, undefined);
  assert.deepEqual(pod.spec.containers[0]?.resources, { requests: { cpu: '500m', memory: '1Gi', 'nvidia.com/gpu': '1' }, limits: { cpu: '1', memory: '2147483648' } });
  const refused = (cpu: string): string | undefined => checkDecoded({ spec: { containers: [{ name: 'a', resources: { requests: { cpu } } }] } }, '', 'v1', 'Pod', { prune: true }).typeError;
  assert.equal(refused('abc'), "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  assert.equal(refused('32MMi'), "unable to parse quantity's suffix");
});

test('times decode as metav1.Time does: written back in UTC, whole seconds', () => {
  const pod = { status: { conditions: [
    { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-04T21:00:00.123Z' },
    { type: 'Initialized', status: 'True', lastTransitionTime: '2026-12-04T23:30:05+02:00' },
    { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-12-04T21:00:00Z' },
  ] } };
  assert.equal(checkDecoded(pod, '', 'v1', 'Pod', { prune: true }).typeError, undefined);
  assert.deepEqual(pod.status.conditions.map((c) => c.lastTransitionTime), ['2026-12-04T21:00:00Z', '2026-12-04T21:30:05Z', '2026-12-04T21:00:00Z']);
});
