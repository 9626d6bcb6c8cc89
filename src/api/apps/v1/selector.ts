// metav1.LabelSelector as the workload kinds use it: matching a label set, and the
// labels.Selector String() form printed in tables and in Scale.status.selector.
// Upstream: apimachinery/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector, FormatLabelSelector),
// apimachinery/pkg/labels/selector.go (Requirement.String).
import type { DeepReadonly, LabelSelector } from '../../../core/index.ts';

type Selector = DeepReadonly<LabelSelector> | undefined;
type Labels = Readonly<Record<string, string>> | undefined;

/** A nil selector matches nothing; an empty one matches everything. */
export function selectorMatches(selector: Selector, labels: Labels): boolean {
  if (!selector) return false;
  const set = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (set[k] !== v) return false;
  }
  for (const r of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(set, r.key);
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
        if (!has || !values.includes(set[r.key] ?? '')) return false;
        break;
      case 'NotIn':
        if (has && values.includes(set[r.key] ?? '')) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True for a selector with no requirements (matches everything). */
export function isEmptySelector(selector: Selector): boolean {
  return !!selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0;
}

/** labels.Selector.String(): requirements sorted by key, values sorted; `''` for nil or empty. */
export function selectorString(selector: Selector): string {
  if (!selector) return '';
  const parts: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) parts.push({ key: k, text: `${k}=${v}` });
  for (const r of selector.matchExpressions ?? []) {
    const values = [...new Set(r.values ?? [])].sort();
    switch (r.operator) {
      case 'In':
        parts.push({ key: r.key, text: `${r.key} in (${values.join(',')})` });
        break;
      case 'NotIn':
        parts.push({ key: r.key, text: `${r.key} notin (${values.join(',')})` });
        break;
      case 'Exists':
        parts.push({ key: r.key, text: r.key });
        break;
      case 'DoesNotExist':
        parts.push({ key: r.key, text: `!${r.key}` });
        break;
    }
  }
  // Stable sort by key keeps matchLabels ahead of an expression on the same key, as Go's sort does.
  parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return parts.map((p) => p.text).join(',');
}

/** metav1.FormatLabelSelector: like selectorString but `<none>` when empty. */
export function formatLabelSelector(selector: Selector): string {
  return selectorString(selector) || '<none>';
}
