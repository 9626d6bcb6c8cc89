import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedMemo } from './bounded-memo.ts';

test('boundedMemo computes a key once, an undefined result included, and starts over when full', () => {
  const calls: string[] = [];
  const memo = boundedMemo(2, (key: string) => {
    calls.push(key);
    return key === 'none' ? undefined : key.length;
  });
  assert.deepEqual([memo('ab'), memo('ab'), memo('none'), memo('none')], [2, 2, undefined, undefined]);
  assert.deepEqual(calls, ['ab', 'none']);
  memo('abc');
  memo('ab');
  assert.deepEqual(calls, ['ab', 'none', 'abc', 'ab']);
});
