// P4's client: `count` pods created over HTTPS, `concurrency` in flight, until one watch sees every
// one Running (or, for the floor, until every create is answered). Runs on a worker thread
// (client-worker.ts), as a real client runs in its own process.
import { refs } from '../src/api/index.ts';
import type { Pod } from '../src/api/index.ts';
import type { Client } from '../src/client/index.ts';
import { bounded, isRunning, pausePod, watchUntil } from './harness.ts';

export interface BulkCreateRun {
  count: number;
  concurrency: number;
  until: 'Running' | 'answered';
  connections: number;
}

/** ms from the first create until the last pod is Running (or the last create answered). */
export async function createPods(api: Client, run: BulkCreateRun): Promise<number> {
  const wait = run.until === 'Running' ? watchUntil<Pod>(api, refs.pods, { namespace: 'default', want: run.count, done: isRunning, timeoutMs: 900_000 }) : undefined;
  await wait?.ready;
  const t0 = performance.now();
  await bounded(run.count, run.concurrency, (i) => api.create(refs.pods, pausePod(`p-${i}`)));
  const end = wait ? await wait.finished : performance.now();
  return end - t0;
}
