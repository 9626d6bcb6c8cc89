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

/**
 * Undeclared field paths (`spec.foo`, `spec.items[0].bar`) in document order. The root's apiVersion,
 * kind and metadata, and an embedded resource's, are declared (metadata is checked as ObjectMeta elsewhere).
 */
export function undeclaredForApply(obj: Json, schema: JSONSchemaProps): string[] {
  const found: string[] = [];
  const walk = (s: JSONSchemaProps, value: unknown, path: string, root: boolean, inherited: boolean): void => {
    const preserve = inherited || preserves(s);
    if (Array.isArray(value)) {
      if (s.items) value.forEach((v, i) => walk(s.items as JSONSchemaProps, v, `${path}[${i}]`, false, preserve));
      return;
    }
    if (!isObject(value)) return;
    const resource = root || isEmbedded(s);
    for (const key of Object.keys(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      const sub = ownValue(s.properties, key) ?? (isObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined);
      if (sub) walk(sub, value[key], at, false, preserve);
      else if (!(resource && typeMetaFields.has(key)) && !isFreeForm(s, preserve, resource)) found.push(at);
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
