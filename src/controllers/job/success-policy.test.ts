import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SuccessPolicy } from '../../api/index.ts';
import { parseIndexesFromString } from './indexes.ts';
import { matchSuccessPolicy } from './success-policy.ts';

const cases: { name: string; policy: SuccessPolicy; succeeded: string; want: string | undefined }[] = [
  { name: 'all listed indexes succeeded', policy: { rules: [{ succeededIndexes: '0,2' }] }, succeeded: '0-2', want: 'Matched rules at index 0' },
  { name: 'a listed index is missing', policy: { rules: [{ succeededIndexes: '0,2' }] }, succeeded: '0,1', want: undefined },
  { name: 'enough of the listed indexes', policy: { rules: [{ succeededIndexes: '0-3', succeededCount: 2 }] }, succeeded: '1,3,4', want: 'Matched rules at index 0' },
  { name: 'too few of the listed indexes', policy: { rules: [{ succeededIndexes: '0-1', succeededCount: 2 }] }, succeeded: '1,3,4', want: undefined },
  { name: 'only a count, matched by the second rule', policy: { rules: [{ succeededIndexes: '4' }, { succeededCount: 3 }] }, succeeded: '0-2', want: 'Matched rules at index 1' },
  { name: 'nothing succeeded', policy: { rules: [{ succeededCount: 0 }] }, succeeded: '', want: undefined },
];

for (const c of cases) {
  test(`matchSuccessPolicy: ${c.name}`, () => {
    assert.equal(matchSuccessPolicy(c.policy, 5, parseIndexesFromString(c.succeeded, 5)), c.want);
  });
}
