// DaemonSets as a kubectl user meets them: a GPU-node agent applied from a real manifest lands on
// the GPU nodes only, `rollout status|history|undo` and `set image` work through ControllerRevisions,
// a cordoned node keeps its daemon pod, and deleting the DaemonSet takes its pods and history along.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drydockForSuite } from './harness.ts';

const cluster = `apiVersion: drydock.dev/v1alpha1
kind: Cluster
nodePools:
- name: cpu
  count: 1
- name: gpu
  count: 2
  gpus: {model: H100-80GB, count: 2}
`;

const manifest = readFileSync(join(import.meta.dirname, '../../../test/fixtures/dcgm-exporter-daemonset.yaml'), 'utf8');
const lines = (text: string): string[][] => text.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('DaemonSets with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  const ok = (args: string[]): Promise<string> => dd.ok(args);
  const podNodes = async (): Promise<string[]> => (await ok(['get', 'pods', '-l', 'app.kubernetes.io/name=dcgm-exporter', '-o', 'jsonpath={range .items[*]}{.spec.nodeName}{"\\n"}{end}'])).trim().split('\n').sort();

  test('apply: one pod per GPU node, rollout status, the DESIRED ... NODE SELECTOR columns', async () => {
    assert.equal((await dd.kubectl(['apply', '-f', '-'], { input: manifest })).stdout.trim(), 'daemonset.apps/dcgm-exporter created');
    assert.equal((await ok(['rollout', 'status', 'ds/dcgm-exporter', '--timeout=60s'])).trim().split('\n').at(-1), 'daemon set "dcgm-exporter" successfully rolled out');
    assert.deepEqual(await podNodes(), ['gpu-0', 'gpu-1']);
    const rows = lines(await ok(['get', 'ds', 'dcgm-exporter']));
    assert.deepEqual(rows[0], ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE']);
    assert.deepEqual(rows[1]?.slice(0, 7), ['dcgm-exporter', '2', '2', '2', '2', '2', 'nvidia.com/gpu.present=true']);
  });

  test('set image rolls the pods; rollout history lists two revisions; undo brings the first image back', async () => {
    await ok(['set', 'image', 'ds/dcgm-exporter', 'exporter=nvcr.io/nvidia/k8s/dcgm-exporter:4.1.1-4.0.4-ubuntu22.04']);
    await ok(['rollout', 'status', 'ds/dcgm-exporter', '--timeout=60s']);
    const images = async (): Promise<string[]> => [...new Set((await ok(['get', 'pods', '-l', 'app.kubernetes.io/name=dcgm-exporter', '-o', 'jsonpath={.items[*].spec.containers[0].image}'])).split(' '))];
    assert.deepEqual(await images(), ['nvcr.io/nvidia/k8s/dcgm-exporter:4.1.1-4.0.4-ubuntu22.04']);
    assert.deepEqual(lines(await ok(['rollout', 'history', 'ds/dcgm-exporter'])).slice(1), [['REVISION', 'CHANGE-CAUSE'], ['1', '<none>'], ['2', '<none>']]);
    assert.match(await ok(['get', 'controllerrevisions']), /dcgm-exporter-\w+\s+daemonset\.apps\/dcgm-exporter\s+2\s/);
    assert.equal((await ok(['rollout', 'undo', 'ds/dcgm-exporter'])).trim(), 'daemonset.apps/dcgm-exporter rolled back');
    await ok(['rollout', 'status', 'ds/dcgm-exporter', '--timeout=60s']);
    assert.deepEqual(await images(), ['nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.0-ubuntu22.04']);
    assert.deepEqual(lines(await ok(['rollout', 'history', 'ds/dcgm-exporter'])).slice(1), [['REVISION', 'CHANGE-CAUSE'], ['2', '<none>'], ['3', '<none>']]);
  });

  test('a cordoned node keeps its daemon pod; delete takes the pods and the revisions along', async () => {
    await ok(['cordon', 'gpu-0']);
    await new Promise((r) => globalThis.setTimeout(r, 500));
    assert.deepEqual(await podNodes(), ['gpu-0', 'gpu-1']);
    await ok(['delete', 'ds', 'dcgm-exporter']);
    for (let i = 0; i < 50; i++) {
      const left = (await ok(['get', 'pods,controllerrevisions', '-l', 'app.kubernetes.io/name=dcgm-exporter', '-o', 'name'])).trim();
      if (!left) return;
      await new Promise((r) => globalThis.setTimeout(r, 100));
    }
    assert.fail('pods and controllerrevisions still there');
  });
});
