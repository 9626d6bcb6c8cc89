// A CRD version's selectableFields: the custom resource fields field selectors may name besides
// metadata.name and metadata.namespace. Checked when the CRD is written (a simple path to a string,
// boolean or integer field of the schema, outside metadata, no repeats, at most 8), and served as
// field labels: `.spec.color` becomes the label `spec.color`, valued as fmt.Sprint values the field,
// or "" where the object lacks it.
// Upstream: apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceSelectableFields), pkg/apis/apiextensions/v1/conversion.go (where the internal
// CRD holds them), pkg/registry/customresource/strategy.go (selectableFields).
import type { FieldError, KubeObject } from '../../core/index.ts';
import { duplicate, invalidValue, jsonEqual, ownValue, required, tooMany } from '../../core/index.ts';
import { fieldPathString, validFieldPath } from './field-path.ts';
import { goValue } from '../patch/go-format.ts';
import type { CustomResourceDefinitionVersion, JSONSchemaProps, SelectableField } from './types.ts';

export const maxSelectableFields = 8;

const selectableTypes = new Set(['string', 'boolean', 'integer']);

/** ValidateCustomResourceSelectableFields, against the schema of the version(s) the fields belong to. */
export function validateSelectableFields(fields: readonly SelectableField[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = `${path}[${i}].jsonPath`;
    const jsonPath = f.jsonPath ?? '';
    if (jsonPath === '') {
      errors.push(required(at));
      return;
    }
    const found = validFieldPath(jsonPath, schema, { allowArrayNotation: false });
    if (!found.ok) {
      errors.push(invalidValue(at, jsonPath, `is an invalid path: ${found.message}`));
      return;
    }
    const root = found.steps[0];
    if (root?.name === 'metadata' && !root.key) errors.push(invalidValue(at, jsonPath, 'must not point to fields in metadata'));
    if (!selectableTypes.has(found.schema?.type ?? '')) errors.push(invalidValue(at, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    const key = fieldPathString(found.steps);
    if (unique.has(key)) errors.push(duplicate(at, jsonPath));
    else unique.add(key);
  });
  if (unique.size > maxSelectableFields) errors.push(tooMany(path, unique.size, maxSelectableFields));
  return errors;
}

/**
 * The CRD's selectableFields errors, each version's (to report with that version) and the spec's. As in
 * 1.35, the internal CRD upstream validates holds a field at the top (spec.selectableFields,
 * spec.validation) when every version has the same value, each independently of the other: fields
 * shared by versions whose schemas differ are refused for want of a top-level schema, and fields
 * that differ between versions sharing one schema for want of their version's.
 */
export function validateCrdSelectableFields(versions: readonly CustomResourceDefinitionVersion[]): { versions: FieldError[][]; spec: FieldError[] } {
  const fieldsOf = (v: CustomResourceDefinitionVersion): readonly SelectableField[] => v.selectableFields ?? [];
  const first = versions[0];
  const out = { versions: versions.map((): FieldError[] => []), spec: [] as FieldError[] };
  if (first === undefined) return out;
  const sameSchema = versions.every((v) => jsonEqual(v.schema, first.schema));
  if (versions.every((v) => jsonEqual(fieldsOf(v), fieldsOf(first)))) {
    const fields = fieldsOf(first);
    const schema = sameSchema ? first.schema?.openAPIV3Schema : undefined;
    if (fields.length === 0) return out;
    if (!schema) out.spec.push(invalidValue('spec.selectableFields', '', 'selectableFields may only be set when validations.schema is included'));
    else out.spec.push(...validateSelectableFields(fields, schema, 'spec.selectableFields'));
    return out;
  }
  versions.forEach((v, i) => {
    const fields = fieldsOf(v);
    if (fields.length === 0) return;
    const at = `spec.versions[${i}].selectableFields`;
    const schema = sameSchema ? undefined : v.schema?.openAPIV3Schema;
    if (!schema) out.versions[i]?.push(invalidValue(at, '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
    else out.versions[i]?.push(...validateSelectableFields(fields, schema, at));
  });
  return out;
}

/** The field labels a served version's selectableFields add, each reading its field from a custom resource. */
export function selectableFieldLabels(fields: readonly SelectableField[] | undefined): Record<string, (obj: KubeObject) => string> {
  const labels: Record<string, (obj: KubeObject) => string> = {};
  for (const f of fields ?? []) {
    const jsonPath = f.jsonPath ?? '';
    const names = jsonPath.split('.').slice(1);
    labels[jsonPath.replace(/^\./, '')] = (obj) => {
      let value: unknown = obj;
      for (const name of names) value = typeof value === 'object' && value !== null && !Array.isArray(value) ? ownValue(value as Record<string, unknown>, name) : undefined;
      return value === undefined || value === null ? '' : goValue(value);
    };
  }
  return labels;
}
