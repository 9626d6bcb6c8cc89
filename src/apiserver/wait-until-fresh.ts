// A read that names a resourceVersion the store has not reached waits for it, as upstream's watch cache does
// (watchCache.waitUntilFreshAndBlock: up to blockTimeout, 3 s), then is refused as too large.
import type { Clock } from '../core/index.ts';
import { tooLargeResourceVersion } from '../core/index.ts';
import type { Store } from '../storage/index.ts';

/** watch_cache.go blockTimeout. */
export const freshnessTimeoutMs = 3_000;
/** cacher.go resourceVersionTooHighRetrySeconds. */
const retrySeconds = 1;

/** Resolves once the store's revision reaches `revision`; rejects with upstream's 504 after freshnessTimeoutMs. */
export function waitUntilFresh(store: Store, clock: Clock, revision: number): Promise<void> {
  if (store.revision() >= revision) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const finish = (error?: Error): void => {
      timer.cancel();
      watch.stop();
      if (error) reject(error);
      else resolve();
    };
    // Every write bumps the one global revision, so a watch of every key sees each step.
    const watch = store.watch('', store.revision(), {
      onEvent: (event) => {
        if (event.kv.modRevision >= revision) finish();
      },
      onError: (error) => finish(error),
    });
    const timer = clock.after(freshnessTimeoutMs, () => finish(tooLargeResourceVersion(revision, store.revision(), retrySeconds)));
  });
}
