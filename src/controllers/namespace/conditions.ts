// The status conditions a namespace being deleted carries: which content remains, under which
// finalizers, and whether deletion failed, each condition False with its "ok" words once fine. What
// `kubectl get ns -o yaml` shows for a namespace stuck in Terminating. Pure.
// Upstream: pkg/controller/namespace/deletion/status_condition_utils.go.
import type { Condition } from '../../core/index.ts';

export interface NamespaceCondition extends Condition {
  type: string;
}

/** What one pass of deletion left: per resource (`<resource>.<group>`), per finalizer, and the errors. */
export interface ContentRemaining {
  byResource: ReadonlyMap<string, number>;
  byFinalizer: ReadonlyMap<string, number>;
  deleteErrors: readonly string[];
}

const conditionTypes = ['NamespaceDeletionDiscoveryFailure', 'NamespaceDeletionGroupVersionParsingFailure', 'NamespaceDeletionContentFailure', 'NamespaceContentRemaining', 'NamespaceFinalizersRemaining'] as const;
type ConditionType = (typeof conditionTypes)[number];

const ok: Record<ConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

const sortedCounts = (counts: ReadonlyMap<string, number>, format: (key: string, n: number) => string): string =>
  [...counts].filter(([, n]) => n > 0).map(([key, n]) => format(key, n)).sort().join(', ');

/** The failing conditions of one pass; the types absent here are fine. */
function failing(content: ContentRemaining): Partial<Record<ConditionType, { reason: string; message: string }>> {
  const out: Partial<Record<ConditionType, { reason: string; message: string }>> = {};
  if (content.deleteErrors.length > 0) {
    out.NamespaceDeletionContentFailure = { reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${content.deleteErrors.length} remaining: ${[...content.deleteErrors].sort().join(', ')}` };
  }
  const resources = sortedCounts(content.byResource, (r, n) => `${r} has ${n} resource instances`);
  if (resources) out.NamespaceContentRemaining = { reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources}` };
  const finalizers = sortedCounts(content.byFinalizer, (f, n) => `${f} in ${n} resource instances`);
  if (finalizers) out.NamespaceFinalizersRemaining = { reason: 'SomeFinalizerRemain', message: `Some finalizers are remaining: ${finalizers}` };
  return out;
}

/** updateConditions: the namespace's conditions after a pass, or undefined when none changed. */
export function deletionConditions(current: readonly NamespaceCondition[], content: ContentRemaining, now: string): NamespaceCondition[] | undefined {
  const fresh = failing(content);
  const next = current.map((c) => ({ ...c }));
  let changed = false;
  for (const type of conditionTypes) {
    const want = fresh[type];
    const status = want ? 'True' : 'False';
    const { reason, message } = want ?? ok[type];
    const old = next.find((c) => c.type === type);
    if (!old) {
      next.push({ type, status, lastTransitionTime: now, reason, message });
      changed = true;
    } else if (old.status !== status || old.reason !== reason || old.message !== message) {
      if (old.status !== status) old.lastTransitionTime = now;
      Object.assign(old, { status, reason, message });
      changed = true;
    }
  }
  return changed ? next : undefined;
}
