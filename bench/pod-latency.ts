// Pod start-up latency as a client sees it: pods created at a fixed rate over HTTPS and one watch
// noting when each reaches a state. Runs on a worker thread (client-worker.ts).
import { refs } from '../src/api/index.ts';
import type { Pod } from '../src/api/index.ts';
import type { Client } from '../src/client/index.ts';
import { isRunning, pausePod, watchUntil } from './harness.ts';

/** What the watcher waits for: the pod Running, or only its create seen (the floor). */
export type Until = 'Running' | 'ADDED';

export interface LatencyRun {
  prefix: string;
  rate: number;
  seconds: number;
  until: Until;
  /**
   * The client's connection pool, as any HTTP/1.1 client keeps one: without a bound, 1,000 creates/s
   * opened a TLS connection per request in flight and loopback reset hundreds of them.
   */
  connections: number;
}

/** Creates pods at `rate`/s; latency from just before each POST to the watcher seeing `until`. Sorted, ms. */
export async function latencyAt(api: Client, run: LatencyRun): Promise<number[]> {
  const { prefix, rate, seconds } = run;
  const done = run.until === 'Running' ? isRunning : (): boolean => true;
  const count = Math.round(rate * seconds);
  const sent = new Map<string, number>();
  const seen: number[] = [];
  const wait = watchUntil<Pod>(api, refs.pods, { namespace: 'default', labelSelector: `run=${prefix}`, want: count, done, seen: (name, at) => seen.push(at - (sent.get(name) ?? at)) });
  await wait.ready;
  const t0 = performance.now();
  const inflight: Promise<unknown>[] = [];
  const errors: string[] = [];
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * 1000) / rate;
    const pause = due - performance.now();
    if (pause > 1) await new Promise((r) => setTimeout(r, pause));
    const name = `${prefix}-${i}`;
    sent.set(name, performance.now());
    inflight.push(api.create(refs.pods, pausePod(name, { labels: { app: 'bench', run: prefix } })).catch((error: unknown) => errors.push(String(error))));
  }
  await Promise.all(inflight);
  if (errors.length > 0) throw new Error(`${errors.length} creates failed at ${rate}/s: ${errors[0] ?? ''}`);
  await wait.finished;
  return seen.sort((a, b) => a - b);
}
