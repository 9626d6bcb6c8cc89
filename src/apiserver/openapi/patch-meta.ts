// Derives the PatchMeta tree that strategic merge patch and server-side apply consult from a kind's
// schema extensions. Trees are cached per definition and share nodes, so recursive types (JSONSchemaProps)
// become cyclic object graphs rather than infinite ones: walk them along the data, never exhaustively.
// Upstream: apimachinery/pkg/util/strategicpatch/meta.go (PatchMetaFromOpenAPIV3), structured-merge-diff schema.
import type { PatchMeta } from '../../api/index.ts';
import { lookupTable, setOwn } from '../../core/index.ts';
import { allSchemas, definitionNameFor } from './definitions.ts';
import { refName, type OpenApiSchema, type SchemaMap } from './schema.ts';

type MutablePatchMeta = { -readonly [K in keyof PatchMeta]: PatchMeta[K] };

const cache = new Map<string, MutablePatchMeta>();

export function patchMetaFor(group: string, version: string, kind: string): PatchMeta | undefined {
  const name = definitionNameFor(group, version, kind);
  return name === undefined ? undefined : metaOfDefinition(allSchemas(), name);
}

function metaOfDefinition(schemas: SchemaMap, name: string): MutablePatchMeta {
  const cached = cache.get(name);
  if (cached) return cached;
  const node: MutablePatchMeta = {};
  // Registered before the walk so a type that contains itself points back at this node.
  cache.set(name, node);
  const schema = schemas[name];
  if (schema) Object.assign(node, metaOfSchema(schemas, schema));
  return node;
}

function metaOfSchema(schemas: SchemaMap, schema: OpenApiSchema): MutablePatchMeta {
  const name = refName(schema);
  const target = name === undefined ? undefined : metaOfDefinition(schemas, name);
  const meta: MutablePatchMeta = {};
  if (schema['x-kubernetes-patch-merge-key']) meta.mergeKey = schema['x-kubernetes-patch-merge-key'];
  if (schema['x-kubernetes-patch-strategy']) meta.strategy = schema['x-kubernetes-patch-strategy'];
  if (schema['x-kubernetes-list-type']) meta.listType = schema['x-kubernetes-list-type'];
  if (schema['x-kubernetes-list-map-keys']) meta.listMapKeys = schema['x-kubernetes-list-map-keys'];
  if (schema['x-kubernetes-map-type']) meta.mapType = schema['x-kubernetes-map-type'];
  if (schema.properties) {
    // Without a prototype: the fields are looked up by the keys of request bodies.
    const fields = lookupTable<PatchMeta>({});
    for (const [field, sub] of Object.entries(schema.properties)) setOwn(fields, field, metaOfSchema(schemas, sub));
    meta.fields = fields;
  }
  if (schema.items) meta.items = metaOfSchema(schemas, schema.items);
  if (schema.additionalProperties) meta.values = metaOfSchema(schemas, schema.additionalProperties);
  if (!target) return meta;
  // A reference with no local extensions is the referenced node itself (keeps cycles finite).
  if (Object.keys(meta).length === 0) return target;
  return { ...target, ...meta };
}
