// Worker thread entry of pod-latency.ts: one latency run against a served cluster, its result posted back.
import { parentPort, workerData } from 'node:worker_threads';
import { HttpClient } from '../src/client/http-client.ts';
import { latencyAt } from './pod-latency.ts';
import type { LatencyRun, ServerAccess } from './pod-latency.ts';

const { access, run } = workerData as { access: ServerAccess; run: LatencyRun };
try {
  const latencies = await latencyAt(new HttpClient(access), run);
  parentPort?.postMessage({ latencies });
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
// The client's keep-alive sockets would hold the thread open.
process.exit(0);
