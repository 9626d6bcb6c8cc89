// Writers and watchers that live through a server restart, and the checks made afterwards: every
// acknowledged write is still there and every watcher saw it, in revision order. Used by the
// restart e2e test and by bench/restart.ts (the same run under P9's load, timed).
import type { ResourceRef } from '../../src/api/index.ts';
import type { ClientWatch, ClientWatchEvent, HttpClient } from '../../src/client/index.ts';
import type { KubeObject, Status } from '../../src/core/index.ts';

/** A write the server answered with success: which object, at which revision, carrying which value. */
export interface AckedWrite {
  name: string;
  revision: number;
  value: string;
  /** ms from the load's start until the answer. */
  at: number;
  latencyMs: number;
}

const annotation = 'drydock.dev/restart-seq';

/** One patch of the load: the annotation carries a value unique to the write. */
export function loadPatch(value: string): unknown {
  return { metadata: { annotations: { [annotation]: value } } };
}

function valueOf(obj: KubeObject): string | undefined {
  return obj.metadata.annotations?.[annotation];
}

/**
 * An informer's watch loop, kept bare so every event can be checked: resumes from the last
 * revision it saw whenever the stream ends or the server is unreachable, relists on 410 Expired.
 */
export class ResumingWatcher {
  readonly seen: { type: string; name: string; revision: number; value: string | undefined }[] = [];
  reconnects = 0;
  relists = 0;
  revision: number;
  #watch: ClientWatch | undefined;
  #stopped = false;
  #waiters: { revision: number; resolve: () => void }[] = [];

  readonly #client: HttpClient;
  readonly #ref: ResourceRef;
  readonly #namespace: string;

  constructor(client: HttpClient, ref: ResourceRef, namespace: string, fromRevision: number) {
    this.#client = client;
    this.#ref = ref;
    this.#namespace = namespace;
    this.revision = fromRevision;
  }

  start(): void {
    if (this.#stopped) return;
    this.#watch = this.#client.watch(this.#ref, { namespace: this.#namespace, resourceVersion: String(this.revision), allowWatchBookmarks: true }, (e) => this.#onEvent(e), () => this.#retry());
  }

  stop(): void {
    this.#stopped = true;
    this.#watch?.stop();
  }

  /** Resolves once the watcher has seen `revision` (an event or a bookmark at or past it). */
  reached(revision: number): Promise<void> {
    if (this.revision >= revision) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ revision, resolve }));
  }

  #onEvent(event: ClientWatchEvent): void {
    if (event.type === 'ERROR') {
      if ((event.object as Status).code === 410) void this.#relist();
      return;
    }
    const revision = Number(event.object.metadata.resourceVersion);
    if (event.type !== 'BOOKMARK') this.seen.push({ type: event.type, name: event.object.metadata.name ?? '', revision, value: valueOf(event.object) });
    this.#advance(revision);
  }

  #advance(revision: number): void {
    this.revision = Math.max(this.revision, revision);
    this.#waiters = this.#waiters.filter((w) => (w.revision <= this.revision ? (w.resolve(), false) : true));
  }

  #retry(): void {
    if (this.#stopped) return;
    this.reconnects++;
    setTimeout(() => this.start(), 50);
  }

  async #relist(): Promise<void> {
    this.relists++;
    this.#watch?.stop();
    const list = await this.#client.list(this.#ref, { namespace: this.#namespace });
    this.#advance(Number(list.metadata.resourceVersion));
    this.#watch = undefined;
    this.start();
  }
}

/**
 * Patches `names` round robin at `rate` per second until stopped, never more than `inFlight`
 * at once; a refused or failed write is counted, not retried (its outcome is unknown).
 */
export class PatchLoad {
  readonly acked: AckedWrite[] = [];
  failed = 0;
  #sequence = 0;
  #running = true;
  #inFlight = 0;
  readonly #done: Promise<void>;

  readonly #send: (name: string, value: string) => Promise<KubeObject>;
  readonly #names: readonly string[];

  constructor(client: HttpClient, ref: ResourceRef, namespace: string, names: readonly string[], rate: number, inFlight = 32) {
    this.#send = (name, value) => client.patch(ref, namespace, name, 'merge', loadPatch(value));
    this.#names = names;
    this.#done = this.#run(rate, inFlight);
  }

  async #run(rate: number, inFlight: number): Promise<void> {
    const t0 = performance.now();
    const pending = new Set<Promise<void>>();
    for (let i = 0; this.#running; i++) {
      const wait = t0 + (i * 1000) / rate - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      if (!this.#running) break;
      if (this.#inFlight >= inFlight) continue;
      const one = this.#one(t0);
      pending.add(one);
      void one.finally(() => pending.delete(one));
    }
    await Promise.all(pending);
  }

  async #one(t0: number): Promise<void> {
    const seq = this.#sequence++;
    const name = this.#names[seq % this.#names.length] ?? '';
    const value = String(seq);
    const sent = performance.now();
    this.#inFlight++;
    try {
      const obj = await this.#send(name, value);
      const now = performance.now();
      this.acked.push({ name, value, revision: Number(obj.metadata.resourceVersion), at: now - t0, latencyMs: now - sent });
    } catch {
      this.failed++;
    } finally {
      this.#inFlight--;
    }
  }

  /** Stops sending and waits for the writes in flight. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }
}

/** `promise`'s value, or 'timed out' after `ms`; the timer is cleared either way. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a run broke: acknowledged writes the store lost, events a watcher missed, revisions out of order. */
export interface RestartFindings {
  /** Acked writes whose object now holds an older revision than the write's. */
  lost: AckedWrite[];
  /** Per watcher: acked writes at or after its first revision with no event of that revision and value. */
  missed: AckedWrite[][];
  /** Per watcher: events whose revision was not above the one before. */
  outOfOrder: number[];
}

export function checkRestart(acked: readonly AckedWrite[], current: ReadonlyMap<string, number>, watchers: readonly ResumingWatcher[], fromRevision: number): RestartFindings {
  const lost = acked.filter((w) => (current.get(w.name) ?? 0) < w.revision);
  const missed = watchers.map((watcher) => {
    const events = new Map(watcher.seen.map((e) => [e.revision, e]));
    return acked.filter((w) => w.revision > fromRevision && (events.get(w.revision)?.value !== w.value || events.get(w.revision)?.name !== w.name));
  });
  const outOfOrder = watchers.map((watcher) => watcher.seen.filter((e, i) => i > 0 && e.revision <= (watcher.seen[i - 1]?.revision ?? 0)).length);
  return { lost, missed, outOfOrder };
}
