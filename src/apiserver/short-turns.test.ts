// A burst of requests that arrives in one event-loop turn is started a turn's budget at a time, in
// arrival order, so the event loop (and every watch's pending writes) gets a turn in between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { shortTurns } from './short-turns.ts';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const request = (id: number): IncomingMessage => ({ url: `/${id}` }) as IncomingMessage;
const response = {} as ServerResponse;

test('requests past the turn budget start in later turns, in arrival order', async () => {
  const started: string[] = [];
  // Each request works 8 ms of the (fake) elapsed clock.
  let elapsed = 0;
  const dispatch = shortTurns(
    (req) => {
      started.push(req.url ?? '');
      elapsed += 8;
    },
    20,
    () => elapsed,
  );
  for (let i = 0; i < 10; i++) dispatch(request(i), response);
  // 0 starts at once, then 1 and 2 while the turn is under 20 ms (at 8 and 16); 3 would start at 24.
  assert.deepEqual(started, ['/0', '/1', '/2']);
  await nextTurn();
  assert.deepEqual(started, ['/0', '/1', '/2', '/3', '/4', '/5']);
  for (let turns = 0; started.length < 10 && turns < 20; turns++) await nextTurn();
  assert.deepEqual(started, Array.from({ length: 10 }, (_, i) => `/${i}`));
});

test('a lone request starts at once, and so do cheap ones under the budget', () => {
  const started: string[] = [];
  // A hundred requests of 0.1 ms each: 10 ms, under the 20 ms budget.
  let elapsed = 0;
  const dispatch = shortTurns(
    (req) => {
      started.push(req.url ?? '');
      elapsed += 0.1;
    },
    20,
    () => elapsed,
  );
  for (let i = 0; i < 100; i++) dispatch(request(i), response);
  assert.equal(started.length, 100);
});
