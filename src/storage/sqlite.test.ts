// SqliteStore: the shared contract, plus what only a durable backend promises: the data and
// the revision survive close, restart and kill -9.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { SqliteStore } from './sqlite.ts';
import { StoreError } from './store.ts';
import type { WatchEvent } from './store.ts';
import { runStoreConformance } from './store.conformance.ts';

const root = mkdtempSync(join(tmpdir(), 'drydock-sqlite-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = (): string => join(root, `db${dirs++}`);

runStoreConformance('sqlite', { create: () => SqliteStore.open(freshDir()) });

test('SqliteStore keeps data, revisions and recent history across close and reopen', async () => {
  const dir = freshDir();
  const first = SqliteStore.open(dir);
  await first.create('/r/a', 'a1');
  await first.create('/r/b', 'b1');
  await first.update('/r/a', 'a2');
  await first.delete('/r/b');
  await first.close();

  const second = SqliteStore.open(dir);
  assert.equal(second.revision(), 4);
  assert.deepEqual(await second.get('/r/a'), { key: '/r/a', value: 'a2', createRevision: 1, modRevision: 3 });
  assert.equal(await second.get('/r/b'), undefined);
  assert.deepEqual((await second.list('/r/', { atRevision: 2 })).items.map((kv) => kv.value), ['a1', 'b1']);
  const events: WatchEvent[] = [];
  second.watch('/r/', 1, { onEvent: (e) => events.push(e), onError: assert.fail });
  await Promise.resolve();
  assert.deepEqual(
    events.map((e) => `${e.type} ${e.kv.key} ${e.kv.modRevision} ${e.created} ${e.prevKv?.value}`),
    ['PUT /r/b 2 true undefined', 'PUT /r/a 3 false a1', 'DELETE /r/b 4 false b1'],
  );
  const next = await second.create('/r/c', 'c1');
  assert.equal(next.modRevision, 5);
  await second.close();
});

test('SqliteStore after a restart answers compacted below its replayed history', async () => {
  const dir = freshDir();
  const first = SqliteStore.open(dir, { historyLimit: 2 });
  for (let i = 1; i <= 5; i++) await first.create(`/r/k${i}`, `v${i}`);
  await first.close();
  const second = SqliteStore.open(dir, { historyLimit: 2 });
  assert.equal(second.compactedRevision(), 3);
  await assert.rejects(second.list('/r/', { atRevision: 2 }), (e) => e instanceof StoreError && e.kind === 'compacted');
  assert.equal((await second.list('/r/', { atRevision: 3 })).items.length, 3);
  assert.equal(await second.count('/r/'), 5);
  await second.close();
});

test('SqliteStore compaction survives reopen and never lets the revision go back', async () => {
  const dir = freshDir();
  const first = SqliteStore.open(dir);
  await first.create('/r/a', 'a1');
  await first.update('/r/a', 'a2');
  await first.create('/r/b', 'b1');
  await first.delete('/r/b');
  // Compacting through the newest row, a tombstone, deletes it from the log.
  await first.compact(4);
  await first.close();
  const second = SqliteStore.open(dir);
  assert.equal(second.revision(), 4);
  assert.equal(second.compactedRevision(), 4);
  assert.deepEqual((await second.list('/r/')).items, [{ key: '/r/a', value: 'a2', createRevision: 1, modRevision: 2 }]);
  assert.equal((await second.create('/r/b', 'b2')).modRevision, 5);
  await second.close();
});

test('SqliteStore compaction deletes superseded rows and tombstones, keeping the state at the target', async () => {
  const dir = freshDir();
  const store = SqliteStore.open(dir);
  await store.create('/r/a', 'a1'); // 1
  await store.update('/r/a', 'a2'); // 2
  await store.create('/r/b', 'b1'); // 3
  await store.update('/r/a', 'a3'); // 4
  await store.delete('/r/b'); // 5
  await store.create('/r/c', 'c1'); // 6
  await store.compact(3);
  assert.deepEqual(rowIds(dir), [2, 3, 4, 5, 6]);
  await store.update('/r/c', 'c2'); // 7
  await store.compact(7);
  assert.deepEqual(rowIds(dir), [4, 7]);
  await store.close();
});

test('SqliteStore keeps every acknowledged write when the process is killed with SIGKILL', async () => {
  const dir = freshDir();
  const isTs = import.meta.url.endsWith('.ts');
  const moduleUrl = new URL(isTs ? './sqlite.ts' : './sqlite.js', import.meta.url).href;
  const child = [
    `const { SqliteStore } = await import(${JSON.stringify(moduleUrl)});`,
    `const store = SqliteStore.open(${JSON.stringify(dir)});`,
    `for (let i = 0; i < 1000000; i++) {`,
    `  const kv = await store.create('/r/k' + String(i).padStart(7, '0'), 'v' + i);`,
    `  process.stdout.write(kv.key + ' ' + kv.modRevision + '\\n');`,
    `}`,
  ].join('\n');
  const args = [...(isTs ? ['--import', 'tsx'] : []), '--input-type=module', '-e', child];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? code)));
  const acked: { key: string; revision: number }[] = [];
  for await (const line of createInterface({ input: proc.stdout })) {
    const [key, revision] = line.split(' ');
    acked.push({ key: key ?? '', revision: Number(revision) });
    if (acked.length === 500) proc.kill('SIGKILL');
  }
  assert.equal(await exited, 'SIGKILL');
  assert.ok(acked.length >= 500);

  const store = SqliteStore.open(dir);
  const last = acked[acked.length - 1];
  assert.ok(last !== undefined && store.revision() >= last.revision, `revision ${store.revision()} < acked ${last?.revision}`);
  const keys = new Set((await store.list('/r/')).items.map((kv) => kv.key));
  const missing = acked.filter((a) => !keys.has(a.key));
  assert.deepEqual(missing, []);
  await store.close();
});

function rowIds(dir: string): number[] {
  const db = new Database(join(dir, 'drydock.db'), { readonly: true });
  try {
    return (db.prepare('SELECT id FROM kine ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}
