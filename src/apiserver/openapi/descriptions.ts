// The component schemas' descriptions, kept apart from the structure that validation and patches read.
// They are two thirds of the schemas' text and only the served documents carry them, so the
// executable's startup snapshot holds the structure alone and a document's first build reads these.
import type { OpenApiSchema, SchemaMap } from './schema.ts';

/** The generated file of descriptions, in generated/ beside the schemas' module. */
export const descriptionsFileName = 'openapi-descriptions.json';

/** A schema's descriptions, in the shape of the schema: only the places that have one, and the way to them. */
export interface SchemaDescriptions {
  description?: string;
  properties?: Record<string, SchemaDescriptions>;
  items?: SchemaDescriptions;
  additionalProperties?: SchemaDescriptions;
  allOf?: (SchemaDescriptions | null)[];
  oneOf?: (SchemaDescriptions | null)[];
}

export type DescriptionMap = Readonly<Record<string, SchemaDescriptions>>;

export interface SplitSchemas {
  structural: Record<string, OpenApiSchema>;
  descriptions: Record<string, SchemaDescriptions>;
}

type Split = { schema: OpenApiSchema; descriptions: SchemaDescriptions | undefined };

/** Takes every schema-level `description` out of `schemas` (a field named `description` stays a field). */
export function splitDescriptions(schemas: SchemaMap): SplitSchemas {
  const structural: Record<string, OpenApiSchema> = {};
  const descriptions: Record<string, SchemaDescriptions> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const split = splitSchema(schema);
    structural[name] = split.schema;
    if (split.descriptions) descriptions[name] = split.descriptions;
  }
  return { structural, descriptions };
}

function splitSchema(schema: OpenApiSchema): Split {
  const { description, ...rest } = schema;
  const out: OpenApiSchema = rest;
  const found: SchemaDescriptions = description === undefined ? {} : { description };
  if (schema.properties) {
    const properties: Record<string, OpenApiSchema> = {};
    const notes: Record<string, SchemaDescriptions> = {};
    for (const [field, sub] of Object.entries(schema.properties)) {
      const split = splitSchema(sub);
      properties[field] = split.schema;
      if (split.descriptions) notes[field] = split.descriptions;
    }
    out.properties = properties;
    if (Object.keys(notes).length > 0) found.properties = notes;
  }
  for (const key of ['items', 'additionalProperties'] as const) {
    const sub = schema[key];
    if (!sub) continue;
    const split = splitSchema(sub);
    out[key] = split.schema;
    if (split.descriptions) found[key] = split.descriptions;
  }
  for (const key of ['allOf', 'oneOf'] as const) {
    const subs = schema[key];
    if (!subs) continue;
    const splits = subs.map(splitSchema);
    out[key] = splits.map((s) => s.schema);
    if (splits.some((s) => s.descriptions)) found[key] = splits.map((s) => s.descriptions ?? null);
  }
  return { schema: out, descriptions: Object.keys(found).length > 0 ? found : undefined };
}

/** The schemas with their descriptions back; a schema's keys in upstream's (alphabetical) order where one was added. */
export function withDescriptions(schemas: SchemaMap, descriptions: DescriptionMap): Record<string, OpenApiSchema> {
  const out: Record<string, OpenApiSchema> = {};
  for (const [name, schema] of Object.entries(schemas)) out[name] = describe(schema, descriptions[name]);
  return out;
}

function describe(schema: OpenApiSchema, notes: SchemaDescriptions | undefined): OpenApiSchema {
  if (!notes) return schema;
  const out: OpenApiSchema = { ...schema };
  if (notes.description !== undefined) out.description = notes.description;
  const properties = notes.properties;
  if (properties && schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([field, sub]) => [field, describe(sub, properties[field])]));
  }
  if (notes.items && schema.items) out.items = describe(schema.items, notes.items);
  if (notes.additionalProperties && schema.additionalProperties) out.additionalProperties = describe(schema.additionalProperties, notes.additionalProperties);
  for (const key of ['allOf', 'oneOf'] as const) {
    const subs = notes[key];
    if (subs && schema[key]) out[key] = schema[key].map((sub, i) => describe(sub, subs[i] ?? undefined));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as OpenApiSchema;
}
