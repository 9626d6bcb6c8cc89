// A StatefulSet's revisions: each distinct template is a ControllerRevision named `<set>-<hash of
// its data>`, labelled controller.kubernetes.io/hash; the current one is renumbered on rollback,
// and old ones beyond revisionHistoryLimit that no pod runs are deleted.
// Upstream: pkg/controller/statefulset/stateful_set_control.go (getStatefulSetRevisions,
// truncateHistory), stateful_set_utils.go (newRevision, getPatch, ApplyRevision),
// pkg/controller/history/controller_history.go (HashControllerRevision, FindEqualRevisions).
import { refs } from '../../api/index.ts';
import type { ControllerRevision, StatefulSet } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { copyJson, goMapJson, isApiError, jsonEqual } from '../../core/index.ts';
import type { Client } from '../../client/index.ts';
import { newControllerRef } from '../controller-ref.ts';
import { fnv32, safeEncodeString } from '../template-hash.ts';
import { templatePatch } from '../template-revision.ts';

type ReadonlySet = DeepReadonly<StatefulSet>;
type ReadonlyRevision = DeepReadonly<ControllerRevision>;

export const ControllerRevisionHashLabel = 'controller.kubernetes.io/hash';

/**
 * HashControllerRevision: FNV-1 (not 1a) over the data's JSON as Go writes it, then the collision
 * count's decimal digits; a StatefulSet always passes its count, 0 until a collision.
 */
function revisionHash(data: unknown, collisionCount: number): string {
  const encoder = new TextEncoder();
  const h = fnv32(encoder.encode(String(collisionCount)), fnv32(encoder.encode(goMapJson(data))));
  return safeEncodeString(String(h));
}

export interface Revisions {
  current: ReadonlyRevision;
  update: ReadonlyRevision;
  all: ReadonlyRevision[];
}

/** getStatefulSetRevisions: the update revision (created, reused or renumbered) and the current one. */
export async function statefulSetRevisions(client: Client, set: ReadonlySet, owned: readonly ReadonlyRevision[]): Promise<Revisions> {
  const sorted = [...owned].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
  const data = templatePatch(set.spec.template);
  const next = (sorted.at(-1)?.revision ?? 0) + 1;
  const equal = sorted.filter((r) => jsonEqual(r.data, data));
  let update: ReadonlyRevision;
  const last = equal.at(-1);
  if (last && last === sorted.at(-1)) update = last;
  else if (last) update = await client.update<ControllerRevision>(refs.controllerRevisions, { ...(copyJson(last) as ControllerRevision), revision: next });
  else update = await createRevision(client, set, data, next);
  const all = [...sorted.filter((r) => r.metadata.name !== update.metadata.name), update];
  const current = all.find((r) => r.metadata.name === set.status?.currentRevision) ?? update;
  return { current, update, all };
}

async function createRevision(client: Client, set: ReadonlySet, data: unknown, revision: number): Promise<ReadonlyRevision> {
  const hash = revisionHash(data, set.status?.collisionCount ?? 0);
  const body: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${set.metadata.name ?? ''}-${hash}`,
      namespace: set.metadata.namespace ?? '',
      labels: { ...set.spec.template.metadata?.labels, [ControllerRevisionHashLabel]: hash },
      // newRevision copies the set's annotations, so `kubectl rollout history` shows its change-cause.
      ...(set.metadata.annotations ? { annotations: { ...set.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    data,
    revision,
  };
  try {
    return await client.create<ControllerRevision>(refs.controllerRevisions, body, { namespace: set.metadata.namespace ?? '' });
  } catch (error) {
    if (!(isApiError(error) && error.reason === 'AlreadyExists')) throw error;
    const existing = await client.get<ControllerRevision>(refs.controllerRevisions, set.metadata.namespace, body.metadata.name ?? '');
    if (jsonEqual(existing.data, data)) return existing;
    // A hash collision: the next sync hashes with a higher collision count.
    const fresh = await client.get<StatefulSet>(refs.statefulSets, set.metadata.namespace, set.metadata.name ?? '');
    if (fresh.status) await client.updateStatus<StatefulSet>(refs.statefulSets, { ...fresh, status: { ...fresh.status, collisionCount: (fresh.status.collisionCount ?? 0) + 1 } });
    throw error;
  }
}

/** truncateHistory: delete the oldest revisions beyond the limit that neither a pod nor the status names. */
export async function truncateHistory(client: Client, set: ReadonlySet, revisions: Revisions, live: ReadonlyArray<string>): Promise<void> {
  const keep = new Set([...live, revisions.current.metadata.name ?? '', revisions.update.metadata.name ?? '']);
  const candidates = revisions.all.filter((r) => !keep.has(r.metadata.name ?? ''));
  const excess = candidates.length - (set.spec.revisionHistoryLimit ?? 10);
  for (const r of candidates.slice(0, Math.max(0, excess))) {
    try {
      await client.delete(refs.controllerRevisions, r.metadata.namespace, r.metadata.name ?? '');
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }
}
