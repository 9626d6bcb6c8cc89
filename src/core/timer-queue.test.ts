// TimerQueue (ScaledClock's timers): due timers fire in the order of the times they were set for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScaledClock } from './clock.ts';
import { TimerQueue } from './timer-queue.ts';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const settle = async (): Promise<void> => {
  for (let i = 0; i < 50; i++) await turn();
};

test('timers overdue after a stall fire in the order of the times they were set for, ties in creation order', async () => {
  let now = 0;
  const queue = new TimerQueue(() => now, (ms) => ms);
  const fired: string[] = [];
  queue.add(700, () => fired.push('tail poll at 0.7'));
  queue.add(300, () => fired.push('app write at 0.3'));
  queue.add(300, () => fired.push('second timer at 0.3'));
  queue.add(-50, () => fired.push('set for a time already past'));
  now = 5_000; // the process was busy: every timer is due when it gets the host again
  await settle();
  assert.deepEqual(fired, ['set for a time already past', 'app write at 0.3', 'second timer at 0.3', 'tail poll at 0.7']);
  assert.equal(queue.size, 0);
});

test('a due timer runs on its own turn: the promises the one before it started have settled', async () => {
  const queue = new TimerQueue(() => 1_000, (ms) => ms);
  const seen: string[] = [];
  queue.add(1, () => void Promise.resolve().then(() => Promise.resolve()).then(() => seen.push('first one’s promise chain')));
  queue.add(2, () => seen.push('second timer'));
  await settle();
  assert.deepEqual(seen, ['first one’s promise chain', 'second timer']);
});

test('cancelled timers never fire, and the rest keep their order through many adds and cancels', async () => {
  let now = 0;
  const queue = new TimerQueue(() => now, (ms) => ms);
  const fired: number[] = [];
  const timers = [];
  for (let i = 0; i < 500; i++) {
    const at = (i * 7919) % 1000;
    timers.push({ at, i, timer: queue.add(at, () => fired.push(i)) });
  }
  const kept = timers.filter(({ i }) => i % 3 !== 0);
  for (const { i, timer } of timers) if (i % 3 === 0) timer.cancel();
  assert.equal(queue.size, kept.length);
  now = 10_000;
  for (let i = 0; i < 20 && fired.length < kept.length; i++) await settle();
  const expected = [...kept].sort((a, b) => a.at - b.at || a.i - b.i).map(({ i }) => i);
  assert.deepEqual(fired, expected);
});

test('a timer fires once the clock reaches its time, not before', async () => {
  let now = 0;
  const queue = new TimerQueue(() => now, () => 1);
  let fired = false;
  queue.add(100, () => (fired = true));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(fired, false, 'the host timer came, the clock had not reached 100');
  now = 100;
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(fired, true);
});

test('ScaledClock: a timer set for a past time runs before one set earlier for a later time', async () => {
  const clock = new ScaledClock(10);
  const fired: string[] = [];
  const start = clock.now();
  clock.setTimer(start + 20, () => fired.push('later'));
  // Busy for 10 ms of host time: 100 ms of the clock's.
  const until = Date.now() + 10;
  while (Date.now() < until) {
    // spin: the process is stalled
  }
  clock.setTimer(start + 10, () => fired.push('earlier, set after it passed'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(fired, ['earlier, set after it passed', 'later']);
});

test('due timers run one after another at once, not when some distant host timer wakes the loop', async () => {
  const distant = setTimeout(() => undefined, 5_000);
  try {
    const queue = new TimerQueue(() => Date.now(), (ms) => ms);
    const start = Date.now();
    const fired = await new Promise<number>((resolve) => {
      let count = 0;
      for (let i = 0; i < 5; i++) queue.add(start - 10 + i, () => ++count === 5 && resolve(Date.now() - start));
    });
    assert.ok(fired < 1_000, `five due timers took ${fired} ms`);
  } finally {
    clearTimeout(distant);
  }
});
