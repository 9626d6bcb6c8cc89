// One pass over a Job for the TTL controller: requeue until due, then re-read it from the
// API server (the cache may be stale, the TTL may have changed) and delete it.
// Upstream: pkg/controller/ttlafterfinished/ttlafterfinished_controller.go (processJob, processTTL).
import type { Client, Informer } from '../../client/index.ts';
import type { Clock } from '../../core/index.ts';
import { isApiError, splitObjectKey } from '../../core/index.ts';
import type { Job } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import { timeLeftMs } from './ttl.ts';

export interface TtlSyncDeps {
  client: Client;
  clock: Clock;
  jobs: Informer<Job>;
  requeueAfter(ms: number): void;
}

export async function syncTtlJob(deps: TtlSyncDeps, key: string): Promise<void> {
  const { namespace, name } = splitObjectKey(key);
  const cached = deps.jobs.getByName(namespace, name);
  if (!cached || cached.metadata.deletionTimestamp) return;
  if (!isExpired(deps, cached)) return;
  let fresh: Job;
  try {
    fresh = await deps.client.get<Job>(refs.jobs, namespace, name);
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') return;
    throw error;
  }
  if (fresh.metadata.deletionTimestamp || !isExpired(deps, fresh)) return;
  try {
    // The uid precondition keeps a same-named successor safe; foreground deletes pods first.
    await deps.client.delete(refs.jobs, namespace, name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid ?? '' } });
  } catch (error) {
    if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'Conflict')) return;
    throw error;
  }
}

function isExpired(deps: TtlSyncDeps, job: Parameters<typeof timeLeftMs>[0]): boolean {
  const left = timeLeftMs(job, deps.clock.now());
  if (left === undefined) return false;
  if (left > 0) {
    deps.requeueAfter(left);
    return false;
  }
  return true;
}
