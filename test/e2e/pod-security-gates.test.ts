// The pod fields of four gates on by default in 1.35, through real kubectl: SupplementalGroupsPolicy
// (the 422 for a bad value, each container's status.user), RecursiveReadOnlyMounts (the 422s, the
// Enabled mount status), ProcMountType with UserNamespacesSupport (Unmasked needs hostUsers: false),
// and ImageVolume (the 422s, the image pulled with the pod's events before the container's).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const invalid = `apiVersion: v1
kind: Pod
metadata: {name: invalid}
spec:
  securityContext: {supplementalGroupsPolicy: Loose}
  volumes:
  - {name: scratch, emptyDir: {}}
  - {name: model, image: {pullPolicy: Sometimes}}
  containers:
  - name: c
    image: busybox
    securityContext: {procMount: Unmasked}
    volumeMounts:
    - {name: scratch, mountPath: /a, recursiveReadOnly: Enabled}
    - {name: scratch, mountPath: /b, readOnly: true, recursiveReadOnly: Maybe}
`;

const serving = `apiVersion: v1
kind: Pod
metadata: {name: serving}
spec:
  securityContext: {runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000], supplementalGroupsPolicy: Strict}
  volumes:
  - {name: scratch, emptyDir: {}}
  - {name: model, image: {reference: "quay.io/acme/model-weights:v1"}}
  containers:
  - name: server
    image: busybox
    command: [sleep, "3600"]
    volumeMounts:
    - {name: scratch, mountPath: /cache, readOnly: true, recursiveReadOnly: IfPossible}
    - {name: model, mountPath: /models}
`;

describe('1.35 pod security-context and volume gates with kubectl', () => {
  const dd = drydockForSuite({ config: cpuNodesConfig(1) });

  test('kubectl apply of bad gated fields fails with upstream field errors', async () => {
    const res = await dd.kubectl(['apply', '-f', '-'], { input: invalid });
    assert.notEqual(res.code, 0);
    assert.equal(
      res.stderr,
      `The Pod "invalid" is invalid: 
* spec.volumes[1].image.reference: Required value
* spec.volumes[1].image.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"
* spec.containers[0].volumeMounts.recursiveReadOnly: Forbidden: may only be specified when readOnly is true
* spec.containers[0].volumeMounts.recursiveReadOnly: Unsupported value: "Maybe": supported values: "Disabled", "Enabled", "IfPossible"
* spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": \`hostUsers\` must be false to use \`Unmasked\`
* spec.securityContext.supplementalGroupsPolicy: Unsupported value: "Loose": supported values: "Merge", "Strict"
`,
    );
  });

  test('a running pod reports its user, its recursively read-only mount, and the image volume pulled first', async () => {
    await dd.ok(['apply', '-f', '-'], { input: serving });
    await dd.ok(['wait', '--for=condition=Ready', 'pod/serving', '--timeout=60s'], { timeoutMs: 90_000 });
    const user = await dd.ok(['get', 'pod', 'serving', '-o', 'jsonpath={.status.containerStatuses[0].user}']);
    assert.deepEqual(JSON.parse(user), { linux: { uid: 1000, gid: 3000, supplementalGroups: [2000, 3000, 4000] } });
    const mounts = JSON.parse(await dd.ok(['get', 'pod', 'serving', '-o', 'jsonpath={.status.containerStatuses[0].volumeMounts}'])) as { name: string; recursiveReadOnly?: string }[];
    assert.deepEqual(mounts.slice(0, 2), [
      { mountPath: '/cache', name: 'scratch', readOnly: true, recursiveReadOnly: 'Enabled' },
      { mountPath: '/models', name: 'model' },
    ]);
    const features = await dd.ok(['get', 'node', 'cpu-0', '-o', 'jsonpath={.status.features.supplementalGroupsPolicy}']);
    assert.equal(features, 'true');
    const events = await dd.ok(['get', 'events', '--field-selector', 'involvedObject.name=serving', '--sort-by=.metadata.creationTimestamp', '-o', 'jsonpath={range .items[*]}{.reason}|{.involvedObject.fieldPath}|{.message}{"\\n"}{end}']);
    const pulls = events.split('\n').filter((l) => l.startsWith('Pulling|') || l.startsWith('Pulled|'));
    assert.deepEqual(pulls.map((l) => l.split('|').slice(0, 2).join('|')), ['Pulling|', 'Pulled|', 'Pulling|spec.containers{server}', 'Pulled|spec.containers{server}']);
    assert.equal(pulls[0], 'Pulling||Pulling image "quay.io/acme/model-weights:v1"');
  });
});
