// Pod Security admission as a namespace owner meets it with real kubectl: a namespace enforcing
// restricted refuses a plain pod in upstream's words and admits a hardened one, `kubectl apply` of a
// Deployment whose template would be refused prints upstream's Warning line, a warn-only namespace
// admits with a Warning, and `kubectl label ns` tightening the enforce level warns about the pods
// already there.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures/pod-security', name), 'utf8');
const config = 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n';

const restrictedReasons = (c: string): string =>
  `allowPrivilegeEscalation != false (container "${c}" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "${c}" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "${c}" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "${c}" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`;

describe('Pod Security admission', () => {
  const dd = drydockForSuite({ config });

  test('enforce=restricted refuses a plain pod and admits a hardened one', async () => {
    assert.equal(await dd.ok(['apply', '-f', dd.writeFile('restricted-namespace.yaml', fixture('restricted-namespace.yaml'))]), 'namespace/locked created\n');
    const plain = dd.writeFile('plain-pod.yaml', fixture('plain-pod.yaml'));
    const refused = await dd.kubectl(['apply', '-f', plain]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `Error from server (Forbidden): error when creating "${plain}": pods "nginx" is forbidden: violates PodSecurity "restricted:latest": ${restrictedReasons('nginx')}\n`);
    const hardened = await dd.kubectl(['apply', '-f', dd.writeFile('restricted-pod.yaml', fixture('restricted-pod.yaml'))]);
    assert.deepEqual([hardened.stdout, hardened.stderr], ['pod/nginx-restricted created\n', '']);
  });

  test('kubectl apply of a Deployment whose pods would be refused prints the Warning line', async () => {
    const applied = await dd.kubectl(['apply', '-f', dd.writeFile('web-deployment.yaml', fixture('web-deployment.yaml'))]);
    assert.equal(applied.stdout, 'deployment.apps/web created\n');
    assert.equal(applied.stderr, `Warning: would violate PodSecurity "restricted:latest": ${restrictedReasons('web')}\n`);
  });

  test('warn alone admits the pod and says what the level would refuse', async () => {
    await dd.ok(['create', 'namespace', 'watched']);
    const labelled = await dd.kubectl(['label', 'ns', 'watched', 'pod-security.kubernetes.io/warn=baseline']);
    assert.deepEqual([labelled.stdout, labelled.stderr], ['namespace/watched labeled\n', '']);
    const run = await dd.kubectl(['run', 'agent', '-n', 'watched', '--image=busybox:1.36', '--overrides={"spec":{"hostNetwork":true}}', '--', 'sleep', '3600']);
    assert.deepEqual([run.stdout, run.stderr], ['pod/agent created\n', 'Warning: would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)\n']);
  });

  test('kubectl label ns to a stricter enforce level warns about the pods already there', async () => {
    assert.equal(await dd.ok(['apply', '-f', dd.writeFile('legacy-namespace.yaml', fixture('legacy-namespace.yaml'))]), 'namespace/legacy created\npod/legacy-app created\npod/node-agent created\n');
    const labelled = await dd.kubectl(['label', 'ns', 'legacy', 'pod-security.kubernetes.io/enforce=restricted']);
    assert.equal(labelled.stdout, 'namespace/legacy labeled\n');
    assert.equal(
      labelled.stderr,
      [
        'Warning: existing pods in namespace "legacy" violate the new PodSecurity enforce level "restricted:latest"',
        'Warning: legacy-app: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
        'Warning: node-agent: host namespaces, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
        '',
      ].join('\n'),
    );
    // Relaxing it again checks nothing; a bad value is refused as upstream refuses it.
    const relaxed = await dd.kubectl(['label', 'ns', 'legacy', '--overwrite', 'pod-security.kubernetes.io/enforce=baseline']);
    assert.deepEqual([relaxed.stdout, relaxed.stderr], ['namespace/legacy labeled\n', '']);
    const bad = await dd.kubectl(['label', 'ns', 'legacy', '--overwrite', 'pod-security.kubernetes.io/enforce=strict']);
    assert.equal(bad.stderr, 'The Namespace "legacy" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted\n');
  });
});
