// The OpenAPI 3.0 schema subset Kubernetes publishes, with its x-kubernetes-* extensions,
// and the helpers that follow `{"allOf":[{"$ref":…}]}` references the way upstream writes them.
// Upstream: k8s.io/kube-openapi/pkg/validation/spec (Schema) and pkg/util/proto.

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface OpenApiSchema {
  description?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  additionalProperties?: OpenApiSchema;
  allOf?: OpenApiSchema[];
  oneOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  $ref?: string;
  default?: unknown;
  enum?: unknown[];
  'x-kubernetes-group-version-kind'?: GroupVersionKind[];
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}

export type SchemaMap = Readonly<Record<string, OpenApiSchema>>;

export const refPrefix = '#/components/schemas/';

/** The definition name a schema points at, whether as `$ref` or as upstream's single-element allOf. */
export function refName(schema: OpenApiSchema): string | undefined {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  return ref?.startsWith(refPrefix) ? ref.slice(refPrefix.length) : undefined;
}

/** Follows references until a schema with content; `undefined` for a dangling reference. */
export function resolve(schemas: SchemaMap, schema: OpenApiSchema): OpenApiSchema | undefined {
  let current: OpenApiSchema | undefined = schema;
  for (let hops = 0; current && hops < 8; hops++) {
    const name = refName(current);
    if (name === undefined) return current;
    current = schemas[name];
  }
  return current;
}

/** Every definition name reachable from `roots`, roots included. */
export function closure(schemas: SchemaMap, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  const visit = (s: OpenApiSchema | undefined): void => {
    if (!s) return;
    const name = refName(s);
    if (name !== undefined && !seen.has(name)) stack.push(name);
    for (const p of Object.values(s.properties ?? {})) visit(p);
    for (const a of s.allOf ?? []) visit(a);
    visit(s.items);
    visit(s.additionalProperties);
  };
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    visit(schemas[name]);
  }
  return seen;
}
