import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitErrorMessage, NodeStatusMap } from './fit-error.ts';
import { unresolvable, unschedulable } from './framework.ts';

const notHelpful = 'Preemption is not helpful for scheduling';

function statuses(perNode: Record<string, string[]>, absent = notHelpful): NodeStatusMap {
  const m = new NodeStatusMap(unresolvable(absent));
  for (const [n, r] of Object.entries(perNode)) m.set(n, unschedulable(...r));
  return m;
}

function preemption(numAll: number, perNode: Record<string, string[]> = {}): string {
  return `preemption: ${fitErrorMessage(numAll, { nodeToStatus: statuses(perNode), preFilterMsg: '', postFilterMsg: '' })}`;
}

test('FitError.Error reproduces the verbatim upstream messages of spec/dra.md §6', () => {
  const cases: [string, number, Record<string, string[]>, string][] = [
    ['0/2 nodes are available: 2 cannot allocate all claims. still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      2, { a: ['cannot allocate all claims'], b: ['cannot allocate all claims'] }, `still not schedulable, ${preemption(2)}`],
    ['0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 cannot allocate all claims. still not schedulable, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
      4, { a: ['node(s) had untolerated taint(s)'], b: ['cannot allocate all claims'], c: ['cannot allocate all claims'], d: ['cannot allocate all claims'] }, `still not schedulable, ${preemption(4)}`],
    ['0/8 nodes are available: 1 invalid resource pools were encountered, 7 cannot allocate all claims. still not schedulable, preemption: 0/8 nodes are available: 8 Preemption is not helpful for scheduling.',
      8, Object.fromEntries([['n0', ['invalid resource pools were encountered']], ...[1, 2, 3, 4, 5, 6, 7].map((i) => [`n${i}`, ['cannot allocate all claims']])]), `still not schedulable, ${preemption(8)}`],
    ['0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
      3, { a: ['node(s) had untolerated taint(s)'], b: ['Insufficient cpu'], c: ['Insufficient cpu'] },
      `no new claims to deallocate, ${preemption(3, { b: ['No preemption victims found for incoming pod'], c: ['No preemption victims found for incoming pod'] })}`],
  ];
  for (const [want, n, perNode, post] of cases) {
    assert.equal(fitErrorMessage(n, { nodeToStatus: statuses(perNode), preFilterMsg: '', postFilterMsg: post }), want);
  }
});

test('FitError counts every reason of every node once and sorts as Go strings ("10 x" before "2 y")', () => {
  const perNode: Record<string, string[]> = { a: ['Insufficient cpu', 'Insufficient memory'], b: ['Insufficient memory'] };
  for (let i = 0; i < 10; i++) perNode[`x${i}`] = ['node(s) were unschedulable'];
  assert.equal(fitErrorMessage(12, { nodeToStatus: statuses(perNode), preFilterMsg: '', postFilterMsg: '' }),
    '0/12 nodes are available: 1 Insufficient cpu, 10 node(s) were unschedulable, 2 Insufficient memory.');
});

test('a PreFilter rejection replaces the per-node histogram', () => {
  assert.equal(fitErrorMessage(3, { nodeToStatus: statuses({}), preFilterMsg: 'persistentvolumeclaim "data" not found', postFilterMsg: 'preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.' }),
    '0/3 nodes are available: persistentvolumeclaim "data" not found. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.');
});
