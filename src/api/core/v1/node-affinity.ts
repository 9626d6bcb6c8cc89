// Required node affinity as component-helpers evaluates it: node selector requirements (with Gt/Lt),
// terms (an empty term matches nothing; matchFields knows metadata.name), and a pod's nodeSelector
// ANDed with its required terms. Shared by the scheduler, the DaemonSet controller and volume binding.
// Upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
import type { DeepReadonly } from '../../../core/index.ts';
import type { Node } from './node.ts';
import type { NodeSelectorRequirement, NodeSelectorTerm, Pod } from './pod/types.ts';

type Req = DeepReadonly<NodeSelectorRequirement>;
type Term = DeepReadonly<NodeSelectorTerm>;
type Labels = Readonly<Record<string, string>> | undefined;

function intValue(s: string): number | undefined {
  return /^-?\d+$/.test(s) ? Number(s) : undefined;
}

export function requirementMatches(r: Req, labels: Labels): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, r.key);
  const v = has ? (labels as Record<string, string>)[r.key] ?? '' : '';
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(v);
    case 'NotIn':
      return !has || !values.includes(v);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const a = intValue(v);
      const b = intValue(values[0] ?? '');
      if (a === undefined || b === undefined) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** A term matches when all its expressions and fields do; an empty term matches nothing. */
export function termMatches(t: Term, node: DeepReadonly<Node>): boolean {
  const exprs = t.matchExpressions ?? [];
  const fields = t.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  for (const r of exprs) if (!requirementMatches(r, node.metadata.labels)) return false;
  for (const r of fields) {
    if (r.key !== 'metadata.name') return false;
    if (!requirementMatches(r, { 'metadata.name': node.metadata.name ?? '' })) return false;
  }
  return true;
}

/** GetRequiredNodeAffinity(pod).Match(node): nodeSelector AND (any required term). */
export function podMatchesNodeSelectorAndAffinity(pod: { readonly spec: DeepReadonly<Pod['spec']> }, node: DeepReadonly<Node>): boolean {
  const sel = pod.spec.nodeSelector;
  if (sel) {
    const labels = node.metadata.labels ?? {};
    for (const k in sel) if (labels[k] !== sel[k]) return false;
  }
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms === undefined) return true;
  for (const t of terms) if (termMatches(t, node)) return true;
  return false;
}

