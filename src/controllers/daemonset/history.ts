// A DaemonSet's revision history: each distinct pod template is a ControllerRevision holding the
// patch that restores it (what `kubectl rollout undo` applies); the one matching the current
// template gets the highest revision number, and old ones beyond revisionHistoryLimit that no live
// pod runs are deleted.
// Upstream: pkg/controller/daemon/update.go (constructHistory, snapshot, getPatch, Match, cleanupHistory).
import { DefaultDaemonSetUniqueLabelKey, refs } from '../../api/index.ts';
import type { ControllerRevision, DaemonSet, Pod } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { copyJson, isApiError, jsonEqual } from '../../core/index.ts';
import type { Client } from '../../client/index.ts';
import { newControllerRef } from '../controller-ref.ts';
import { computeHash } from '../template-hash.ts';
import { templatePatch } from '../template-revision.ts';

type ReadonlyDS = DeepReadonly<DaemonSet>;
type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** The revision the current template runs as, created or renumbered as needed; and the old ones. */
export async function constructHistory(client: Client, ds: ReadonlyDS, revisions: readonly ReadonlyRevision[]): Promise<{ current: ReadonlyRevision; old: ReadonlyRevision[] }> {
  const data = templatePatch(ds.spec.template);
  const matching = revisions.filter((r) => jsonEqual(r.data, data));
  const old = revisions.filter((r) => !matching.includes(r));
  const next = Math.max(0, ...old.map((r) => r.revision ?? 0)) + 1;
  const found = [...matching].sort((a, b) => (b.revision ?? 0) - (a.revision ?? 0))[0];
  if (!found) return { current: await snapshot(client, ds, data, next), old };
  if ((found.revision ?? 0) >= next) return { current: found, old };
  // A rollback to an old template makes its revision the newest again.
  const renumbered = await client.update<ControllerRevision>(refs.controllerRevisions, { ...(copyJson(found) as ControllerRevision), revision: next });
  return { current: renumbered, old };
}

async function snapshot(client: Client, ds: ReadonlyDS, data: unknown, revision: number): Promise<ReadonlyRevision> {
  const hash = computeHash(ds.spec.template, ds.status?.collisionCount);
  const name = `${ds.metadata.name ?? ''}-${hash}`;
  const labels = { ...ds.spec.template.metadata?.labels, [DefaultDaemonSetUniqueLabelKey]: hash };
  const body: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: ds.metadata.namespace ?? '',
      labels,
      ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, 'apps/v1', 'DaemonSet')],
    },
    data,
    revision,
  };
  try {
    return await client.create<ControllerRevision>(refs.controllerRevisions, body, { namespace: ds.metadata.namespace ?? '' });
  } catch (error) {
    if (!(isApiError(error) && error.reason === 'AlreadyExists')) throw error;
    const existing = await client.get<ControllerRevision>(refs.controllerRevisions, ds.metadata.namespace, name);
    if (jsonEqual(existing.data, data)) return existing;
    // A hash collision with another template: bump the collision count; the next sync hashes anew.
    const fresh = await client.get<DaemonSet>(refs.daemonSets, ds.metadata.namespace, ds.metadata.name ?? '');
    if ((fresh.status?.collisionCount ?? 0) === (ds.status?.collisionCount ?? 0) && fresh.status) {
      await client.updateStatus<DaemonSet>(refs.daemonSets, { ...fresh, status: { ...fresh.status, collisionCount: (fresh.status.collisionCount ?? 0) + 1 } });
    }
    throw error;
  }
}

/** cleanupHistory: delete the oldest revisions beyond the limit that no live pod still runs. */
export async function cleanupHistory(client: Client, ds: ReadonlyDS, old: readonly ReadonlyRevision[], pods: readonly DeepReadonly<Pod>[]): Promise<void> {
  let excess = old.length - (ds.spec.revisionHistoryLimit ?? 10);
  if (excess <= 0) return;
  const live = new Set(pods.map((p) => p.metadata.labels?.[DefaultDaemonSetUniqueLabelKey]).filter((h): h is string => !!h));
  for (const revision of [...old].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0))) {
    if (excess <= 0) break;
    if (live.has(revision.metadata.labels?.[DefaultDaemonSetUniqueLabelKey] ?? '')) continue;
    try {
      await client.delete(refs.controllerRevisions, revision.metadata.namespace, revision.metadata.name ?? '');
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
    excess--;
  }
}
