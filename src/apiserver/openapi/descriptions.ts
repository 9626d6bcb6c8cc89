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

// The structure's keys in upstream's alphabetical order, so that putting a description back in its
// place (describe) gives upstream's order without sorting every described schema again at run time.
function splitSchema(schema: OpenApiSchema): Split {
  const out: Record<string, unknown> = {};
  const found: SchemaDescriptions = {};
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key as keyof OpenApiSchema];
    if (key === 'description' && typeof value === 'string') found.description = value;
    else if (key === 'properties' && schema.properties) {
      const properties: Record<string, OpenApiSchema> = {};
      const notes: Record<string, SchemaDescriptions> = {};
      for (const [field, sub] of Object.entries(schema.properties)) {
        const split = splitSchema(sub);
        properties[field] = split.schema;
        if (split.descriptions) notes[field] = split.descriptions;
      }
      out[key] = properties;
      if (Object.keys(notes).length > 0) found.properties = notes;
    } else if ((key === 'items' || key === 'additionalProperties') && typeof value === 'object' && value !== null) {
      const split = splitSchema(value as OpenApiSchema);
      out[key] = split.schema;
      if (split.descriptions) found[key] = split.descriptions;
    } else if ((key === 'allOf' || key === 'oneOf') && Array.isArray(value)) {
      const splits = (value as OpenApiSchema[]).map(splitSchema);
      out[key] = splits.map((sub) => sub.schema);
      if (splits.some((sub) => sub.descriptions)) found[key] = splits.map((sub) => sub.descriptions ?? null);
    } else out[key] = value;
  }
  return { schema: out as OpenApiSchema, descriptions: Object.keys(found).length > 0 ? found : undefined };
}

/** The schemas with their descriptions back, each in its alphabetical place among the keys, as upstream orders them. */
export function withDescriptions(schemas: SchemaMap, descriptions: DescriptionMap): Record<string, OpenApiSchema> {
  const out: Record<string, OpenApiSchema> = {};
  for (const name in schemas) out[name] = describe(schemas[name] as OpenApiSchema, descriptions[name]);
  return out;
}

function describe(schema: OpenApiSchema, notes: SchemaDescriptions | undefined): OpenApiSchema {
  if (!notes) return schema;
  const out: Record<string, unknown> = {};
  let description = notes.description;
  for (const key in schema) {
    if (description !== undefined && key > 'description') {
      out['description'] = description;
      description = undefined;
    }
    out[key] = describeValue(schema, key, notes);
  }
  if (description !== undefined) out['description'] = description;
  return out as OpenApiSchema;
}

function describeValue(schema: OpenApiSchema, key: string, notes: SchemaDescriptions): unknown {
  switch (key) {
    case 'properties': {
      const properties = schema.properties;
      const fields = notes.properties;
      if (!properties || !fields) return properties;
      const out: Record<string, OpenApiSchema> = {};
      for (const field in properties) out[field] = describe(properties[field] as OpenApiSchema, fields[field]);
      return out;
    }
    case 'items':
    case 'additionalProperties':
      return schema[key] && describe(schema[key], notes[key]);
    case 'allOf':
    case 'oneOf': {
      const subs = notes[key];
      return subs ? schema[key]?.map((sub, i) => describe(sub, subs[i] ?? undefined)) : schema[key];
    }
    default:
      return schema[key as keyof OpenApiSchema];
  }
}
