// What a CRD's structural schema does to a custom object: pruning of unknown fields, defaulting,
// and validation with kube-openapi's messages converted to field errors as apiextensions does.
// Upstream: apiextensions-apiserver/pkg/apiserver/schema/{pruning,defaulting}/algorithm.go,
// pkg/apiserver/validation/validation.go (kubeOpenAPIResultToFieldErrors), kube-openapi validate/*.
import type { FieldError } from '../../core/index.ts';
import { UserRegExp, goQuote, jsonEqual, notSupported, ownValue, required, setOwn, tooLong } from '../../core/index.ts';
import { boundedMemo, stringFormatCheck } from '../../api/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { correlatedListItem, isObject } from './correlation.ts';
import type { Json } from './correlation.ts';

// Compiled once per pattern (every write of a custom resource checks its values against them).
const userPattern = boundedMemo((pattern: string) => new UserRegExp(pattern));


// Always kept by the pruner at the root: the type meta and metadata (validated as ObjectMeta).
const rootKept = new Set(['apiVersion', 'kind', 'metadata']);

function childSchema(s: JSONSchemaProps, key: string): JSONSchemaProps | undefined {
  const p = ownValue(s.properties, key);
  if (p) return p;
  if (isObject(s.additionalProperties)) return s.additionalProperties as JSONSchemaProps;
  return undefined;
}

function preserves(s: JSONSchemaProps): boolean {
  return s['x-kubernetes-preserve-unknown-fields'] === true || s.additionalProperties === true;
}

/**
 * Unknown field paths (`spec.foo`, `spec.items[0].bar`) in document order; with `prune`, they are
 * deleted in place. Paths in `keep` stay and are not reported. At a `resourceRoot` (an object's, not a
 * default's below it) apiVersion, kind and metadata are kept, as under an embedded resource.
 */
