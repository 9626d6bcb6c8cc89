import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kubeletVersionSkewProblem } from './version-skew.ts';

test('kubelets may be up to three minors older than the API server, never newer', () => {
  const rule = 'a kubelet must not be newer than kube-apiserver and may be up to 3 minor versions older';
  const cases: [string, string | undefined][] = [
    ['v1.35.0', undefined],
    ['v1.35.4', undefined],
    ['v1.34.2', undefined],
    ['v1.32.0', undefined],
    ['v1.36.0', `kubelet v1.36.0 on node "cpu-0" is newer than the API server v1.35.0: ${rule}`],
    ['v1.31.9', `kubelet v1.31.9 on node "cpu-0" is more than 3 minor versions older than the API server v1.35.0: ${rule}`],
  ];
  for (const [kubelet, want] of cases) assert.equal(kubeletVersionSkewProblem('cpu-0', kubelet, 'v1.35.0'), want, kubelet);
});
