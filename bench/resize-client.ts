// The client half of the resize benchmark (runs on a worker thread, client-worker.ts): sends one
// pods/resize PATCH per pod, all at once, and watches for each pod's status to show the new size.
import { refs } from '../src/api/index.ts';
import type { Pod } from '../src/api/index.ts';
import type { Client } from '../src/client/index.ts';
import { watchUntil } from './harness.ts';

export interface ResizeRun {
  names: string[];
  namespace: string;
  /** The new cpu request of container `c`, e.g. `150m`. */
  cpu: string;
  /** Connections the client may open; the rest of the requests wait for one, as in any HTTP/1.1 client pool. */
  connections: number;
}

/** Per pod, in the order of `names`: ms from the start of the run. */
export interface ResizeTimes {
  /** performance.timeOrigin + performance.now() at the start: the times below on a clock every thread shares. */
  startedAt: number;
  sent: number[];
  acked: number[];
  updated: number[];
}

const requestedCpu = (p: Pod): string | undefined => p.status?.containerStatuses?.[0]?.resources?.requests?.cpu;

export async function resizeAll(api: Client, run: ResizeRun): Promise<ResizeTimes> {
  const t0 = performance.now();
  const index = new Map(run.names.map((n, i) => [n, i]));
  const times: ResizeTimes = { startedAt: performance.timeOrigin + t0, sent: [], acked: [], updated: [] };
  const wait = watchUntil<Pod>(api, refs.pods, {
    namespace: run.namespace,
    want: run.names.length,
    done: (p) => index.has(p.metadata.name ?? '') && requestedCpu(p) === run.cpu,
    seen: (name, at) => {
      const i = index.get(name);
      if (i !== undefined) times.updated[i] = at - t0;
    },
  });
  await wait.ready;
  const body = { spec: { containers: [{ name: 'c', resources: { requests: { cpu: run.cpu } } }] } };
  await Promise.all(
    run.names.map(async (name, i) => {
      times.sent[i] = performance.now() - t0;
      await api.patch(refs.pods, run.namespace, name, 'strategic', body, { subresource: 'resize' });
      times.acked[i] = performance.now() - t0;
    }),
  );
  await wait.finished;
  return times;
}
