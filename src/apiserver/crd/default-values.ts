// A schema default must itself be valid where it applies: the value is checked against its node's schema
// and the node's validation rules when the CRD is written, the errors under `<node>.default`; it must hold no
// field the schema would prune.
// Upstream: apiextensions-apiserver/pkg/apiserver/schema/defaulting/validation.go (ValidateDefaults).
import type { FieldError } from '../../core/index.ts';
import { GoSyntax, invalidValue } from '../../core/index.ts';
import { goSyntax } from '../patch/go-format.ts';
import type { JSONSchemaProps } from './types.ts';
import type { Json } from './correlation.ts';
import { pruneUnknown, validateValue } from './schema.ts';
import { validateRules } from './validation-rules.ts';

/** An error found inside the default value, at its place under `<path>.default`. */
function under(path: string, e: FieldError): FieldError {
  const at = e.field === '' || e.field === '<nil>' ? '' : e.field.startsWith('[') ? e.field : `.${e.field}`;
  return { ...e, field: `${path}.default${at}` };
}

/** Whether pruning would take fields out of node `s`'s default (as it would from an object written there). */
function unpruned(s: JSONSchemaProps): boolean {
  return typeof s.default === 'object' && s.default !== null && pruneUnknown(structuredClone(s.default) as Json, s, false, undefined, false).length > 0;
}

/** Whether a stored schema has a default anywhere that pruning would change (requirePrunedDefaults' ratchet). */
export function hasUnprunedDefaults(s: JSONSchemaProps | undefined): boolean {
  if (typeof s !== 'object' || s === null) return false;
  if (unpruned(s)) return true;
  const children = [s.items, s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...Object.values(s.properties ?? {})];
  if (typeof s.additionalProperties === 'object') children.push(s.additionalProperties);
  return children.some((c) => hasUnprunedDefaults(c as JSONSchemaProps | undefined));
}

/**
 * The errors of node `s`'s default at `path` (none when it has no default); `pruned`: whether it must hold
 * only fields its schema knows.
 */
export function defaultValueErrors(s: JSONSchemaProps, path: string, pruned = true): FieldError[] {
  if (s.default === undefined) return [];
  if (pruned && unpruned(s)) return [invalidValue(`${path}.default`, new GoSyntax(goSyntax(s.default)), 'must not have unknown fields')];
  const value = structuredClone(s.default);
  const errors = validateValue(value, s, '').map((e) => under(path, e));
  if (errors.length > 0) return errors;
  return validateRules(value, undefined, s, '').map((e) => under(path, e));
}
