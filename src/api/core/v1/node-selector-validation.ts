// ValidateNodeSelector as core validation writes it, for every object that selects nodes: a pod's
// node affinity, a PersistentVolume's node affinity, a ResourceSlice's (and its devices') node selection.
// Upstream: pkg/apis/core/validation/validation.go (ValidateNodeSelector, ValidateNodeSelectorTerm,
// ValidateNodeSelectorRequirement, ValidateNodeFieldSelectorRequirement).
import { forbiddenField, invalidValue, required } from '../../../core/index.ts';
import type { FieldError, FieldPath } from '../../../core/index.ts';
import { isQualifiedName, isValidLabelValue } from './pod/syntax.ts';
import type { NodeSelector, NodeSelectorTerm } from './pod/types.ts';

/**
 * One term's expressions and fields. `checkValues` is upstream's !allowInvalidLabelValue: values of
 * required terms must be label values (an update may keep the invalid ones the object already had).
 */
export function validateNodeSelectorTerm(term: NodeSelectorTerm, path: FieldPath, checkValues: boolean): FieldError[] {
  const errs: FieldError[] = [];
  (term.matchExpressions ?? []).forEach((r, j) => {
    const p = path.child('matchExpressions').index(j);
    const n = r.values?.length ?? 0;
    // key and operator are Go values: left out of a body, they are "".
    const key = r.key ?? '';
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (n === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (n > 0) errs.push(forbiddenField(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else if (r.operator === 'Gt' || r.operator === 'Lt') {
      if (n !== 1) errs.push(required(p.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
    } else errs.push(invalidValue(p.child('operator'), r.operator ?? '', 'not a valid selector operator'));
    for (const m of isQualifiedName(key)) errs.push(invalidValue(p.child('key'), key, m));
    if (checkValues) (r.values ?? []).forEach((v, k) => isValidLabelValue(v).forEach((m) => errs.push(invalidValue(p.child('values').index(k), v, m))));
  });
  (term.matchFields ?? []).forEach((r, j) => {
    const p = path.child('matchFields').index(j);
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if ((r.values?.length ?? 0) !== 1) errs.push(required(p.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
    } else errs.push(invalidValue(p.child('operator'), r.operator ?? '', 'not a valid selector operator'));
    if (r.key !== 'metadata.name') errs.push(invalidValue(p.child('key'), r.key ?? '', 'not a valid field selector key'));
  });
  return errs;
}

/** ValidateNodeSelector: at least one term, each valid. */
export function validateNodeSelector(selector: NodeSelector, path: FieldPath, checkValues = true): FieldError[] {
  const p = path.child('nodeSelectorTerms');
  const terms = selector.nodeSelectorTerms ?? [];
  if (terms.length === 0) return [required(p, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => validateNodeSelectorTerm(t, p.index(i), checkValues));
}

/** Whether a required selector holds a value that is not a label value (an update may keep such values). */
export function hasInvalidLabelValue(selector: NodeSelector | undefined): boolean {
  return (selector?.nodeSelectorTerms ?? []).some((t) => (t.matchExpressions ?? []).some((r) => (r.values ?? []).some((v) => isValidLabelValue(v).length > 0)));
}
