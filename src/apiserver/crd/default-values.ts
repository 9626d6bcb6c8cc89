// A schema default must itself be valid where it applies: the value is checked against its node's schema
// and the node's validation rules when the CRD is written, the errors under `<node>.default`.
// Upstream: apiextensions-apiserver/pkg/apiserver/schema/defaulting/validation.go (ValidateDefaults).
import type { FieldError } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { validateValue } from './schema.ts';
import { validateRules } from './validation-rules.ts';

/** An error found inside the default value, at its place under `<path>.default`. */
function under(path: string, e: FieldError): FieldError {
  const at = e.field === '' || e.field === '<nil>' ? '' : e.field.startsWith('[') ? e.field : `.${e.field}`;
  return { ...e, field: `${path}.default${at}` };
}

/** The errors of node `s`'s default at `path` (none when it has no default). */
export function defaultValueErrors(s: JSONSchemaProps, path: string): FieldError[] {
  if (s.default === undefined) return [];
  const value = structuredClone(s.default);
  const errors = validateValue(value, s, '').map((e) => under(path, e));
  if (errors.length > 0) return errors;
  return validateRules(value, undefined, s, '').map((e) => under(path, e));
}
