// The warnings a namespace update that tightens its enforce level answers with: which of the pods
// already there the new level would refuse, grouped by the reasons they break it.
// Upstream: staging/src/k8s.io/pod-security-admission/admission/admission.go (EvaluatePodsInNamespace,
// prioritizePods, decoratePodWarnings).
import type { Pod } from '../../api/index.ts';
import { evaluatePod, forbiddenReason } from './evaluate.ts';
import type { LevelVersion } from './policy.ts';
import { levelVersionString } from './policy.ts';

/** Upstream's defaultNamespaceMaxPodsToCheck. */
export const maxPodsToCheck = 3000;

/** One pod of each controller first, then the rest: a cut-off list still samples every workload. */
function prioritizePods(pods: readonly Pod[]): Pod[] {
  const first: Pod[] = [];
  const replicas: Pod[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    const owner = pod.metadata.ownerReferences?.find((r) => r.controller === true);
    if (owner && seen.has(owner.uid)) replicas.push(pod);
    else {
      if (owner) seen.add(owner.uid);
      first.push(pod);
    }
  }
  return [...first, ...replicas];
}

function decorate(reason: string, count: { name: string; pods: number }): string {
  if (count.pods === 1) return `${count.name}: ${reason}`;
  if (count.pods === 2) return `${count.name} (and 1 other pod): ${reason}`;
  return `${count.name} (and ${count.pods - 1} other pods): ${reason}`;
}

export function namespacePodWarnings(namespace: string, enforce: LevelVersion, pods: readonly Pod[]): string[] {
  const ordered = prioritizePods(pods);
  const checked = ordered.slice(0, maxPodsToCheck);
  const byReason = new Map<string, { name: string; pods: number }>();
  for (const pod of checked) {
    const violations = evaluatePod(enforce, pod.metadata, pod.spec);
    if (violations.length === 0) continue;
    const reason = forbiddenReason(violations);
    const name = pod.metadata.name ?? '';
    const count = byReason.get(reason);
    if (!count) byReason.set(reason, { name, pods: 1 });
    else {
      count.pods++;
      if (name < count.name) count.name = name;
    }
  }
  const warnings: string[] = [];
  if (checked.length < ordered.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${ordered.length} existing pods`);
  if (byReason.size > 0) warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`);
  const podWarnings = [...byReason].map(([reason, count]) => decorate(reason, count)).sort();
  return [...warnings, ...podWarnings];
}
