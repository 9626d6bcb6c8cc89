// SqliteStore: MemoryStore's state and watch fan-out, plus an append-only SQLite log written
// in the same call as each write, so the state survives restarts and kill -9 (--data-dir).
// Upstream: kine pkg/drivers/sqlite/sqlite.go, pkg/logstructured/sqllog/sql.go.
//
// The log, as in kine: one row per write, id = revision.
//   create:  created=1, create_revision=id, prev_revision=0
//   update:  create_revision carried over, prev_revision = the row it replaces
//   delete:  a tombstone, deleted=1, value = the last value
// State at R = for each name, the row with MAX(id) <= R, unless it is a tombstone.
// Unlike kine there is one writer (this process) and ids are assigned here, so there are no
// gaps to fill and no unique (name, prev_revision) index to race on.
import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { MemoryStore } from './memory.ts';
import type { Journal, ReplayedWrite } from './memory.ts';
import type { CommitHook, KeyValue, ListOptions, ListResult, Store, Watch, WatchEvent, WatchHandlers } from './store.ts';

const DEFAULT_HISTORY_LIMIT = 10_000;

// Loaded on first use: the native addon costs a start without --data-dir about 20 ms.
let database: typeof Database | undefined;
function openDatabase(file: string): Database.Database {
  database ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  return new database(file);
}

// The compact revision lives beside the log, not in it (kine's compact_rev_key row), because
// here compaction is not a write and must not consume a revision. It also bounds the
// revision from below on open: compaction may delete the newest row if it is a tombstone.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS kine (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS kine_name_id ON kine (name, id);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
`;

interface Row {
  id: number;
  name: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: string;
}

export interface SqliteStoreOptions {
  /** Events kept in memory for watch and list at a revision, also replayed from disk on open. */
  historyLimit?: number;
}

export class SqliteStore implements Store {
  readonly #memory: MemoryStore;

  private constructor(memory: MemoryStore) {
    this.#memory = memory;
  }

  /** Opens (or creates) `<dir>/drydock.db` and rebuilds the state and recent history from it. */
  static open(dir: string, options: SqliteStoreOptions = {}): SqliteStore {
    mkdirSync(dir, { recursive: true });
    const db = openDatabase(join(dir, 'drydock.db'));
    try {
      // In WAL mode a commit is a write() of its frames to the -wal file before the statement
      // returns; synchronous=NORMAL only skips the fsync, which protects against power loss and
      // OS crashes, not process death: after kill -9 the kernel still holds and flushes the
      // written pages, and the next open replays the WAL. So a resolved write survives kill -9.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.exec(SCHEMA);
      const historyLimit = options.historyLimit ?? DEFAULT_HISTORY_LIMIT;
      const maxId = (db.prepare('SELECT MAX(id) AS id FROM kine').get() as { id: number | null }).id ?? 0;
      const compacted = readCompacted(db);
      const revision = Math.max(maxId, compacted);
      // Replay the newest rows as history, so watches can resume across a restart.
      const base = Math.max(compacted, revision - historyLimit);
      const keys = db
        .prepare(
          `SELECT k.* FROM kine AS k
           JOIN (SELECT MAX(id) AS id FROM kine WHERE id <= ? GROUP BY name) AS latest ON k.id = latest.id
           WHERE k.deleted = 0 ORDER BY k.name`,
        )
        .all(base) as Row[];
      const writes = db.prepare('SELECT * FROM kine WHERE id > ? ORDER BY id').all(base) as Row[];
      const memory = new MemoryStore({
        historyLimit,
        journal: sqliteJournal(db, compacted),
        snapshot: { revision: base, keys: keys.map(toKeyValue), writes: writes.map(toWrite) },
      });
      return new SqliteStore(memory);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  revision(): number {
    return this.#memory.revision();
  }
  compactedRevision(): number {
    return this.#memory.compactedRevision();
  }
  get(key: string): Promise<KeyValue | undefined> {
    return this.#memory.get(key);
  }
  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.#memory.list(prefix, options);
  }
  count(prefix: string): Promise<number> {
    return this.#memory.count(prefix);
  }
  create(key: string, value: string, onCommit?: CommitHook): Promise<KeyValue> {
    return this.#memory.create(key, value, onCommit);
  }
  update(key: string, value: string, expectedModRevision?: number, onCommit?: CommitHook): Promise<KeyValue> {
    return this.#memory.update(key, value, expectedModRevision, onCommit);
  }
  delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    return this.#memory.delete(key, expectedModRevision);
  }
  watch(prefix: string, fromRevision: number, handlers: WatchHandlers): Watch {
    return this.#memory.watch(prefix, fromRevision, handlers);
  }
  compact(revision: number): Promise<void> {
    return this.#memory.compact(revision);
  }
  close(): Promise<void> {
    return this.#memory.close();
  }
}

function sqliteJournal(db: Database.Database, initialCompacted: number): Journal {
  let compacted = initialCompacted;
  const insert = db.prepare(
    `INSERT INTO kine (id, name, created, deleted, create_revision, prev_revision, value)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  // Superseded rows at or below the target, and tombstones there, which say nothing once
  // nobody can read below the target. The newest row per name at or below it stays: it is the
  // state at the target. Only names written since the last compaction can have such rows, so
  // the work is proportional to those writes, not to the table.
  const prune = db.prepare(
    `DELETE FROM kine WHERE id <= :rev
       AND name IN (SELECT name FROM kine WHERE id > :prev AND id <= :rev)
       AND (deleted = 1 OR id < (SELECT MAX(k2.id) FROM kine AS k2 WHERE k2.name = kine.name AND k2.id <= :rev))`,
  );
  const saveCompacted = db.prepare(
    `INSERT INTO meta (key, value) VALUES ('compact_rev', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  const compact = db.transaction((revision: number) => {
    prune.run({ rev: revision, prev: compacted });
    saveCompacted.run(revision);
  });
  return {
    append(event: WatchEvent): void {
      const { kv, prevKv, type, created } = event;
      insert.run(
        kv.modRevision,
        kv.key,
        created ? 1 : 0,
        type === 'DELETE' ? 1 : 0,
        kv.createRevision,
        prevKv?.modRevision ?? 0,
        kv.value,
      );
    },
    compact(revision: number): void {
      if (revision <= compacted) return;
      compact(revision);
      compacted = revision;
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    close(): void {
      db.close();
    },
  };
}

function readCompacted(db: Database.Database): number {
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'compact_rev'`).get() as { value: number } | undefined;
  return row?.value ?? 0;
}

function toKeyValue(row: Row): KeyValue {
  return { key: row.name, value: row.value, createRevision: row.create_revision, modRevision: row.id };
}

function toWrite(row: Row): ReplayedWrite {
  return { type: row.deleted === 1 ? 'DELETE' : 'PUT', kv: toKeyValue(row) };
}
