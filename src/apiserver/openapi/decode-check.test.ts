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
