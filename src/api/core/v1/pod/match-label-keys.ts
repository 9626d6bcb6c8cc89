// matchLabelKeys / mismatchLabelKeys: on create the API server turns each key into a selector
// requirement on the pod's own value of that label and stores it in the term's labelSelector, so the
// scheduler (and anyone reading the pod) sees one selector. MatchLabelKeysInPodAffinity is GA in 1.35,
// MatchLabelKeysInPodTopologySpreadSelectorMerge beta and on: a rolling Deployment's
// `matchLabelKeys: [pod-template-hash]` keeps a new revision's pods from counting the old ones.
// Upstream: pkg/registry/core/pod/strategy.go (mutatePodAffinity, mutateTopologySpreadConstraints),
// pkg/apis/core/validation/validation.go (validateMatchLabelKeysAndMismatchLabelKeys, validateLabelKeys),
// pkg/api/pod/util.go (hasInvalidTopologySpreadConstrainMatchLabelKeys).
import { forbiddenField, invalidValue } from '../../../../core/index.ts';
import type { FieldError, FieldPath, LabelSelector } from '../../../../core/index.ts';
import type { Pod, PodAffinity, PodAffinityTerm } from './types.ts';
import { isQualifiedName } from './syntax.ts';

type Operator = 'In' | 'NotIn';

function applyLabelKeys(selector: LabelSelector, keys: readonly string[] | undefined, operator: Operator, labels: Readonly<Record<string, string>>): void {
  for (const key of keys ?? []) {
    const value = labels[key];
    // A key the pod does not carry adds nothing (Go's `if value, ok := podLabels[key]; ok`).
    if (value === undefined) continue;
    selector.matchExpressions = [...(selector.matchExpressions ?? []), { key, operator, values: [value] }];
  }
}

// A nil labelSelector matches nothing, so there is nothing to narrow.
function applyToTerm(term: PodAffinityTerm, labels: Readonly<Record<string, string>>): void {
  if (!term.labelSelector || (!term.matchLabelKeys?.length && !term.mismatchLabelKeys?.length)) return;
  applyLabelKeys(term.labelSelector, term.matchLabelKeys, 'In', labels);
  applyLabelKeys(term.labelSelector, term.mismatchLabelKeys, 'NotIn', labels);
}

function applyToAffinity(affinity: PodAffinity | undefined, labels: Readonly<Record<string, string>>): void {
  for (const t of affinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) applyToTerm(t.podAffinityTerm, labels);
  for (const t of affinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) applyToTerm(t, labels);
}

/** PrepareForCreate's merge, in place on the pod being created. Never run on update: the keys' values are fixed at creation. */
export function mergeMatchLabelKeys(pod: Pod): void {
  const labels = pod.metadata.labels ?? {};
  applyToAffinity(pod.spec?.affinity?.podAffinity, labels);
  applyToAffinity(pod.spec?.affinity?.podAntiAffinity, labels);
  for (const c of pod.spec?.topologySpreadConstraints ?? []) {
    if (c.labelSelector && c.matchLabelKeys?.length) applyLabelKeys(c.labelSelector, c.matchLabelKeys, 'In', labels);
  }
}

function validateLabelKeys(path: FieldPath, keys: readonly string[] | undefined, selector: LabelSelector | undefined): FieldError[] {
  if (!keys?.length) return [];
  if (!selector) return [forbiddenField(path, 'must not be specified when labelSelector is not set')];
  return keys.flatMap((k, i) => isQualifiedName(k).map((m) => invalidValue(path.index(i), k, m)));
}

/**
 * Runs on the merged selector: a matchLabelKeys key that the merge added is its one expected
 * occurrence, so only a second one (the user also wrote it in the selector) is an error. The
 * "exists in both" error sits at `<term>[i]`, not under matchLabelKeys, as upstream reports it.
 */
export function validateMatchLabelKeysAndMismatchLabelKeys(path: FieldPath, matchLabelKeys: readonly string[] | undefined, mismatchLabelKeys: readonly string[] | undefined, selector: LabelSelector | undefined): FieldError[] {
  const errs = [...validateLabelKeys(path.child('matchLabelKeys'), matchLabelKeys, selector), ...validateLabelKeys(path.child('mismatchLabelKeys'), mismatchLabelKeys, selector)];
  if (selector) {
    const index = new Map<string, number>();
    (matchLabelKeys ?? []).forEach((k, i) => index.set(k, i));
    const seen = new Set(Object.keys(selector.matchLabels ?? {}));
    for (const { key } of selector.matchExpressions ?? []) {
      const i = index.get(key);
      if (i !== undefined && seen.has(key)) errs.push(invalidValue(path.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
      seen.add(key);
    }
  }
  const mismatch = new Set(mismatchLabelKeys ?? []);
  (matchLabelKeys ?? []).forEach((k, i) => {
    if (mismatch.has(k)) errs.push(invalidValue(path.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errs;
}
