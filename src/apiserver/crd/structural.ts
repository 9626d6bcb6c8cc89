// The structural-schema rules a CRD's openAPIV3Schema must follow, with upstream's messages.
// Upstream: apiextensions-apiserver/pkg/apiserver/schema/validation.go (validateStructuralInvariants),
// pkg/apis/apiextensions/validation/validation.go (ValidateCustomResourceDefinitionOpenAPISchema).
import type { FieldError } from '../../core/index.ts';
import { forbiddenField, invalidValue, notSupported, required } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { extensionErrors } from './schema-extensions.ts';
import { ruleDefinitionErrors } from './rule-definitions.ts';
import { defaultValueErrors } from './default-values.ts';

type Level = 'root' | 'item' | 'field';

const emptyType: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/**
 * Errors of one version's schema at `path` (`spec.versions[0].schema.openAPIV3Schema`): the schema's
 * own, then those of its validation rules (compiled only where the schema below holds no error).
 */
export function validateStructural(schema: JSONSchemaProps, path: string, ratchet: SchemaRatchet = {}): FieldError[] {
  const errors: FieldError[] = [];
  const cel: FieldError[] = [];
  walk(schema, path, 'root', { errors, cel, validTypes: ratchet.validTypes ?? true, prunedDefaults: ratchet.prunedDefaults ?? true }, undefined);
  return [...errors, ...cel];
}

/**
 * What an update is not held to because the stored CRD already breaks it: `validTypes` false when it has a
 * type outside openapiV3Types, `prunedDefaults` false when it has a default with unknown fields.
 */
export interface SchemaRatchet {
  validTypes?: boolean;
  prunedDefaults?: boolean;
}

interface Walk {
  errors: FieldError[];
  cel: FieldError[];
  validTypes: boolean;
  prunedDefaults: boolean;
}

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/**
 * specStandardValidatorV3's checks of one schema node: JSON-Schema features CRDs do not support.
 * `validTypes` is false when the CRD already stored a type outside openapiV3Types (an update is
 * not held to it then, as upstream's requireValidPropertyType).
 */
