// Renders an OpenAPI v3 document as swagger 2.0 for /openapi/v2 JSON clients: `#/definitions/` references
// written as plain `$ref` beside their description, oneOf scalars as strings, bodies as `in: body` parameters.
// Upstream: api/openapi-spec/swagger.json (the same definitions in v2 form).
import type { OpenApiV3Document } from './documents.ts';
import type { Operation, Parameter, PathItem } from './paths.ts';
import type { OpenApiSchema } from './schema.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function toSwagger2(doc: OpenApiV3Document): Record<string, Json> {
  const definitions: Record<string, Json> = {};
  for (const [name, s] of Object.entries(doc.components.schemas)) definitions[name] = schemaV2(s);
  const paths: Record<string, Json> = {};
  for (const [path, item] of Object.entries(doc.paths)) paths[path] = pathItemV2(item);
  return {
    swagger: '2.0',
    info: doc.info,
    paths,
    definitions,
    securityDefinitions: doc.components.securitySchemes,
    security: [{ BearerToken: [] }],
  } as Record<string, Json>;
}

function schemaV2(s: OpenApiSchema): Json {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(s) as [keyof OpenApiSchema, unknown][]) {
    if (value === undefined) continue;
    if (key === '$ref') out.$ref = (value as string).replace('#/components/schemas/', '#/definitions/');
    else if (key === 'allOf' && s.allOf?.length === 1 && s.allOf[0]?.$ref) out.$ref = s.allOf[0].$ref.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'oneOf') out.type = 'string';
    else if (key === 'properties') out.properties = Object.fromEntries(Object.entries(s.properties!).map(([k, v]) => [k, schemaV2(v)]));
    else if (key === 'items' || key === 'additionalProperties') out[key] = schemaV2(value as OpenApiSchema);
    else if (key === 'allOf') out.allOf = s.allOf!.map(schemaV2);
    else out[key] = value as Json;
  }
  // Swagger 2.0 forbids siblings of $ref in theory; upstream keeps description beside it all the same.
  if (out.$ref !== undefined) delete out.default;
  return out;
}

function parameterV2(p: Parameter): Json {
  const { schema, ...rest } = p;
  return { ...rest, type: schema.type ?? 'string', ...(schema.uniqueItems ? { uniqueItems: true } : {}) } as Json;
}

function operationV2(op: Operation): Json {
  const parameters: Json[] = (op.parameters ?? []).map(parameterV2);
  const body = op.requestBody;
  if (body) {
    const first = Object.values(body.content)[0];
    parameters.unshift({ in: 'body', name: 'body', required: true, schema: first ? schemaV2(first.schema) : {} });
  }
  const responses: Record<string, Json> = {};
  for (const [code, r] of Object.entries(op.responses)) {
    const first = r.content ? Object.values(r.content)[0] : undefined;
    responses[code] = { description: r.description, ...(first ? { schema: schemaV2(first.schema) } : {}) };
  }
  return {
    consumes: body ? Object.keys(body.content) : ['*/*'],
    description: op.description,
    operationId: op.operationId,
    ...(parameters.length > 0 ? { parameters } : {}),
    produces: Object.keys(op.responses['200']?.content ?? {}).length > 0 ? Object.keys(op.responses['200']!.content!) : ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
    responses,
    schemes: ['https'],
    tags: op.tags,
    'x-kubernetes-action': op['x-kubernetes-action'],
    'x-kubernetes-group-version-kind': { ...op['x-kubernetes-group-version-kind'] },
  };
}

function pathItemV2(item: PathItem): Json {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === 'parameters') out.parameters = (value as Parameter[]).map(parameterV2);
    else out[key] = operationV2(value as Operation);
  }
  return out;
}
