// What FlowSchema and PriorityLevelConfiguration validation share: the status conditions' checks and
// the rule that a mandatory bootstrap object keeps exactly its fixed spec.
// Upstream: pkg/apis/flowcontrol/validation/validation.go, pkg/apis/flowcontrol/internalbootstrap.
import { FieldPath, duplicate, invalidValue, jsonEqual, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { mandatoryConfiguration } from './bootstrap.ts';

export interface FlowcontrolCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** Validate*Status: condition types present and not repeated. */
export function flowcontrolConditionErrors(conditions: readonly FlowcontrolCondition[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const at = path.child('conditions').index(i);
    if (seen.has(c.type ?? '')) errs.push(duplicate(at.child('type'), c.type ?? ''));
    seen.add(c.type ?? '');
    if (!c.type) errs.push(required(at.child('type'), 'must not be empty'));
  });
  return errs;
}

/**
 * A mandatory object's spec must equal the fixed (defaulted) value; of the `exempt` level, an
 * administrator may change the `exempt` field. Upstream prints the internal struct with %#v,
 * pointers as addresses; the value here prints as JSON.
 */
export function mandatorySpecErrors(kind: 'flowSchemas' | 'priorityLevelConfigurations', name: string, spec: unknown): FieldError[] {
  const fixed = mandatoryConfiguration[kind].find((o) => o.metadata.name === name);
  if (!fixed) return [];
  const exemptLevel = kind === 'priorityLevelConfigurations' && name === 'exempt';
  const compared = exemptLevel ? { ...(spec as object), exempt: (fixed.spec as { exempt?: unknown }).exempt } : (spec ?? {});
  if (jsonEqual(compared, fixed.spec)) return [];
  const detail = exemptLevel ? `spec of '${name}' except the 'spec.exempt' field must equal the fixed value` : `spec of '${name}' must equal the fixed value`;
  return [invalidValue(FieldPath.root('spec'), spec ?? {}, detail)];
}
