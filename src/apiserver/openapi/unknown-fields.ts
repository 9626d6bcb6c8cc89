// Finds the fields of an object that its kind's schema does not declare, for fieldValidation=Strict/Warn.
// Paths are written as upstream reports them: `spec.containers[0].imagePullPolicyy`, `metadata.labelz`.
// Upstream: apimachinery/pkg/util/managedfields and kube-openapi's structural pruning (unknown field paths).
import { allSchemas, schemaFor } from './definitions.ts';
import { resolve, type OpenApiSchema, type SchemaMap } from './schema.ts';
import { ownValue } from '../../core/index.ts';

export function unknownFields(obj: unknown, group: string, version: string, kind: string): string[] {
  const schema = schemaFor(group, version, kind);
  if (!schema) return [];
  const found: string[] = [];
  walk(allSchemas(), schema, obj, '', found);
  return found;
}

function walk(schemas: SchemaMap, schema: OpenApiSchema, value: unknown, path: string, found: string[]): void {
  const s = resolve(schemas, schema);
  if (!s || s['x-kubernetes-preserve-unknown-fields'] || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (s.items) value.forEach((v, i) => walk(schemas, s.items!, v, `${path}[${i}]`, found));
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (s.properties) {
    for (const [key, v] of entries) {
      const sub = ownValue(s.properties, key);
      const at = path === '' ? key : `${path}.${key}`;
      if (sub) walk(schemas, sub, v, at, found);
      else found.push(at);
    }
  } else if (s.additionalProperties) {
    for (const [key, v] of entries) walk(schemas, s.additionalProperties, v, `${path}.${key}`, found);
  }
  // An object schema with neither (RawExtension, FieldsV1) is opaque: anything goes.
}
