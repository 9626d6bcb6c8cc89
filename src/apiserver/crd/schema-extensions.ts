// What a CRD's schema may say with the Kubernetes extensions of one node: x-kubernetes-preserve-unknown-
// fields, -map-type, -list-type and -list-map-keys (a map list's keys name scalar properties that are
// required or defaulted, its items are objects and not nullable; a set's items are atomic).
// Upstream: apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinitionOpenAPISchema, validateMapListKeysMapSet).
import type { FieldError } from '../../core/index.ts';
import { forbiddenField, invalidValue, notSupported, ownValue, required } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';

/** `must be <type> if <extension> is specified`, as Required when the node has no type. */
function typeFor(s: JSONSchemaProps, path: string, type: string, because: string): FieldError | undefined {
  if (s.type === type) return undefined;
  const detail = `must be ${type} if ${because}`;
  return s.type ? invalidValue(`${path}.type`, s.type, detail) : required(`${path}.type`, detail);
}

export function extensionErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const push = (e: FieldError | undefined): void => {
    if (e) errors.push(e);
  };
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errors.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    push(typeFor(s, path, 'object', 'x-kubernetes-map-type is specified'));
    if (mapType !== 'atomic' && mapType !== 'granular') errors.push(notSupported(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  }
  const listType = s['x-kubernetes-list-type'];
  const items = Array.isArray(s.items) ? undefined : s.items;
  if (listType !== undefined && s.type !== 'array') push(typeFor(s, path, 'array', 'x-kubernetes-list-type is specified'));
  else if (listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      errors.push(invalidValue(`${path}.items.x-kubernetes-list-type`, items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    // Upstream reports the items' list type as the value here (an absent one: null).
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') errors.push(invalidValue(`${path}.items.x-kubernetes-map-type`, items['x-kubernetes-list-type'] ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) errors.push(notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  if (keys.length > 0) {
    if (listType === undefined) errors.push(required(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errors.push(invalidValue(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') errors.push(...mapListErrors(s, items, keys, path));
  if ((listType === 'set' || listType === 'map') && items) errors.push(...keyRequirements(listType, items, keys, path));
  return errors;
}

function mapListErrors(s: JSONSchemaProps, items: JSONSchemaProps | undefined, keys: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (keys.length === 0) errors.push(required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
  if (s.items === undefined) errors.push(required(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
  if (!items) return errors;
  if (items.type !== 'object') {
    errors.push(invalidValue(`${path}.items.type`, items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    return errors;
  }
  const seen = new Set<string>();
  for (const key of keys) {
    const property = ownValue(items.properties, key);
    // Upstream shows the items' type as the value.
    if (property && (property.type === 'array' || property.type === 'object')) errors.push(invalidValue(`${path}.items.properties[${key}].type`, items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
    if (!property) errors.push(invalidValue(`${path}.x-kubernetes-list-map-keys`, keys, 'entries must all be names of item properties'));
    if (seen.has(key)) errors.push(invalidValue(`${path}.x-kubernetes-list-map-keys`, keys, 'must not contain duplicate entries'));
    seen.add(key);
  }
  return errors;
}

/** validateMapListKeysMapSet: a set's or map list's items are not nullable; a key is required or defaulted, never nullable. */
function keyRequirements(listType: string, items: JSONSchemaProps, keys: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (items.nullable) errors.push(forbiddenField(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errors;
  for (const key of keys) {
    const property = ownValue(items.properties, key);
    if (!property) continue;
    if (!(items.required ?? []).includes(key) && property.default === undefined) errors.push(required(`${path}.items.properties[${key}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    if (property.nullable) errors.push(forbiddenField(`${path}.items.properties[${key}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errors;
}