function standard(s: JSONSchemaProps, path: string, validTypes: boolean, errors: FieldError[]): void {
  if (validTypes && typeof s.type === 'string' && s.type !== '' && !openapiV3Types.includes(s.type)) errors.push(notSupported(`${path}.type`, s.type, openapiV3Types));
  if (s.id) errors.push(forbiddenField(`${path}.id`, 'id is not supported'));
  if (s.additionalItems !== undefined && s.additionalItems !== null) errors.push(forbiddenField(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length > 0) errors.push(forbiddenField(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length > 0) errors.push(forbiddenField(`${path}.definitions`, 'definitions is not supported'));
  if (s.dependencies !== undefined && s.dependencies !== null) errors.push(forbiddenField(`${path}.dependencies`, 'dependencies is not supported'));
  if (s.$ref !== undefined) errors.push(forbiddenField(`${path}.$ref`, '$ref is not supported'));
  if (s.uniqueItems === true) errors.push(forbiddenField(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.type === 'null') errors.push(forbiddenField(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items)) errors.push(forbiddenField(`${path}.items`, 'items must be a schema object and not an array'));
}

/** The standard checks through a subschema of allOf, anyOf, oneOf or not, where the structural ones do not apply. */
function standardTree(s: JSONSchemaProps, path: string, validTypes: boolean, errors: FieldError[]): void {
  standard(s, path, validTypes, errors);
  for (const [name, p] of Object.entries(s.properties ?? {})) standardTree(p, `${path}.properties[${name}]`, validTypes, errors);
  if (Array.isArray(s.items)) (s.items as JSONSchemaProps[]).forEach((item, i) => standardTree(item, `${path}.items[${i}]`, validTypes, errors));
  else if (s.items) standardTree(s.items, `${path}.items`, validTypes, errors);
  if (typeof s.additionalProperties === 'object') standardTree(s.additionalProperties, `${path}.additionalProperties`, validTypes, errors);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) (s[key] ?? []).forEach((sub, i) => standardTree(sub, `${path}.${key}[${i}]`, validTypes, errors));
  if (s.not) standardTree(s.not, `${path}.not`, validTypes, errors);
}

/** Whether a stored schema has a type outside openapiV3Types anywhere (specHasInvalidTypes). */
export function hasInvalidTypes(s: JSONSchemaProps | undefined): boolean {
  if (typeof s !== 'object' || s === null) return false;
  if (typeof s.type === 'string' && s.type !== '' && !openapiV3Types.includes(s.type)) return true;
  const children = [s.items, s.not, ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...Object.values(s.properties ?? {})];
  if (typeof s.additionalProperties === 'object') children.push(s.additionalProperties);
  return children.some((c) => hasInvalidTypes(c));
}

/**
 * One node and its subtree. `uncorrelatable` is the path below which old values do not correlate with new
 * ones (the items of a list that is not a map list, the properties of an atomic map): no oldSelf there.
 */
function walk(s: JSONSchemaProps, path: string, level: Level, ctx: Walk, uncorrelatable: string | undefined, defaultsForbidden?: string): void {
  const { errors, validTypes } = ctx;
  const start = errors.length;
  standard(s, path, validTypes, errors);
  if (defaultsForbidden && s.default !== undefined) errors.push(forbiddenField(`${path}.default`, `must not be set ${defaultsForbidden}`));
  if (level === 'root' && s.nullable) errors.push(forbiddenField(`${path}.nullable`, 'nullable cannot be true at the root'));
  if (s.type === 'array' && !s.items) errors.push(required(`${path}.items`, 'must be specified'));
  const itemsUncorrelatable = uncorrelatable ?? (s['x-kubernetes-list-type'] !== 'map' ? path : undefined);
  if (Array.isArray(s.items)) (s.items as JSONSchemaProps[]).forEach((item, i) => walk(item, `${path}.items[${i}]`, 'item', ctx, itemsUncorrelatable, defaultsForbidden));
  else if (s.items) walk(s.items, `${path}.items`, 'item', ctx, itemsUncorrelatable, defaultsForbidden);
  const propertiesUncorrelatable = uncorrelatable ?? (s['x-kubernetes-map-type'] === 'atomic' ? path : undefined);
  for (const [name, p] of Object.entries(s.properties ?? {})) {
    // The object's own metadata, kind and apiVersion take no defaults (pruning could not tell them apart).
    const topLevelMeta = level === 'root' && (name === 'metadata' || name === 'kind' || name === 'apiVersion');
    walk(p, `${path}.properties[${name}]`, 'field', ctx, propertiesUncorrelatable, defaultsForbidden ?? (topLevelMeta ? `in top-level ${name}` : undefined));
  }
  if (s.additionalProperties !== undefined && s.additionalProperties !== false) {
    if (s.properties) errors.push(forbiddenField(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    if (level === 'root') errors.push(forbiddenField(`${path}.additionalProperties`, 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}.additionalProperties`, 'field', ctx, uncorrelatable, defaultsForbidden);
  }
  errors.push(...extensionErrors(s, path));
  if (s['x-kubernetes-int-or-string'] && s['x-kubernetes-preserve-unknown-fields']) {
    errors.push(invalidValue(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  // The IntOrString exception: anyOf [{type: integer}, {type: string}], directly or first in allOf.
  const intOrString = (list: JSONSchemaProps[] | undefined): boolean => JSON.stringify(list) === '[{"type":"integer"},{"type":"string"}]';
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (key === 'anyOf' && intOrString(s.anyOf)) continue;
    (s[key] ?? []).forEach((sub, i) => {
      if (key === 'allOf' && i === 0 && intOrString(sub.anyOf)) return;
      standardTree(sub, `${path}.${key}[${i}]`, validTypes, errors);
      if (sub.type !== undefined) errors.push(forbiddenField(`${path}.${key}[${i}].type`, 'must be empty to be structural'));
      if (sub.properties?.metadata) errors.push(forbiddenField(`${path}.${key}[${i}].properties[metadata]`, 'must not be specified in a nested context'));
    });
  }
  if (s.not) standardTree(s.not, `${path}.not`, validTypes, errors);
  if (s.pattern !== undefined) {
    try {
      new RegExp(s.pattern, 'u');
    } catch (error) {
      errors.push(invalidValue(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${error instanceof Error ? error.message : String(error)}`));
    }
  }
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (embedded && s.type !== 'object') {
    if (!s.type) errors.push(required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else errors.push(invalidValue(`${path}.type`, s.type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!s.type && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) {
    errors.push(required(`${path}.type`, emptyType[level]));
  }
  if (level === 'root' && s.type && s.type !== 'object') errors.push(invalidValue(`${path}.type`, s.type, 'must be object at the root'));
  const checkMetadata = level === 'root' || embedded;
  const props = s.properties ?? {};
  if (checkMetadata && props.kind && props.kind.type !== 'string') errors.push(invalidValue(`${path}.properties[kind].type`, props.kind.type ?? '', 'must be string'));
  if (checkMetadata && props.apiVersion && props.apiVersion.type !== 'string') errors.push(invalidValue(`${path}.properties[apiVersion].type`, props.apiVersion.type ?? '', 'must be string'));
  if (checkMetadata && props.metadata && props.metadata.type !== 'object') errors.push(invalidValue(`${path}.properties[metadata].type`, props.metadata.type ?? '', 'must be object'));
  if (level === 'root' && props.metadata) {
    const { type: _t, properties, ...rest } = props.metadata;
    const names = Object.keys(properties ?? {});
    const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
    if (!onlyNames || Object.keys(rest).length > 0) {
      errors.push(forbiddenField(`${path}.properties[metadata]`, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  // The rules are compiled only where this node and those below it hold no schema error.
  const clean = errors.length === start;
  const rules = ruleDefinitionErrors(s, path, clean, uncorrelatable);
  errors.push(...rules.schema);
  ctx.cel.push(...rules.cel);
  if (clean && rules.schema.length === 0 && rules.cel.length === 0 && !defaultsForbidden) errors.push(...defaultValueErrors(s, path, ctx.prunedDefaults));
}
