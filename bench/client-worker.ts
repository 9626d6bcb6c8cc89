// A benchmark's client on a worker thread, as a real client runs in its own process: on the server's
// thread its TLS, JSON and watch decoding took ~15% of the event loop and queued the server's work
// behind the measurement's own. The main thread calls runClientJob; the worker runs the named job
// against the cluster at `access` and posts back its result.
import { globalAgent } from 'node:https';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { HttpClient } from '../src/client/http-client.ts';
import { latencyAt } from './pod-latency.ts';
import type { LatencyRun } from './pod-latency.ts';
import { resizeAll } from './resize-client.ts';
import { bulkCreate } from './bulk-create.ts';
import type { BulkCreateRun } from './bulk-create.ts';
import type { ResizeRun } from './resize-client.ts';

export interface ServerAccess {
  server: string;
  token: string;
  ca: string;
}

/** How a client reaches a served cluster (Cluster.start with a port). */
export function accessOf(cluster: { url: string; token: string; certificateAuthority: string }): ServerAccess {
  return { server: cluster.url, token: cluster.token, ca: cluster.certificateAuthority };
}

interface Jobs {
  'pod-latency': { run: LatencyRun; result: number[] };
  resize: { run: ResizeRun; result: Awaited<ReturnType<typeof resizeAll>> };
  'bulk-create': { run: BulkCreateRun & { connections: number }; result: number };
}

export function runClientJob<J extends keyof Jobs>(access: ServerAccess, job: J, run: Jobs[J]['run']): Promise<Jobs[J]['result']> {
  const script = new URL(import.meta.url);
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { access, job, run } });
    worker.once('message', (m: { result?: Jobs[J]['result']; error?: string }) => {
      if (m.result) resolve(m.result);
      else reject(new Error(m.error ?? `${job} worker failed`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`${job} worker exited with ${code}`)));
  });
}

if (!isMainThread && (workerData as { job?: string } | undefined)?.job) {
  const { access, job, run } = workerData as { access: ServerAccess; job: keyof Jobs; run: never };
  // HttpClient goes through the global agent: its pool is the job's client's connections.
  globalAgent.maxSockets = (run as { connections: number }).connections;
  const api = new HttpClient(access);
  try {
    const result = job === 'resize' ? await resizeAll(api, run) : job === 'bulk-create' ? await bulkCreate(api, run) : await latencyAt(api, run);
    parentPort?.postMessage({ result });
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
  // The client's keep-alive sockets would hold the thread open.
  process.exit(0);
}
