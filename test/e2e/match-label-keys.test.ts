// matchLabelKeys with real kubectl: a Deployment that keeps one replica per node with
// `podAntiAffinity` + `matchLabelKeys: [pod-template-hash]` rolls out with a surge pod, because the
// API server merges each pod's own hash into the stored selector (MatchLabelKeysInPodAffinity,
// MatchLabelKeysInPodTopologySpreadSelectorMerge); a pod naming a key twice is refused.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuNodesConfig, drydockForSuite } from './harness.ts';

const cluster = cpuNodesConfig(2);

const deployment = (image: string): string => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: ${image}}]
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - topologyKey: kubernetes.io/hostname
            labelSelector: {matchLabels: {app: web}}
            matchLabelKeys: [pod-template-hash]
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: kubernetes.io/hostname
        whenUnsatisfiable: ScheduleAnyway
        labelSelector: {matchLabels: {app: web}}
        matchLabelKeys: [pod-template-hash]
`;

interface PodJson {
  metadata: { labels: Record<string, string> };
  spec: {
    affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { labelSelector: unknown }[] } };
    topologySpreadConstraints: { labelSelector: unknown; matchLabelKeys: string[] }[];
  };
}

describe('matchLabelKeys with kubectl', () => {
  const dd = drydockForSuite({ config: cluster });

  test('a Deployment with one replica per node rolls out with a surge pod: pods of another revision do not repel it', async () => {
    await dd.ok(['apply', '-f', '-'], { input: deployment('nginx:1.27') });
    await dd.ok(['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 90_000 });
    await dd.ok(['apply', '-f', '-'], { input: deployment('nginx:1.28') });
    const out = await dd.ok(['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 90_000 });
    assert.equal(out.trim().split('\n').at(-1), 'deployment "web" successfully rolled out');

    const pods = (JSON.parse(await dd.ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])) as { items: PodJson[] }).items;
    assert.equal(pods.length, 2);
    for (const p of pods) {
      const merged = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'pod-template-hash', operator: 'In', values: [p.metadata.labels['pod-template-hash']] }] };
      assert.deepEqual(p.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]?.labelSelector, merged);
      assert.deepEqual(p.spec.topologySpreadConstraints[0]?.labelSelector, merged);
      assert.deepEqual(p.spec.topologySpreadConstraints[0]?.matchLabelKeys, ['pod-template-hash']);
    }
  });

  test('a pod naming a key in both matchLabelKeys and labelSelector is refused with upstream\'s message', async () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: {name: twice, labels: {app: web}}
spec:
  containers: [{name: c, image: nginx}]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
        labelSelector: {matchLabels: {app: web}}
        matchLabelKeys: [app]
`;
    const r = await dd.kubectl(['apply', '-f', '-'], { input: pod });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr.trim(),
      'The Pod "twice" is invalid: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector',
    );
  });
});
