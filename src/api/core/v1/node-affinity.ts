// Required node affinity as component-helpers evaluates it: node selector requirements (with Gt/Lt),
// terms (an empty term matches nothing; matchFields knows metadata.name), and a pod's nodeSelector
// ANDed with its required terms. Shared by the scheduler, the DaemonSet controller, volume binding and
// DRA's node selection (ResourceSlices and their devices).
// Upstream: staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
import type { DeepReadonly } from '../../../core/index.ts';
import type { Node } from './node.ts';
import type { NodeSelectorRequirement, NodeSelectorTerm, Pod } from './pod/types.ts';
import { isQualifiedName, isValidLabelValue } from './pod/syntax.ts';

type Req = DeepReadonly<NodeSelectorRequirement>;
type Term = DeepReadonly<NodeSelectorTerm>;
type Labels = Readonly<Record<string, string>> | undefined;

/** What matching reads of a Node; a full Node satisfies it. */
export interface SelectedNode {
  readonly metadata: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(s, 10, 64): an optional sign, decimal digits, within int64. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n;
}

/**
 * labels.NewRequirement's checks, which make a term that fails them match no node: the key a
 * label key, every value a label value, the number of values the operator takes, and Gt/Lt's one
 * value an int64. Validation refuses most such terms on create; what it lets through (a Gt value
 * past int64, a preferred term's values, an object stored before) is judged here.
 */
function requirementIsValid(r: Req): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) return false;
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) return false;
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1 || parseInt64(values[0] ?? '') === undefined) return false;
      break;
    default:
      return false;
  }
  return isQualifiedName(r.key).length === 0 && values.every((v) => isValidLabelValue(v).length === 0);
}

/** Requirement.Matches on a node's labels, for a requirement that passed requirementIsValid. */
function requirementMatches(r: Req, labels: Labels): boolean {
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
      const a = has ? parseInt64(v) : undefined;
      const b = parseInt64(values[0] ?? '');
      if (a === undefined || b === undefined) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** nodeSelectorRequirementsAsFieldSelector: In or NotIn with one value, against the node's fields (metadata.name; any other key reads ''). */
function fieldRequirementMatches(r: Req, node: SelectedNode): boolean | undefined {
  const values = r.values ?? [];
  if ((r.operator !== 'In' && r.operator !== 'NotIn') || values.length !== 1) return undefined;
  const field = r.key === 'metadata.name' ? (node.metadata.name ?? '') : '';
  return (field === values[0]) === (r.operator === 'In');
}

// Whether a term's expressions parse, once per term object: terms are parts of shared, read-only objects.
const validTerms = new WeakMap<object, boolean>();

function termIsValid(t: Term): boolean {
  let valid = validTerms.get(t);
  if (valid === undefined) {
    valid = (t.matchExpressions ?? []).every(requirementIsValid);
    validTerms.set(t, valid);
  }
  return valid;
}

/** A term matches when it parses and all its expressions and fields do; an empty term matches nothing. */
export function termMatches(t: Term, node: SelectedNode): boolean {
  const exprs = t.matchExpressions ?? [];
  const fields = t.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  if (!termIsValid(t)) return false;
  for (const r of exprs) if (!requirementMatches(r, node.metadata.labels)) return false;
  for (const r of fields) if (fieldRequirementMatches(r, node) !== true) return false;
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

