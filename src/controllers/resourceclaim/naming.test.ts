import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimGenerateName } from './naming.ts';

test('generated claim names: <pod>-<podClaim>-, both parts cut in proportion beyond 57 characters', () => {
  const cases: [string, string, string][] = [
    ['gpu-pod', 'gpu-claim', 'gpu-pod-gpu-claim-'],
    ['tester-1', 'my-inline-claim', 'tester-1-my-inline-claim-'],
    // 40 + 1 + 20 + 1 = 62 > 57: pod 40*57/62 = 36, claim 20*57/62 = 18, no trailing hyphen.
    ['p'.repeat(40), 'c'.repeat(20), `${'p'.repeat(36)}-${'c'.repeat(18)}`],
  ];
  for (const [pod, podClaim, want] of cases) assert.equal(claimGenerateName(pod, podClaim), want);
});
