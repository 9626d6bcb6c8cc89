// MemoryStore: the shared contract, plus what only the in-memory backend promises
// (bounded history, shared event objects, ordering under re-entrant writes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../core/index.ts';
import { MemoryStore } from './memory.ts';
import { StoreError } from './store.ts';
import type { KeyValue, WatchEvent } from './store.ts';
import { runStoreConformance } from './store.conformance.ts';

runStoreConformance('memory', { create: () => new MemoryStore() });

test('MemoryStore keeps historyLimit events and answers older requests with compacted', async () => {
  const store = new MemoryStore({ historyLimit: 3 });
  for (let i = 1; i <= 5; i++) await store.create(`/r/k${i}`, `v${i}`);
  assert.equal(store.compactedRevision(), 2);
  await assert.rejects(store.list('/r/', { atRevision: 1 }), (e) => e instanceof StoreError && e.kind === 'compacted' && e.compactedRevision === 2);
  assert.deepEqual((await store.list('/r/', { atRevision: 2 })).items.map((kv) => kv.key), ['/r/k1', '/r/k2']);
  const events: number[] = [];
  const errors: (StoreError | Error)[] = [];
  store.watch('/r/', 1, { onEvent: (e) => events.push(e.kv.modRevision), onError: (e) => errors.push(e) });
  store.watch('/r/', 2, { onEvent: (e) => events.push(e.kv.modRevision), onError: (e) => errors.push(e) });
  await Promise.resolve();
  assert.deepEqual(events, [3, 4, 5]);
  assert.equal(errors.length, 1);
  await store.close();
});

test('MemoryStore hands every watcher the same event object, live and replayed', async () => {
  const store = new MemoryStore();
  await store.create('/r/a', '1');
  const seen: WatchEvent[][] = [[], [], []];
  for (const [i, from] of [0, 0, 1].entries()) {
    store.watch('/r/', from, { onEvent: (e) => seen[i]?.push(e), onError: assert.fail });
  }
  await store.update('/r/a', '2');
  await Promise.resolve();
  const [a, b, c] = seen as [WatchEvent[], WatchEvent[], WatchEvent[]];
  assert.equal(a.length, 2);
  assert.equal(a[0], b[0]);
  assert.equal(a[1], b[1]);
  assert.equal(a[1], c[0]);
  assert.ok(Object.isFrozen(a[1]) && Object.isFrozen(a[1]?.kv));
  await store.close();
});

test('MemoryStore delivers live events synchronously, before the write resolves', async () => {
  const store = new MemoryStore();
  const seen: string[] = [];
  store.watch('/r/', 0, { onEvent: (e) => seen.push(e.kv.value), onError: assert.fail });
  await Promise.resolve();
  const write = store.create('/r/a', 'x');
  assert.deepEqual(seen, ['x']);
  await write;
  await store.close();
});

test('MemoryStore keeps revision order for every watcher when a handler writes', async () => {
  const store = new MemoryStore();
  const first: number[] = [];
  const second: number[] = [];
  store.watch('/r/', 0, {
    onEvent: (e) => {
      first.push(e.kv.modRevision);
      if (e.kv.key === '/r/a') void store.create('/r/b', 'from handler');
    },
    onError: assert.fail,
  });
  store.watch('/r/', 0, { onEvent: (e) => second.push(e.kv.modRevision), onError: assert.fail });
  await Promise.resolve();
  await store.create('/r/a', 'x');
  assert.deepEqual(first, [1, 2]);
  assert.deepEqual(second, [1, 2]);
  await store.close();
});

test('MemoryStore stops a watcher whose handler throws and tells it why, without failing the write', async () => {
  const store = new MemoryStore();
  const errors: string[] = [];
  store.watch('/r/', 0, {
    onEvent: () => {
      throw new Error('handler bug');
    },
    onError: (e) => errors.push(e.message),
  });
  await Promise.resolve();
  await store.create('/r/a', 'x');
  await store.create('/r/b', 'y');
  assert.deepEqual(errors, ['handler bug']);
  await store.close();
});

