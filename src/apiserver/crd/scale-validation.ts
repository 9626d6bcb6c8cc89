// A custom resource's scale fields as its validator checks them on every write (the object itself, not a
// Scale): the replicas counts are integers within int32's range and the selector a string.
// Upstream: apiextensions-apiserver pkg/registry/customresource/validator.go (ValidateScaleSpec,
// ValidateScaleStatus) and apimachinery's unstructured.NestedInt64/NestedString accessor errors.
import type { FieldError } from '../../core/index.ts';
import { invalidValue } from '../../core/index.ts';
import { goTypeName, goValue } from '../patch/go-format.ts';
import type { CustomResourceSubresourceScale } from './types.ts';

const maxInt32 = 2147483647;

type Nested = { found: false } | { found: true; value: unknown } | { error: string };

/**
 * A scale path's fields: upstream splits it at dots only, so `.spec.jobs[0].replicas` names a field
 * `jobs[0]` of spec (which CRD validation accepts), not the first item of a list.
 */
export function scalePathFields(path: string): string[] {
  return path.replace(/^\./, '').split('.');
}

/** The value at a scale path, or undefined where a field is missing or one on the way is not an object. */
export function readPath(obj: unknown, path: string): unknown {
  const nested = nestedField(obj, path);
  return 'found' in nested && nested.found ? nested.value : undefined;
}

/** unstructured.NestedFieldNoCopy along a scale path. */
function nestedField(obj: unknown, path: string): Nested {
  const fields = scalePathFields(path);
  let value: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (value === null || value === undefined) return { found: false };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { error: `${jsonPath(fields.slice(0, i + 1))} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected map[string]interface{}` };
    }
    const field = fields[i] as string;
    if (!Object.hasOwn(value, field)) return { found: false };
    value = (value as Record<string, unknown>)[field];
  }
  return { found: true, value };
}

function jsonPath(fields: readonly string[]): string {
  return `.${fields.join('.')}`;
}

/** `%T` of a decoded JSON value. */
function goType(value: unknown): string {
  return value === null || value === undefined ? '<nil>' : goTypeName(value);
}

function replicasErrors(obj: unknown, path: string): FieldError[] {
  const nested = nestedField(obj, path);
  if ('error' in nested) return [invalidValue(path, 0, nested.error)];
  if (!nested.found) return [];
  const value = nested.value;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return [invalidValue(path, 0, `${jsonPath(scalePathFields(path))} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected int64`)];
  }
  if (value < 0) return [invalidValue(path, value, 'should be a non-negative integer')];
  if (value > maxInt32) return [invalidValue(path, value, `should be less than or equal to ${maxInt32}`)];
  return [];
}

/** ValidateScaleSpec: create and update, not the status subresource. */
export function scaleSpecErrors(obj: unknown, scale: CustomResourceSubresourceScale): FieldError[] {
  return replicasErrors(obj, scale.specReplicasPath);
}

/** ValidateScaleStatus: every write, the status subresource's too. */
export function scaleStatusErrors(obj: unknown, scale: CustomResourceSubresourceScale): FieldError[] {
  const errors = replicasErrors(obj, scale.statusReplicasPath);
  const selectorPath = scale.labelSelectorPath;
  if (selectorPath === undefined) return errors;
  const nested = nestedField(obj, selectorPath);
  if ('error' in nested) errors.push(invalidValue(selectorPath, '', nested.error));
  else if (nested.found && typeof nested.value !== 'string') {
    const detail = `${jsonPath(scalePathFields(selectorPath))} accessor error: ${goValue(nested.value)} is of the type ${goType(nested.value)}, expected string`;
    errors.push(invalidValue(selectorPath, '', detail));
  }
  return errors;
}
