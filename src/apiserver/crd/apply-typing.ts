// The fields of an applied configuration that server-side apply cannot type against a CRD's schema.
// The type converter is built from the CRD's OpenAPI: an object with neither properties nor
// additionalProperties is a free-form map whose values are deduced from what is sent, as are the values of
// additionalProperties: true and of every object below x-kubernetes-preserve-unknown-fields. So applying
// values there succeeds, and the structural pruning on storage then drops those the schema does not keep.
// An embedded resource is typed with apiVersion, kind and metadata (ObjectMeta) added to its properties.
// Upstream: kube-openapi pkg/schemaconv/openapi.go (parseObject, visitSpec),
// apiextensions-apiserver pkg/controller/openapi/builder/builder.go (addEmbeddedProperties).
import type { PatchMeta } from '../../api/index.ts';
import { lookupTable, ownValue } from '../../core/index.ts';
import { typedMismatch } from '../openapi/index.ts';
import type { Expected } from '../openapi/index.ts';
import { isObject } from './correlation.ts';
import type { Json } from './correlation.ts';
import type { JSONSchemaProps } from './types.ts';

const typeMetaFields = new Set(['apiVersion', 'kind', 'metadata']);

const preserves = (s: JSONSchemaProps): boolean => s['x-kubernetes-preserve-unknown-fields'] === true;

/**
 * Whether undeclared keys of an object under `s` take a deduced type rather than failing. A resource (the
 * root, or an embedded one) always has properties: the builder adds apiVersion, kind and metadata.
 */
function isFreeForm(s: JSONSchemaProps, preserve: boolean, resource: boolean): boolean {
  if (isObject(s.additionalProperties)) return false;
  if (s.additionalProperties === true || preserve) return true;
  return !resource && Object.keys(s.properties ?? {}).length === 0;
}

const isEmbedded = (s: JSONSchemaProps): boolean => s['x-kubernetes-embedded-resource'] === true;

/** The scalar or composite structured-merge-diff makes of a schema type; undefined where any value goes. */
function expectedOf(s: JSONSchemaProps): Expected | undefined {
  if (s['x-kubernetes-int-or-string']) return undefined;
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'map';
    case 'array':
      return 'list';
    default:
      return undefined;
  }
}

function fits(expected: Expected, value: unknown): boolean {
  switch (expected) {
    case 'string':
      return typeof value === 'string';
    case 'numeric':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'map':
      return isObject(value);
    case 'list':
      return Array.isArray(value);
  }
}

// What the published schema gives an embedded resource's type meta (openapi-schema.ts).
const embeddedTypeMeta: JSONSchemaProps = { type: 'string' };

/**
 * What structured-merge-diff's typed conversion of an applied configuration finds, in document order:
 * fields the schema does not declare and values of the wrong type (null fits any). The root's apiVersion,
 * kind and metadata, and an embedded resource's, are declared: the published schema adds them (metadata
 * is ObjectMeta, checked elsewhere; an embedded apiVersion and kind are strings).
 */
export function applyTypeErrors(obj: Json, schema: JSONSchemaProps): { path: string; message: string }[] {
  const found: { path: string; message: string }[] = [];
  const walk = (s: JSONSchemaProps, value: unknown, path: string, root: boolean, inherited: boolean): void => {
    const expected = root ? undefined : expectedOf(s);
    if (value === null || (expected && !fits(expected, value))) {
      if (value !== null && expected) found.push({ path, message: typedMismatch(expected, value) });
      return;
    }
    const preserve = inherited || preserves(s);
    if (Array.isArray(value)) {
      if (s.items) value.forEach((v, i) => walk(s.items as JSONSchemaProps, v, `${path}[${i}]`, false, preserve));
      return;
    }
    if (!isObject(value)) return;
    const resource = root || isEmbedded(s);
    for (const key of Object.keys(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (resource && key === 'metadata') continue;
      // The builder sets these properties over whatever the schema declares.
      const typeMeta = !root && resource && typeMetaFields.has(key) ? embeddedTypeMeta : undefined;
      const sub = typeMeta ?? ownValue(s.properties, key) ?? (isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined);
      if (sub) walk(sub, value[key], at, false, preserve);
      else if (!(resource && typeMetaFields.has(key)) && !isFreeForm(s, preserve, resource)) found.push({ path: at, message: 'field not declared in schema' });
    }
  };
  walk(schema, obj, '', true, false);
  return found;
}

// structured-merge-diff's deduced type: a map whose values are deduced too, with atomic lists.
const deduced: PatchMeta = (() => {
  const meta: { values?: PatchMeta } = {};
  meta.values = meta;
  return meta;
})();

/**
 * SSA and merge metadata from the schema's x-kubernetes-* extensions. An undeclared key the converter
 * deduces is a map element (its own member of field sets, as upstream records it in managedFields).
 */
export function schemaPatchMeta(s: JSONSchemaProps, objectMeta: PatchMeta | undefined, root = true, inherited = false): PatchMeta {
  const preserve = inherited || preserves(s);
  const out: { -readonly [K in keyof PatchMeta]: PatchMeta[K] } = {};
  if (s['x-kubernetes-list-type']) out.listType = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-list-map-keys']) out.listMapKeys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-map-type']) out.mapType = s['x-kubernetes-map-type'];
  const fields: Record<string, PatchMeta> = {};
  for (const [k, v] of Object.entries(s.properties ?? {})) fields[k] = schemaPatchMeta(v, objectMeta, false, preserve);
  const resource = root || isEmbedded(s);
  if (resource) {
    fields.apiVersion ??= {};
    fields.kind ??= {};
    if (objectMeta) fields.metadata = objectMeta;
  }
  // Without a prototype: the fields are looked up by the keys of request bodies.
  if (Object.keys(fields).length > 0) out.fields = lookupTable(fields);
  if (s.items) out.items = schemaPatchMeta(s.items, objectMeta, false, preserve);
  if (isObject(s.additionalProperties)) out.values = schemaPatchMeta(s.additionalProperties as JSONSchemaProps, objectMeta, false, preserve);
  else if (isFreeForm(s, preserve, resource)) out.values = deduced;
  return out;
}