test('MemoryStore list atRevision and count agree with a naive model over random writes', async () => {
  const random = new SeededRandom(7);
  const store = new MemoryStore({ historyLimit: 400 });
  const model = new Map<string, KeyValue>();
  const snapshots: { revision: number; state: KeyValue[] }[] = [];
  for (let step = 0; step < 3000; step++) {
    const key = `/r/ns${random.int(3)}/k${random.int(60)}`;
    const current = model.get(key);
    if (current === undefined) model.set(key, await store.create(key, `v${step}`));
    else if (random.int(3) === 0) {
      await store.delete(key, current.modRevision);
      model.delete(key);
    } else model.set(key, await store.update(key, `v${step}`, current.modRevision));
    if (step % 97 === 0) await store.compact(Math.max(store.compactedRevision(), store.revision() - random.int(300)));
    if (step % 13 === 0) {
      snapshots.push({ revision: store.revision(), state: [...model.values()].sort((x, y) => (x.key < y.key ? -1 : 1)) });
    }
  }
  let checked = 0;
  for (const { revision, state } of snapshots) {
    if (revision < store.compactedRevision()) continue;
    for (const prefix of ['/r/', '/r/ns1/']) {
      const want = state.filter((kv) => kv.key.startsWith(prefix));
      const pages: KeyValue[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await store.list(prefix, { limit: 7, atRevision: revision, ...(after === undefined ? {} : { after }) });
        pages.push(...page.items);
        assert.equal(page.remaining, want.length - pages.length);
        if (!page.more) break;
        after = page.items[page.items.length - 1]?.key;
      }
      assert.deepEqual(pages, want);
      checked++;
    }
  }
  assert.ok(checked > 10, `only ${checked} snapshots were still readable`);
  assert.equal(await store.count('/r/'), model.size);
  assert.deepEqual((await store.list('/r/')).items, [...model.values()].sort((x, y) => (x.key < y.key ? -1 : 1)));
  await store.close();
});

test('MemoryStore lists, pages and counts one namespace among 150,000 keys', async () => {
  const store = new MemoryStore();
  for (let ns = 0; ns < 150; ns++) {
    for (let i = 0; i < 1000; i++) await store.create(`/registry/pods/ns${ns}/pod-${i}`, '{}');
  }
  const page = await store.list('/registry/pods/ns77/');
  assert.equal(page.items.length, 1000);
  assert.equal(page.items[0]?.key, '/registry/pods/ns77/pod-0');
  assert.equal(await store.count('/registry/pods/'), 150_000);
  const first = await store.list('/registry/pods/', { limit: 500 });
  assert.deepEqual([first.items.length, first.more, first.remaining], [500, true, 149_500]);
  await store.close();
});

test('MemoryStore reaches watchers of a prefix started, stopped and started again after writes to the same directory', async () => {
  const store = new MemoryStore();
  const seen: string[] = [];
  const watch = (name: string, prefix: string) => store.watch(prefix, store.revision(), { onEvent: (e) => seen.push(`${name} ${e.kv.value}`), onError: assert.fail });
  const all = watch('all', '');
  await store.create('/r/pods/ns/a', '1');
  const pods = watch('pods', '/r/pods/');
  await Promise.resolve();
  await store.create('/r/pods/ns/b', '2');
  const ns = watch('ns', '/r/pods/ns/');
  const named = watch('named', '/r/pods/ns/c');
  await Promise.resolve();
  await store.create('/r/pods/ns/c', '3');
  pods.stop();
  await store.create('/r/pods/ns/d', '4');
  ns.stop();
  named.stop();
  const again = watch('again', '/r/pods/');
  await Promise.resolve();
  await store.create('/r/pods/ns/e', '5');
  await store.create('/r/pods/other/f', '6');
  again.stop();
  all.stop();
  assert.deepEqual(seen, ['all 1', 'all 2', 'pods 2', 'all 3', 'pods 3', 'ns 3', 'named 3', 'all 4', 'ns 4', 'all 5', 'again 5', 'all 6', 'again 6']);
  await store.close();
});