export function pruneUnknown(obj: Json, schema: JSONSchemaProps, prune: boolean, keep?: ReadonlySet<string>, resourceRoot = true): string[] {
  const found: string[] = [];
  const walk = (s: JSONSchemaProps, value: unknown, path: string, root: boolean): void => {
    if (Array.isArray(value)) {
      if (s.items) value.forEach((v, i) => walk(s.items as JSONSchemaProps, v, `${path}[${i}]`, false));
      return;
    }
    if (!isObject(value)) return;
    const embedded = s['x-kubernetes-embedded-resource'] === true;
    for (const key of Object.keys(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if ((root || embedded) && rootKept.has(key)) continue;
      const sub = childSchema(s, key);
      if (sub) {
        walk(sub, value[key], at, false);
        continue;
      }
      if (preserves(s) || keep?.has(at)) continue;
      found.push(at);
      if (prune) delete value[key];
    }
  };
  walk(schema, obj, '', resourceRoot);
  return found;
}

/** Fills absent properties from their schema defaults, recursing into what is present. */
export function applyDefaults(value: unknown, s: JSONSchemaProps): void {
  if (Array.isArray(value)) {
    if (s.items) for (const v of value) applyDefaults(v, s.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    if (ownValue(value, key) === undefined && sub.default !== undefined) setOwn(value, key, structuredClone(sub.default));
    const present = ownValue(value, key);
    if (present !== undefined) applyDefaults(present, sub);
  }
  if (isObject(s.additionalProperties)) {
    for (const [key, v] of Object.entries(value)) if (!ownValue(s.properties, key)) applyDefaults(v, s.additionalProperties as JSONSchemaProps);
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(s: JSONSchemaProps, value: unknown): boolean {
  if (s['x-kubernetes-int-or-string']) return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
  const actual = typeOf(value);
  switch (s.type) {
    case undefined:
    case '':
      return true;
    case 'number':
      return actual === 'number' || actual === 'integer';
    default:
      return actual === s.type;
  }
}

const typeInvalid = (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, badValue, detail });
const invalid = (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail });

/**
 * Validates `value` at `path` (root ''); field errors as the apiserver reports them for custom resources.
 * On an update `old` is the value the stored object has here, when one correlates (by property name, a
 * map list's item by its keys): a value equal to it keeps whatever errors it had (validation ratcheting,
 * GA in 1.33), so an object a tightened schema no longer accepts can still be changed elsewhere.
 * `changedAbove` says the node differs though its value does not (the root, when only metadata changed).
 */
export function validateValue(value: unknown, s: JSONSchemaProps, path: string, old?: Correlated, changedAbove = false): FieldError[] {
  const errors = validateNode(value, s, path, old);
  if (errors.length === 0 || !old || changedAbove || !jsonEqual(value, old.value)) return errors;
  return [];
}

/** The old value correlated with a node (absent: none correlates, the node is validated in full). */
export interface Correlated {
  value: unknown;
}

function correlatedChild(old: Correlated | undefined, key: string): Correlated | undefined {
  return old && isObject(old.value) && Object.hasOwn(old.value, key) ? { value: old.value[key] } : undefined;
}

/** The correlated old value of a list item (correlation.ts), wrapped; undefined when none correlates. */
function correlatedItemOf(old: Correlated | undefined, s: JSONSchemaProps, item: unknown): Correlated | undefined {
  const found = old && correlatedListItem(item, old.value, s);
  return found === undefined ? undefined : { value: found };
}

function validateNode(value: unknown, s: JSONSchemaProps, path: string, old: Correlated | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const name = path === '' ? '<root>' : path;
  if (value === undefined) return errors;
  if (value === null) {
    if (!s.nullable && s.type) errors.push(typeInvalid(path, 'null', `${name} in body must be of type ${s.type}: "null"`));
    return errors;
  }
  if (!matchesType(s, value)) {
    const actual = typeOf(value) === 'integer' ? 'number' : typeOf(value);
    errors.push(typeInvalid(path, actual, `${name} in body must be of type ${s.type ?? ''}: ${JSON.stringify(actual)}`));
    return errors;
  }
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errors.push(notSupported(path, value, s.enum.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (typeof value === 'number') {
    if (s.multipleOf !== undefined && s.multipleOf > 0 && !isJSONInteger(s.multipleOf < 1 ? (1 / s.multipleOf) * value : value / s.multipleOf)) errors.push(invalid(path, value, `${name} in body should be a multiple of ${s.multipleOf}`));
    if (s.minimum !== undefined && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum)) {
      errors.push(invalid(path, value, `${name} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`));
    }
    if (s.maximum !== undefined && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum)) {
      errors.push(invalid(path, value, `${name} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`));
    }
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (s.maxLength !== undefined && length > s.maxLength) errors.push(tooLong(path, s.maxLength));
    if (s.minLength !== undefined && length < s.minLength) errors.push(invalid(path, value, `${name} in body should be at least ${s.minLength} chars long`));
    if (s.pattern !== undefined && !userPattern(s.pattern).test(value)) errors.push(invalid(path, value, `${name} in body should match '${s.pattern}'`));
    // kube-openapi's format validator, for the formats apiextensions keeps; a failure is a type error.
    const formatCheck = s.format ? stringFormatCheck(s.format) : undefined;
    if (formatCheck && !formatCheck(value)) errors.push(typeInvalid(path, value, `${name} in body must be of type ${s.format}: ${goQuote(value)}`));
  }
  if (Array.isArray(value)) {
    if (s.maxItems !== undefined && value.length > s.maxItems) errors.push({ type: 'FieldValueTooMany', field: path, badValue: value.length, detail: `must have at most ${s.maxItems} items` });
    if (s.minItems !== undefined && value.length < s.minItems) errors.push(invalid(path, value.length, `${name} in body should have at least ${s.minItems} items`));
    if (s.items) value.forEach((v, i) => errors.push(...validateValue(v, s.items as JSONSchemaProps, `${path}[${i}]`, correlatedItemOf(old, s, v))));
  }
  if (isObject(value)) errors.push(...objectErrors(value, s, path, name, old));
  errors.push(...compositeErrors(value, s, path));
  return errors;
}

/**
 * The object validator: minProperties, then maxProperties, each ending the object's checks when it fails;
 * then required properties and each property's value.
 */
function objectErrors(value: Json, s: JSONSchemaProps, path: string, name: string, old: Correlated | undefined): FieldError[] {
  const count = Object.keys(value).length;
  if (s.minProperties !== undefined && count < s.minProperties) return [invalid(path, count, `${name} in body should have at least ${s.minProperties} properties`)];
  if (s.maxProperties !== undefined && count > s.maxProperties) return [{ type: 'FieldValueTooMany', field: path, badValue: count, detail: `must have at most ${s.maxProperties} items` }];
  const errors: FieldError[] = [];
  for (const key of s.required ?? []) if (value[key] === undefined) errors.push(required(path === '' ? key : `${path}.${key}`));
  for (const [key, v] of Object.entries(value)) {
    const sub = childSchema(s, key);
    // apiVersion and kind are not ratcheted: both objects were converted to the same version.
    const correlated = path === '' && (key === 'apiVersion' || key === 'kind') ? undefined : correlatedChild(old, key);
    if (sub && !(path === '' && key === 'metadata')) errors.push(...validateValue(v, sub, path === '' ? key : `${path}.${key}`, correlated));
  }
  return errors;
}

/**
 * allOf, anyOf, oneOf and not (value validations only, in a structural schema). Their failures are not
 * field errors of the value: apiextensions reports them at the request's root path, quoting the value's.
 * When no alternative of anyOf or oneOf holds, the errors of the one that came closest (fewest errors
 * here; kube-openapi counts the checks that matched) follow.
 */
function compositeErrors(value: unknown, s: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const atRoot = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field: '<nil>', badValue: '', detail });
  const quoted = goQuote(path);
  const closest = (results: FieldError[][]): FieldError[] => results.reduce((best, r) => (r.length < best.length ? r : best));
  if (s.allOf?.length) {
    const results = s.allOf.map((sub) => validateValue(value, sub, path));
    const failing = results.filter((r) => r.length > 0).length;
    for (const r of results) errors.push(...r);
    if (failing > 0) errors.push(atRoot(`${quoted} must validate all the schemas (allOf)${failing === results.length ? '. None validated' : ''}`));
  }
  if (s.anyOf?.length) {
    const results = s.anyOf.map((sub) => validateValue(value, sub, path));
    if (!results.some((r) => r.length === 0)) errors.push(atRoot(`${quoted} must validate at least one schema (anyOf)`), ...closest(results));
  }
  if (s.oneOf?.length) {
    const results = s.oneOf.map((sub) => validateValue(value, sub, path));
    const valid = results.filter((r) => r.length === 0).length;
    if (valid === 0) errors.push(atRoot(`${quoted} must validate one and only one schema (oneOf). Found none valid`), ...closest(results));
    else if (valid > 1) errors.push(atRoot(`${quoted} must validate one and only one schema (oneOf). Found ${valid} valid alternatives`));
  }
  if (s.not && validateValue(value, s.not, path).length === 0) errors.push(atRoot(`${quoted} must not validate the schema (not)`));
  return errors;
}

/** swag's IsFloat64AJSONInteger (MultipleOf divides, or multiplies by 1/factor below 1): a whole number, within a relative error of 1e-9. */
function isJSONInteger(f: number): boolean {
  if (!Number.isFinite(f)) return false;
  const g = Math.trunc(f);
  if (f === g) return true;
  return Math.abs(f - g) / (Math.abs(f) + Math.abs(g)) < 1e-9;
}
