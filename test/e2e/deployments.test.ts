// Deployments as a kubectl user meets them: create, rollout status, scale, set image,
// rollout history/undo/restart, and delete cascading to ReplicaSets and pods. Pods run on
// the simulated kubelets of a small cluster.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const cluster = cpuNodesConfig(2);

interface ReplicaSetJson {
  metadata: { name: string; annotations?: Record<string, string>; ownerReferences?: { kind: string; name: string }[] };
  spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
}

describe('Deployments with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  const ok = async (args: string[]): Promise<string> => {
    const r = await dd.kubectl(args, { timeoutMs: 90_000 });
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}\n${r.stderr}`);
    return r.stdout;
  };
  const rolledOut = async (): Promise<void> => {
    const out = await ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    assert.equal(out.trim().split('\n').at(-1), 'deployment "web" successfully rolled out');
  };
  const replicaSets = async (): Promise<ReplicaSetJson[]> => (JSON.parse(await ok(['get', 'rs', '-l', 'app=web', '-o', 'json'])) as { items: ReplicaSetJson[] }).items;
  const byRevision = (rss: ReplicaSetJson[], rev: string): ReplicaSetJson | undefined => rss.find((r) => r.metadata.annotations?.['deployment.kubernetes.io/revision'] === rev);

  test('create deployment rolls out and get shows READY 2/2', async () => {
    assert.equal((await ok(['create', 'deployment', 'web', '--image=nginx', '--replicas=2'])).trim(), 'deployment.apps/web created');
    await rolledOut();
    const lines = (await ok(['get', 'deploy', 'web'])).trim().split('\n');
    assert.match(lines[0] ?? '', /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/);
    assert.deepEqual(lines[1]?.split(/\s+/).slice(0, 4), ['web', '2/2', '2', '2']);
    const [rs] = await replicaSets();
    assert.match(rs?.metadata.name ?? '', /^web-[456789bcdf]{1,10}$/);
    assert.deepEqual(rs?.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name}`), ['Deployment/web']);
  });

  test('managedFields name the programs that wrote each part, as upstream components identify', async () => {
    const managers = async (args: string[]): Promise<string[]> =>
      (await ok([...args, '--show-managed-fields', '-o', 'jsonpath={range .metadata.managedFields[*]}{.manager}/{.operation}/{.subresource}{"\\n"}{end}'])).trim().split('\n').sort();
    assert.deepEqual(await managers(['get', 'deploy', 'web']), ['kube-controller-manager/Update/status', 'kubectl-create/Update/']);
    const [rs] = await replicaSets();
    assert.deepEqual(await managers(['get', 'rs', rs?.metadata.name ?? '']), ['kube-controller-manager/Update/', 'kube-controller-manager/Update/status']);
    const pod = (await ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    assert.deepEqual(await managers(['get', 'pod', pod]), ['kube-controller-manager/Update/', 'kubelet/Update/status']);
  });

  test('kubectl create owns what a real cluster records for it, "." markers included', async () => {
    const entries = JSON.parse(await ok(['get', 'deploy', 'web', '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields}'])) as { manager: string; fieldsV1: unknown }[];
    const leaf = {};
    // What a 1.35 API server answers after `kubectl create deployment web --image=nginx`.
    assert.deepEqual(entries.find((e) => e.manager === 'kubectl-create')?.fieldsV1, {
      'f:metadata': { 'f:labels': { '.': leaf, 'f:app': leaf } },
      'f:spec': {
        'f:progressDeadlineSeconds': leaf,
        'f:replicas': leaf,
        'f:revisionHistoryLimit': leaf,
        'f:selector': leaf,
        'f:strategy': { 'f:rollingUpdate': { '.': leaf, 'f:maxSurge': leaf, 'f:maxUnavailable': leaf }, 'f:type': leaf },
        'f:template': {
          'f:metadata': { 'f:labels': { '.': leaf, 'f:app': leaf } },
          'f:spec': {
            'f:containers': { 'k:{"name":"nginx"}': { '.': leaf, 'f:image': leaf, 'f:imagePullPolicy': leaf, 'f:name': leaf, 'f:resources': leaf, 'f:terminationMessagePath': leaf, 'f:terminationMessagePolicy': leaf } },
            'f:dnsPolicy': leaf,
            'f:restartPolicy': leaf,
            'f:schedulerName': leaf,
            'f:securityContext': leaf,
            'f:terminationGracePeriodSeconds': leaf,
          },
        },
      },
    });
  });

  test('scale changes the replica count', async () => {
    assert.equal((await ok(['scale', 'deployment', 'web', '--replicas=3'])).trim(), 'deployment.apps/web scaled');
    await rolledOut();
    assert.equal(await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.status.readyReplicas}/{.status.replicas}']), '3/3');
  });

  test('a replica count that is not an int32, or is negative, is refused as upstream decodes and validates a Scale', async () => {
    const refused = async (args: string[]): Promise<string> => {
      const r = await dd.kubectl(args);
      assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} should fail`);
      return r.stderr;
    };
    assert.match(await refused(['scale', 'deployment', 'web', '--replicas=3000000000']), /json: cannot unmarshal number 3000000000 into Go struct field ScaleSpec\.spec\.replicas of type int32/);
    assert.match(await refused(['patch', 'deployment', 'web', '-p', '{"spec":{"replicas":1e10}}']), /json: cannot unmarshal number 10000000000 into Go struct field DeploymentSpec\.spec\.replicas of type int32/);
    assert.match(
      await refused(['patch', 'deployment', 'web', '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":-1}}']),
      /The Scale "web" is invalid: spec\.replicas: Invalid value: -1: must be greater than or equal to 0/,
    );
    assert.equal(await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}']), '3');
  });

  test('set image rolls out revision 2; rollout undo brings revision 1 back as 3', async () => {
    assert.equal((await ok(['set', 'image', 'deployment/web', 'nginx=nginx:1.27'])).trim(), 'deployment.apps/web image updated');
    await rolledOut();
    let rss = await replicaSets();
    assert.equal(rss.length, 2);
    assert.equal(byRevision(rss, '2')?.spec.template.spec.containers[0]?.image, 'nginx:1.27');
    assert.equal(byRevision(rss, '2')?.spec.replicas, 3);
    assert.equal(byRevision(rss, '1')?.spec.replicas, 0);
    const history = (await ok(['rollout', 'history', 'deployment/web'])).trim().split('\n');
    assert.equal(history[0], 'deployment.apps/web ');
    assert.match(history[1] ?? '', /^REVISION\s+CHANGE-CAUSE$/);
    assert.deepEqual(history.slice(2).map((l) => l.split(/\s+/)[0]), ['1', '2']);

    const oldName = byRevision(rss, '1')?.metadata.name;
    assert.equal((await ok(['rollout', 'undo', 'deployment/web'])).trim(), 'deployment.apps/web rolled back');
    await rolledOut();
    rss = await replicaSets();
    assert.equal(byRevision(rss, '3')?.metadata.name, oldName);
    assert.equal(byRevision(rss, '3')?.metadata.annotations?.['deployment.kubernetes.io/revision-history'], '1');
    assert.equal(await ok(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}']), 'nginx');
  });

  test('rollout restart creates a new revision with a restartedAt template annotation', async () => {
    assert.equal((await ok(['rollout', 'restart', 'deployment/web'])).trim(), 'deployment.apps/web restarted');
    await rolledOut();
    const rss = await replicaSets();
    assert.ok(byRevision(rss, '4')?.spec.replicas === 3);
  });

  test('delete deployment removes its ReplicaSets and pods', async () => {
    assert.equal((await ok(['delete', 'deployment', 'web'])).trim(), 'deployment.apps "web" deleted');
    for (let i = 0; i < 100; i++) {
      const rs = (await ok(['get', 'rs', '-l', 'app=web', '-o', 'name'])).trim();
      const pods = (await ok(['get', 'pods', '-l', 'app=web', '-o', 'name'])).trim();
      if (!rs && !pods) return;
      await new Promise((r) => globalThis.setTimeout(r, 200));
    }
    assert.fail('ReplicaSets or pods of web are still there');
  });

  test('--cascade=orphan keeps the ReplicaSet without its owner; --cascade=foreground waits for dependents', async () => {
    await ok(['create', 'deployment', 'keep', '--image=nginx', '--replicas=1']);
    await ok(['rollout', 'status', 'deployment/keep', '--timeout=60s']);
    assert.equal((await ok(['delete', 'deployment', 'keep', '--cascade=orphan'])).trim(), 'deployment.apps "keep" deleted');
    const rs = JSON.parse(await ok(['get', 'rs', '-l', 'app=keep', '-o', 'json'])) as { items: ReplicaSetJson[] };
    assert.equal(rs.items.length, 1);
    assert.deepEqual(rs.items[0]?.metadata.ownerReferences ?? [], []);
    await ok(['delete', 'rs', '-l', 'app=keep']);

    await ok(['create', 'deployment', 'fg', '--image=nginx', '--replicas=1']);
    await ok(['rollout', 'status', 'deployment/fg', '--timeout=60s']);
    // kubectl waits for the object to go away; with foreground that means after its RS and pods.
    assert.equal((await ok(['delete', 'deployment', 'fg', '--cascade=foreground'])).trim(), 'deployment.apps "fg" deleted');
    assert.equal((await ok(['get', 'rs,pods', '-l', 'app=fg', '-o', 'name'])).trim(), '');
  });
});
