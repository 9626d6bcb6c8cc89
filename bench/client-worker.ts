// A benchmark's client on a worker thread, as a real client runs in its own process: on the server's
// thread its TLS, JSON and watch decoding took ~15% of the event loop and queued the server's work
// behind the measurement's own. The main thread calls runClientJob, or a ClientWorker's run for a
// client that lives across jobs; the worker runs the named job against the cluster at `access` and
// posts back its result.
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

interface Reply {
  result?: unknown;
  error?: string;
}

interface Pending {
  resolve: (m: Reply) => void;
  reject: (e: unknown) => void;
}

/** Runs one job on a worker of its own, which exits after it. */
export async function runClientJob<J extends keyof Jobs>(access: ServerAccess, job: J, run: Jobs[J]['run']): Promise<Jobs[J]['result']> {
  const client = new ClientWorker(access);
  try {
    return await client.run(job, run);
  } finally {
    await client.stop();
  }
}

/**
 * A client that lives across jobs, as a real one (a controller, clusterloader2) has been running
 * before the measurement and keeps its connections: its jobs after the first find its code compiled
 * and its pool of keep-alive connections open.
 */
export class ClientWorker {
  readonly #access: ServerAccess;
  #worker: Worker;
  #pending: Pending | undefined;

  constructor(access: ServerAccess) {
    this.#access = access;
    this.#worker = this.#start();
  }

  run<J extends keyof Jobs>(job: J, run: Jobs[J]['run']): Promise<Jobs[J]['result']> {
    if (this.#pending) return Promise.reject(new Error('the client worker runs one job at a time'));
    return new Promise<Reply>((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#worker.postMessage({ job, run });
    }).then(
      (m) => {
        if (m.error === undefined && m.result !== undefined) return m.result as Jobs[J]['result'];
        this.#replace();
        throw new Error(m.error ?? `${job} worker failed`);
      },
      (error: unknown) => {
        this.#replace();
        throw error;
      },
    );
  }

  /** After a failed job, which may leave requests and a watch behind (or a worker gone), the next job gets a client of its own. */
  #replace(): void {
    void this.#worker.terminate();
    this.#worker = this.#start();
  }

  async stop(): Promise<void> {
    this.#pending = undefined;
    await this.#worker.terminate();
  }

  #start(): Worker {
    const worker = new Worker(new URL(import.meta.url), { workerData: { access: this.#access } });
    worker.on('message', (m: Reply) => this.#settle(worker, (p) => p.resolve(m)));
    worker.on('error', (error) => this.#settle(worker, (p) => p.reject(error)));
    worker.on('exit', (code) => this.#settle(worker, (p) => p.reject(new Error(`client worker exited with ${code}`))));
    return worker;
  }

  /** Settles the job in flight, if `worker` (not one replaced since) is running it. */
  #settle(worker: Worker, fn: (pending: Pending) => void): void {
    if (worker !== this.#worker) return;
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending) fn(pending);
  }
}

async function runJob(api: HttpClient, job: keyof Jobs, run: never): Promise<unknown> {
  // HttpClient goes through the global agent: its pool is the job's client's connections.
  globalAgent.maxSockets = (run as { connections: number }).connections;
  return job === 'resize' ? await resizeAll(api, run) : job === 'bulk-create' ? await bulkCreate(api, run) : await latencyAt(api, run);
}

if (!isMainThread && (workerData as { access?: ServerAccess } | undefined)?.access) {
  const api = new HttpClient((workerData as { access: ServerAccess }).access);
  parentPort?.on('message', ({ job, run }: { job: keyof Jobs; run: never }) => {
    runJob(api, job, run).then(
      (result) => parentPort?.postMessage({ result }),
      (error: unknown) => parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
