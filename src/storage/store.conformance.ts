// The Store contract (store.ts) as a suite every backend runs: memory.test.ts, sqlite.test.ts,
// and later etcd. In the style of hono src/router/common.case.test.ts; kine's own suite covers
// the same ground (pkg/server tests).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StoreError } from './store.ts';
import type { Store, StoreErrorKind, WatchEvent } from './store.ts';

export interface StoreConformanceOptions {
  /** A fresh, empty store at revision 0. */
  create: () => Promise<Store> | Store;
  /** Why the whole suite is skipped (for example, no etcd binary); reported as skipped, never passed. */
  skip?: string;
}

export function runStoreConformance(name: string, options: StoreConformanceOptions): void {
  const it = (title: string, body: (store: Store) => Promise<void>): void => {
    test(title, { timeout: 10_000 }, async () => {
      const store = await options.create();
      try {
        await body(store);
      } finally {
        await store.close();
      }
    });
  };
  const suiteOptions = options.skip === undefined ? {} : { skip: options.skip };

  describe(`Store conformance: ${name}`, suiteOptions, () => {
    it('each write advances the revision by exactly one and failed writes do not', async (store) => {
      const start = store.revision();
      const a = await store.create('/r/a', 'v1');
      assert.deepEqual(a, { key: '/r/a', value: 'v1', createRevision: start + 1, modRevision: start + 1 });
      const b = await store.update('/r/a', 'v2');
      assert.deepEqual(b, { key: '/r/a', value: 'v2', createRevision: start + 1, modRevision: start + 2 });
      await rejects(store.create('/r/a', 'again'), 'key-exists');
      await rejects(store.update('/r/missing', 'x'), 'not-found');
      const c = await store.delete('/r/a');
      assert.deepEqual(c, { key: '/r/a', value: 'v2', createRevision: start + 1, modRevision: start + 3 });
      assert.equal(store.revision(), start + 3);
      const d = await store.create('/r/a', 'v3');
      assert.deepEqual(d, { key: '/r/a', value: 'v3', createRevision: start + 4, modRevision: start + 4 });
    });

    it('create on a live key fails with key-exists carrying the current value', async (store) => {
      const a = await store.create('/r/a', 'v1');
      const err = await rejects(store.create('/r/a', 'v2'), 'key-exists');
      assert.deepEqual(err.current, a);
      assert.equal(err.key, '/r/a');
    });

    it('update and delete with a stale revision fail with revision-mismatch carrying the current value', async (store) => {
      const a = await store.create('/r/a', 'v1');
      const b = await store.update('/r/a', 'v2', a.modRevision);
      const update = await rejects(store.update('/r/a', 'v3', a.modRevision), 'revision-mismatch');
      assert.deepEqual(update.current, b);
      const del = await rejects(store.delete('/r/a', a.modRevision), 'revision-mismatch');
      assert.deepEqual(del.current, b);
      assert.deepEqual(await store.get('/r/a'), b);
      const gone = await store.delete('/r/a', b.modRevision);
      assert.equal(gone.value, 'v2');
      assert.equal(await store.get('/r/a'), undefined);
    });

    it('update or delete of a missing key fails with not-found', async (store) => {
      await rejects(store.update('/r/none', 'v'), 'not-found');
      await rejects(store.update('/r/none', 'v', 1), 'not-found');
      await rejects(store.delete('/r/none'), 'not-found');
      await store.create('/r/a', 'v');
      await store.delete('/r/a');
      await rejects(store.update('/r/a', 'v'), 'not-found');
      assert.equal(store.revision(), 2);
    });

    it('get and list read the latest state in key order', async (store) => {
      await store.create('/r/c', '3');
      await store.create('/r/a', '1');
      await store.create('/r/b', '2');
      await store.update('/r/a', '1b');
      assert.deepEqual(await store.get('/r/a'), { key: '/r/a', value: '1b', createRevision: 2, modRevision: 4 });
      assert.equal(await store.get('/r/zz'), undefined);
      const list = await store.list('/r/');
      assert.deepEqual(values(list.items), ['/r/a=1b', '/r/b=2', '/r/c=3']);
      assert.equal(list.revision, store.revision());
      assert.equal(list.more, false);
      assert.equal(list.remaining, 0);
    });

    it('list atRevision shows the state before later writes', async (store) => {
      await store.create('/r/a', 'a1');
      await store.create('/r/b', 'b1');
      const before = store.revision();
      await store.update('/r/a', 'a2');
      await store.delete('/r/b');
      await store.create('/r/c', 'c1');
      await store.create('/r/b', 'b2');
      const old = await store.list('/r/', { atRevision: before });
      assert.deepEqual(values(old.items), ['/r/a=a1', '/r/b=b1']);
      assert.equal(old.revision, before);
      const mid = await store.list('/r/', { atRevision: before + 2 });
      assert.deepEqual(values(mid.items), ['/r/a=a2']);
      const latest = await store.list('/r/');
      assert.deepEqual(values(latest.items), ['/r/a=a2', '/r/b=b2', '/r/c=c1']);
    });

    it('a prefix matches only keys under it, not siblings sharing its first characters', async (store) => {
      await store.create('/registry/pods/a/x', '1');
      await store.create('/registry/pods/ab/y', '2');
      await store.create('/registry/pods/a', 'bare');
      const list = await store.list('/registry/pods/a/');
      assert.deepEqual(keys(list.items), ['/registry/pods/a/x']);
      assert.equal(await store.count('/registry/pods/a/'), 1);
      assert.equal(await store.count('/registry/pods/'), 3);
      assert.equal(await store.count('/registry/services/'), 0);
    });

    it('limit and after page through a prefix, reporting more and remaining', async (store) => {
      for (const k of ['k1', 'k2', 'k3', 'k4', 'k5']) await store.create(`/r/${k}`, k);
      await store.create('/s/other', 'x');
      const p1 = await store.list('/r/', { limit: 2 });
      assert.deepEqual([keys(p1.items), p1.more, p1.remaining], [['/r/k1', '/r/k2'], true, 3]);
      // Later pages read at the first page's revision, as the apiserver's continue token does.
      await store.delete('/r/k3');
      await store.create('/r/k6', 'k6');
      const p2 = await store.list('/r/', { limit: 2, after: '/r/k2', atRevision: p1.revision });
      assert.deepEqual([keys(p2.items), p2.more, p2.remaining], [['/r/k3', '/r/k4'], true, 1]);
      const p3 = await store.list('/r/', { limit: 2, after: '/r/k4', atRevision: p1.revision });
      assert.deepEqual([keys(p3.items), p3.more, p3.remaining], [['/r/k5'], false, 0]);
      const latest = await store.list('/r/', { limit: 3, after: '/r/k1' });
      assert.deepEqual([keys(latest.items), latest.more, latest.remaining], [['/r/k2', '/r/k4', '/r/k5'], true, 1]);
      const exact = await store.list('/r/', { limit: 5 });
      assert.deepEqual([exact.items.length, exact.more, exact.remaining], [5, false, 0]);
    });

    it('watch from a revision replays later history, then streams live writes in order', async (store) => {
      await store.create('/r/a', 'a1');
      const from = store.revision();
      await store.update('/r/a', 'a2');
      await store.create('/other/x', 'x');
      await store.create('/r/b', 'b1');
      const rec = record();
      const watch = store.watch('/r/', from, rec.handlers);
      await rec.next(2);
      assert.equal(rec.events.length, 2);
      await store.delete('/r/a');
      await store.create('/other/y', 'y');
      await store.update('/r/b', 'b2');
      const all = await rec.next(4);
      watch.stop();
      assert.deepEqual(all.map(describeEvent), [
        'PUT /r/a=a2 mod 2 prev a1',
        'PUT /r/b=b1 mod 4 created',
        'DELETE /r/a=a2 mod 5 prev a2',
        'PUT /r/b=b2 mod 7 prev b1',
      ]);
      assert.equal(rec.error(), undefined);
    });

    it('a watch sees exactly the keys under its prefix, whatever the prefix ends with', async (store) => {
      const prefixes = ['', '/r/', '/r/ns/', '/r/ns', '/r/n', '/s/', '/r/ns/a'];
      const recs = prefixes.map(() => record());
      const watches = prefixes.map((p, i) => store.watch(p, store.revision(), (recs[i] as ReturnType<typeof record>).handlers));
      const keys = ['/r/ns/a', '/r/ns/ab', '/r/nsx/b', '/r/top', '/s/x', '/t/y', '/r/ns/a/deeper'];
      for (const key of keys) await store.create(key, 'v');
      const seen = await Promise.all(recs.map((rec, i) => rec.next(keys.filter((k) => k.startsWith(prefixes[i] as string)).length)));
      for (const w of watches) w.stop();
      assert.deepEqual(seen.map((events) => events.map((e) => e.kv.key)), prefixes.map((p) => keys.filter((k) => k.startsWith(p))));
      // A stopped watch's prefix no longer matches anything: a new watcher of it starts clean.
      const again = record();
      const w = store.watch('/r/n', store.revision(), again.handlers);
      await store.create('/r/nope', 'v');
      assert.deepEqual((await again.next(1)).map((e) => e.kv.key), ['/r/nope']);
      w.stop();
    });

    it('watch from the current revision delivers only new writes', async (store) => {
      await store.create('/r/a', 'a1');
      const rec = record();
      const watch = store.watch('/r/', store.revision(), rec.handlers);
      await store.create('/r/b', 'b1');
      assert.deepEqual((await rec.next(1)).map(describeEvent), ['PUT /r/b=b1 mod 2 created']);
      watch.stop();
    });

    it('watch from below the compacted revision fails with compacted', async (store) => {
      await store.create('/r/a', 'a1');
      await store.update('/r/a', 'a2');
      await store.update('/r/a', 'a3');
      await store.compact(2);
      assert.equal(store.compactedRevision(), 2);
      const rec = record();
      store.watch('/r/', 1, rec.handlers);
      const err = await rec.failure();
      assert.ok(err instanceof StoreError);
      assert.equal(err.kind, 'compacted');
      assert.equal(err.compactedRevision, 2);
      assert.equal(rec.events.length, 0);
      // Exactly at the compacted revision, the rest of the history is still there.
      const ok = record();
      const watch = store.watch('/r/', 2, ok.handlers);
      assert.deepEqual((await ok.next(1)).map(describeEvent), ['PUT /r/a=a3 mod 3 prev a2']);
      watch.stop();
    });

    it('watch runs no callback before it returns, neither replay nor compacted error', async (store) => {
      await store.create('/r/a', 'a1');
      await store.update('/r/a', 'a2');
      await store.compact(1);
      let returned = false;
      const early: string[] = [];
      const replay = record();
      const w1 = store.watch('/r/', 1, {
        onEvent: (e) => (returned ? replay.handlers.onEvent(e) : early.push('event')),
        onError: (e) => (returned ? replay.handlers.onError(e) : early.push('error')),
      });
      const failing = record();
      store.watch('/r/', 0, {
        onEvent: (e) => (returned ? failing.handlers.onEvent(e) : early.push('event')),
        onError: (e) => (returned ? failing.handlers.onError(e) : early.push('error')),
      });
      returned = true;
      await replay.next(1);
      assert.ok((await failing.failure()) instanceof StoreError);
      assert.deepEqual(early, []);
      w1.stop();
    });

    it('compact makes reads below it fail with compacted and keeps the state at it', async (store) => {
      await store.create('/r/a', 'a1');
      await store.create('/r/b', 'b1');
      await store.update('/r/a', 'a2');
      await store.delete('/r/b');
      await store.create('/r/c', 'c1');
      await store.compact(3);
      const err = await rejects(store.list('/r/', { atRevision: 2 }), 'compacted');
      assert.equal(err.compactedRevision, 3);
      assert.deepEqual(values((await store.list('/r/', { atRevision: 3 })).items), ['/r/a=a2', '/r/b=b1']);
      assert.deepEqual(values((await store.list('/r/', { atRevision: 4 })).items), ['/r/a=a2']);
      assert.deepEqual(values((await store.list('/r/')).items), ['/r/a=a2', '/r/c=c1']);
      assert.deepEqual(await store.get('/r/a'), { key: '/r/a', value: 'a2', createRevision: 1, modRevision: 3 });
      await store.compact(5);
      assert.deepEqual(values((await store.list('/r/', { atRevision: 5 })).items), ['/r/a=a2', '/r/c=c1']);
      assert.equal(await store.count('/r/'), 2);
      assert.equal(store.revision(), 5);
    });

    it('stop ends delivery, also from inside a handler', async (store) => {
      const seen: string[] = [];
      const outer = store.watch('/r/', 0, {
        onEvent: (e) => {
          seen.push(e.kv.value);
          inner.stop();
        },
        onError: (e) => assert.fail(e),
      });
      const inner = store.watch('/r/', 0, {
        onEvent: () => assert.fail('stopped watch got an event'),
        onError: (e) => assert.fail(e),
      });
      const rec = record();
      const last = store.watch('/r/', 0, rec.handlers);
      await store.create('/r/a', 'a1');
      await rec.next(1);
      outer.stop();
      await store.create('/r/b', 'b1');
      await rec.next(2);
      last.stop();
      await store.create('/r/c', 'c1');
      assert.deepEqual(seen, ['a1']);
      assert.equal(rec.events.length, 2);
    });

    it('count counts live keys under a prefix', async (store) => {
      for (let i = 0; i < 20; i++) await store.create(`/r/ns${i % 3}/k${i}`, 'v');
      await store.delete('/r/ns0/k0');
      assert.equal(await store.count('/r/'), 19);
      assert.equal(await store.count('/r/ns0/'), 6);
      assert.equal(await store.count('/r/ns1/'), 7);
      assert.equal(await store.count(''), 19);
    });
  });
}

