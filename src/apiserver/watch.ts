// Watch: initial state (when asked), then the store's events filtered by the request's
// selection, with bookmarks and a timeout, delivered to one sink per watcher.
// Upstream: apiserver/pkg/storage/cacher/cache_watcher.go, endpoints/handlers/watch.go.
import type { ResourceDefinition } from '../api/index.ts';
import type { Clock, KubeObject, Random, Status } from '../core/index.ts';
import { expired, isApiError } from '../core/index.ts';
import type { KeyValue, Watch } from '../storage/index.ts';
import { StoreError } from '../storage/index.ts';
import { listObjects } from './list.ts';
import { waitUntilFresh } from './wait-until-fresh.ts';
import { requestedResourceVersion } from './resource-version.ts';
import type { ResourceStorage } from './resource-storage.ts';
import type { Selection } from './selection.ts';
import { storedObject, viewOf } from './stored-object.ts';

export type ServerWatchEvent =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; kv: KeyValue }
  | { type: 'BOOKMARK'; object: KubeObject }
  | { type: 'ERROR'; object: Status };

export interface WatchSink {
  /** Delivers one event; must not block. */
  send(event: ServerWatchEvent): void;
  /** The watch has ended (timeout, error, or stop); no event follows. */
  close(): void;
}

export interface WatchRequest {
  namespace: string;
  selection: Selection;
  resourceVersion: string;
  resourceVersionMatch: string;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  timeoutSeconds: number | undefined;
}

export interface WatchDeps {
  storage: ResourceStorage;
  clock: Clock;
  random: Random;
}

const bookmarkIntervalMs = 60_000;
export const initialEventsEndAnnotation = 'k8s.io/initial-events-end';

export interface ActiveWatch {
  stop(): void;
}

export async function startWatch(deps: WatchDeps, def: ResourceDefinition, request: WatchRequest, sink: WatchSink): Promise<ActiveWatch> {
  const { storage, clock } = deps;
  const rv = request.resourceVersion;
  const requested = requestedResourceVersion(rv);
  const initial = request.sendInitialEvents ?? (!rv || rv === '0');
  let from = requested > 0 ? requested : storage.store.revision();
  let stopped = false;
  let storeWatch: Watch | undefined;
  const timers: { cancel(): void }[] = [];
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    storeWatch?.stop();
    for (const t of timers) t.cancel();
    sink.close();
  };

  // A watch-list not older than a revision not reached waits for it as a list does; past the wait
  // its one event is the 504 (cacher.waitUntilWatchCacheFreshAndForceAllEvents, newErrWatcher).
  if (request.sendInitialEvents && requested > 0) {
    try {
      await waitUntilFresh(storage.store, clock, requested);
    } catch (error) {
      if (!isApiError(error)) throw error;
      sink.send({ type: 'ERROR', object: error.toStatus() });
      stop();
      return { stop };
    }
  }
  if (initial) {
    const page = await listObjects(storage, def, { namespace: request.namespace, selection: request.selection, limit: 0, continue: '', resourceVersion: '', resourceVersionMatch: '' });
    for (const kv of page.items) sink.send({ type: 'ADDED', kv });
    from = page.revision;
    if (request.sendInitialEvents) sink.send({ type: 'BOOKMARK', object: bookmark(def, from, true) });
  }

  let lastRevision = from;
  const selection = request.selection;
  storeWatch = storage.store.watch(storage.prefix(def, request.namespace), from, {
    onEvent(stored) {
      if (stopped) return;
      const event = def.storedAs ? { ...stored, kv: viewOf(def, stored.kv), prevKv: stored.prevKv && viewOf(def, stored.prevKv) } : stored;
      lastRevision = event.kv.modRevision;
      if (selection.everything) {
        sink.send({ type: event.type === 'DELETE' ? 'DELETED' : event.created ? 'ADDED' : 'MODIFIED', kv: event.kv });
        return;
      }
      const now = event.type === 'PUT' && selection.matches(storedObject(event.kv));
      const before = event.prevKv !== undefined && !event.created && selection.matches(storedObject(event.prevKv));
      if (event.type === 'DELETE') {
        if (before || selection.matches(storedObject(event.kv))) sink.send({ type: 'DELETED', kv: event.kv });
      } else if (now && before) sink.send({ type: 'MODIFIED', kv: event.kv });
      else if (now) sink.send({ type: 'ADDED', kv: event.kv });
      else if (before) sink.send({ type: 'DELETED', kv: event.kv });
    },
    onError(error) {
      if (stopped) return;
      if (error instanceof StoreError && error.kind === 'compacted') {
        sink.send({ type: 'ERROR', object: expired(`too old resource version: ${rv} (${error.compactedRevision ?? 0})`).toStatus() });
      } else {
        sink.send({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: String(error), reason: 'InternalError', code: 500 } });
      }
      stop();
    },
  });

  // Without timeoutSeconds (or with 0) upstream picks 30–60 minutes, so `kubectl get -w` stays open; a
  // negative one is a deadline already past, and the watch ends at once.
  const timeoutMs = request.timeoutSeconds === undefined || request.timeoutSeconds === 0
    ? (30 + deps.random.float() * 30) * 60_000
    : Math.max(0, request.timeoutSeconds * 1000);
  if (request.allowWatchBookmarks) {
    // The revision the watch has reached, about once a minute and, as the cache watcher's last one, 2 s
    // before the deadline (nextBookmarkTime): the client resumes from there. A shorter watch gets none.
    const sendBookmark = (): void => {
      if (!stopped) sink.send({ type: 'BOOKMARK', object: bookmark(def, Math.max(lastRevision, storage.store.revision()), false) });
    };
    const tick = (): void => {
      if (stopped) return;
      sendBookmark();
      timers.push(clock.after(bookmarkIntervalMs, tick));
    };
    timers.push(clock.after(bookmarkIntervalMs, tick));
    if (timeoutMs >= preTimeoutBookmarkMs) timers.push(clock.after(timeoutMs - preTimeoutBookmarkMs, sendBookmark));
  }
  timers.push(clock.after(timeoutMs, stop));
  return { stop };
}

/** How long before a watch's deadline the cacher sends its last bookmark. */
const preTimeoutBookmarkMs = 2_000;

function bookmark(def: ResourceDefinition, revision: number, initialEventsEnd: boolean): KubeObject {
  const metadata: KubeObject['metadata'] = { resourceVersion: String(revision) };
  if (initialEventsEnd) metadata.annotations = { [initialEventsEndAnnotation]: 'true' };
  return { kind: def.kind, apiVersion: def.group ? `${def.group}/${def.version}` : def.version, metadata };
}
