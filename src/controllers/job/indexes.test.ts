import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstPendingIndexes, formatIntervals, getCompletionIndex, parseIndexesFromString, totalIndexes, withIndexes } from './indexes.ts';

const parse: { text: string; completions: number; want: string; total: number }[] = [
  { text: '', completions: 5, want: '', total: 0 },
  { text: '0-2,5', completions: 10, want: '0-2,5', total: 4 },
  { text: '1,2', completions: 10, want: '1,2', total: 2 },
  { text: '0,1,2,3', completions: 10, want: '0-3', total: 4 },
  { text: '3-9', completions: 5, want: '3,4', total: 2 },
  { text: '1,x,7', completions: 5, want: '1', total: 1 },
  { text: '0-1,2-4', completions: 10, want: '0-4', total: 5 },
];

for (const c of parse) {
  test(`parseIndexesFromString ${JSON.stringify(c.text)} (completions ${c.completions}) prints ${JSON.stringify(c.want)}`, () => {
    const iv = parseIndexesFromString(c.text, c.completions);
    assert.equal(formatIntervals(iv), c.want);
    assert.equal(totalIndexes(iv), c.total);
  });
}

test('withIndexes merges new indexes in order, joining neighbours', () => {
  assert.equal(formatIntervals(withIndexes(parseIndexesFromString('1,5-6', 10), [3, 2, 9, 4])), '1-6,9');
  assert.equal(formatIntervals(withIndexes([], [0, 0, 2])), '0,2');
});

test('firstPendingIndexes skips non-pending indexes', () => {
  assert.deepEqual(firstPendingIndexes(parseIndexesFromString('0,2-3', 10), 3, 10), [1, 4, 5]);
  assert.deepEqual(firstPendingIndexes([], 2, 10), [0, 1]);
  assert.deepEqual(firstPendingIndexes(parseIndexesFromString('0-3', 5), 3, 5), [4]);
});

test('getCompletionIndex reads the annotation and rejects malformed values', () => {
  const at = (v: string): number => getCompletionIndex({ 'batch.kubernetes.io/job-completion-index': v });
  assert.deepEqual([at('3'), at('-1'), at('x'), getCompletionIndex(undefined)], [3, -1, -1, -1]);
});