async function rejects(promise: Promise<unknown>, kind: StoreErrorKind): Promise<StoreError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof StoreError, `expected StoreError ${kind}, got ${String(err)}`);
    assert.equal(err.kind, kind);
    return err;
  }
  return assert.fail(`expected StoreError ${kind}, but the call succeeded`);
}

function keys(items: readonly { key: string }[]): string[] {
  return items.map((kv) => kv.key);
}

function values(items: readonly { key: string; value: string }[]): string[] {
  return items.map((kv) => `${kv.key}=${kv.value}`);
}

function describeEvent(e: WatchEvent): string {
  const tail = e.created ? ' created' : e.prevKv !== undefined ? ` prev ${e.prevKv.value}` : '';
  return `${e.type} ${e.kv.key}=${e.kv.value} mod ${e.kv.modRevision}${tail}`;
}

/** Collects a watch's events; next(n) resolves once n have arrived, whichever backend delivers them. */
function record() {
  const events: WatchEvent[] = [];
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const changed = (): void => {
    wake?.();
  };
  const wait = async (ready: () => boolean): Promise<void> => {
    while (!ready()) {
      if (failed !== undefined && !ready()) throw failed;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return {
    events,
    error: () => failed,
    handlers: {
      onEvent: (e: WatchEvent) => {
        events.push(e);
        changed();
      },
      onError: (e: Error) => {
        failed = e;
        changed();
      },
    },
    next: async (n: number): Promise<WatchEvent[]> => {
      await wait(() => events.length >= n);
      return events.slice(0, n);
    },
    failure: async (): Promise<Error> => {
      await wait(() => failed !== undefined);
      return failed as Error;
    },
  };
}
