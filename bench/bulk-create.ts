// The bulk loads of P4, P12 and issue 8: `count` pods or Deployments created over HTTPS with a bounded
// number in flight, until one watch (opened before the first create) sees each Running / Available,
// or, for the floors, until the last create (and the objects it implies) is answered. Runs on a
// worker thread (client-worker.ts), as the client of a real cluster runs in a process of its own.
import { refs } from '../src/api/index.ts';
import type { Deployment, Pod } from '../src/api/index.ts';
import type { Client } from '../src/client/index.ts';
import { bounded, isRunning, pausePod, watchUntil } from './harness.ts';

export interface BulkCreateRun {
  what: 'pods' | 'deployments';
  count: number;
  /** Replicas of each Deployment. */
  replicas: number;
  inFlight: number;
  /** Wait for each object Running / Available; false: only the creates (the floor). */
  untilReady: boolean;
  /** A floor of Deployments also creates the ReplicaSet and the pods each one implies. */
  implied: boolean;
  timeoutMs: number;
}

export function deployment(i: number, replicas: number): Deployment {
  const labels = { app: `d-${i}` };
  return {
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: { name: `d-${i}`, namespace: 'default' },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: pausePod('x').spec } },
  } as Deployment;
}

const isAvailable = (d: Deployment): boolean => (d.status?.availableReplicas ?? 0) >= (d.spec?.replicas ?? 1) && (d.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') ?? false);

/** Creates Deployment i and, for a floor, the ReplicaSet and pods its controllers would. */
async function createDeployment(api: Client, i: number, run: BulkCreateRun): Promise<void> {
  const d = deployment(i, run.replicas);
  await api.create(refs.deployments, d);
  if (!run.implied) return;
  await api.create(refs.replicaSets, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: `d-${i}-abc`, namespace: 'default' }, spec: { replicas: run.replicas, selector: d.spec?.selector, template: d.spec?.template } } as never);
  for (let p = 0; p < run.replicas; p++) await api.create(refs.pods, pausePod(`d-${i}-abc-${p}`));
}

/** Wall milliseconds from the first create until the watch (or, without one, the last create) is done. */
export async function bulkCreate(api: Client, run: BulkCreateRun): Promise<number> {
  const wait = !run.untilReady ? undefined : run.what === 'pods'
    ? watchUntil<Pod>(api, refs.pods, { namespace: 'default', want: run.count, done: isRunning, timeoutMs: run.timeoutMs })
    : watchUntil<Deployment>(api, refs.deployments, { namespace: 'default', want: run.count, done: isAvailable, timeoutMs: run.timeoutMs });
  await wait?.ready;
  const t0 = performance.now();
  await bounded(run.count, run.inFlight, (i) => (run.what === 'pods' ? api.create(refs.pods, pausePod(`p-${i}`)) : createDeployment(api, i, run)));
  const end = wait ? await wait.finished : performance.now();
  return end - t0;
}
