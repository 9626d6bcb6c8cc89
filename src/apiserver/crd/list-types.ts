// The invariants of x-kubernetes-list-type: a set holds no item twice, a map no two items with the same
// keys; each repeat is a Duplicate field error at its index (a value once, at its second occurrence).
// Upstream: apiextensions-apiserver/pkg/apiserver/schema/listtype/validation.go (ValidateListSetsAndMaps),
// called by the custom resource strategy after the schema's validation.
import type { FieldError } from '../../core/index.ts';
import { duplicate, invalidValue, ownValue } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { isObject } from './correlation.ts';
import type { Json } from './correlation.ts';

const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** Every set and map list under `s` in `value`, checked. */
export function validateListSetsAndMaps(value: unknown, s: JSONSchemaProps | undefined, path: string): FieldError[] {
  if (!s) return [];
  const errors: FieldError[] = [];
  if (Array.isArray(value)) {
    const listType = s['x-kubernetes-list-type'];
    if (listType === 'set') errors.push(...setDuplicates(value, path));
    else if (listType === 'map') errors.push(...mapDuplicates(value, s['x-kubernetes-list-map-keys'] ?? [], path));
    value.forEach((item, i) => errors.push(...validateListSetsAndMaps(item, s.items, `${path}[${i}]`)));
  } else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      const sub = ownValue(s.properties, key) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      errors.push(...validateListSetsAndMaps(v, sub, child(path, key)));
    }
  }
  return errors;
}

function setDuplicates(items: readonly unknown[], path: string): FieldError[] {
  const seen = new Map<string, number>();
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    const key = JSON.stringify(item);
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 2) errors.push(duplicate(`${path}[${i}]`, item));
  });
  return errors;
}

function mapDuplicates(items: readonly unknown[], keyFields: readonly string[], path: string): FieldError[] {
  const seen = new Set<string>();
  const reported = new Set<string>();
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (item !== null && !isObject(item)) {
      errors.push(invalidValue(`${path}[${i}]`, item, 'must be an object for an array of list-type map'));
      return;
    }
    // The key fields an item has (a missing one is not part of its key).
    const keys: Json = {};
    for (const field of keyFields) if (item && item[field] !== undefined) keys[field] = item[field];
    const text = JSON.stringify(keys);
    if (!seen.has(text)) {
      seen.add(text);
      return;
    }
    if (reported.has(text)) return;
    reported.add(text);
    errors.push(duplicate(`${path}[${i}]`, keys));
  });
  return errors;
}
