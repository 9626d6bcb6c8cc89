// The schema a CRD version publishes in /openapi/v3 and /openapi/v2: its openAPIV3Schema with the type meta
// and ObjectMeta added at the root and at every x-kubernetes-embedded-resource, so `kubectl explain` lists
// them and clients that type against the published schema (server-side apply's converter) accept them.
// The swagger 2.0 rendering leaves out what kubectl would take as a closed set of fields: a root or embedded
// resource that preserves unknown fields gets none of them.
// Upstream: apiextensions-apiserver pkg/controller/openapi/builder/builder.go (buildKubeNative,
// addEmbeddedProperties, addTypeMetaProperties).
import type { OpenApiSchema } from '../openapi/index.ts';
import type { JSONSchemaProps } from './types.ts';

const objectMetaRef = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

// swaggerPartialObjectMetadataDescriptions["metadata"].
const metadataDescription = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

// TypeMeta's own descriptions, as the root gets them.
const rootTypeMeta: Record<'apiVersion' | 'kind', OpenApiSchema> = {
  apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources' },
  kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' },
};

// addEmbeddedProperties overrides TypeMeta's descriptions for an embedded resource.
const embeddedTypeMeta: Record<'apiVersion' | 'kind', OpenApiSchema> = {
  apiVersion: { type: 'string', description: 'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources' },
  kind: { type: 'string', description: 'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' },
};

const metadataProperty = (): OpenApiSchema => ({ allOf: [{ $ref: objectMetaRef }], description: metadataDescription });

type Mutable = OpenApiSchema & { properties?: Record<string, OpenApiSchema>; required?: string[]; [extension: string]: unknown };

const preservesUnknown = (s: Mutable): boolean => s['x-kubernetes-preserve-unknown-fields'] === true;

/** addEmbeddedProperties: children first, then the node when it is an embedded resource. */
function addEmbeddedProperties(s: Mutable | undefined, v2: boolean): void {
  if (!s) return;
  for (const p of Object.values(s.properties ?? {})) addEmbeddedProperties(p as Mutable, v2);
  addEmbeddedProperties(s.items as Mutable | undefined, v2);
  if (typeof s.additionalProperties === 'object') addEmbeddedProperties(s.additionalProperties as Mutable, v2);
  if (v2 && preservesUnknown(s)) return;
  if (s['x-kubernetes-embedded-resource'] !== true) return;
  s.properties = { ...s.properties, ...structuredClone(embeddedTypeMeta), metadata: metadataProperty() };
  const required = s.required ?? [];
  s.required = [...required, ...(['kind', 'apiVersion'] as const).filter((k) => !required.includes(k))];
}

/** The published schema of a custom resource of `gvk`, for OpenAPI v3 or (with `v2`) swagger 2.0. */
export function publishedSchema(schema: JSONSchemaProps, gvk: { group: string; version: string; kind: string }, v2 = false): OpenApiSchema {
  const extension = { 'x-kubernetes-group-version-kind': [{ group: gvk.group, kind: gvk.kind, version: gvk.version }] };
  // kubectl's v2 validation would refuse any field but those listed; a preserving root lists none.
  if (v2 && schema['x-kubernetes-preserve-unknown-fields'] === true) return { type: 'object', ...extension };
  const out = structuredClone(schema) as Mutable;
  out.properties = { ...out.properties, metadata: metadataProperty(), ...structuredClone(rootTypeMeta) };
  addEmbeddedProperties(out, v2);
  return { ...out, ...extension };
}
