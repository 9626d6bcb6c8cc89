// A burst of requests that arrives in one event-loop turn is started a turn's budget at a time, in
// arrival order, so the event loop (and every watch's pending writes) gets a turn in between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { shortTurns } from './short-turns.ts';

const busy = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const request = (id: number): IncomingMessage => ({ url: `/${id}` }) as IncomingMessage;
const response = {} as ServerResponse;

test('requests past the turn budget start in later turns, in arrival order', async () => {
  const started: string[] = [];
  const dispatch = shortTurns((req) => {
    started.push(req.url ?? '');
    busy(8);
  }, 20);
  for (let i = 0; i < 10; i++) dispatch(request(i), response);
  // 0 starts at once, then others while the turn is under 20 ms (1 and 2, on an unloaded machine).
  const first = started.length;
  assert.ok(first >= 1 && first <= 3, `the first turn starts 1 to 3 of 10: ${first}`);
  await nextTurn();
  assert.ok(started.length > first && started.length <= first + 3, `the next turn starts 1 to 3 more: ${started.length}`);
  for (let turns = 0; started.length < 10 && turns < 20; turns++) await nextTurn();
  assert.deepEqual(started, Array.from({ length: 10 }, (_, i) => `/${i}`));
});

test('a lone request starts at once, and so do cheap ones under the budget', () => {
  const started: string[] = [];
  const dispatch = shortTurns((req) => started.push(req.url ?? ''), 20);
  for (let i = 0; i < 100; i++) dispatch(request(i), response);
  assert.equal(started.length, 100);
});
