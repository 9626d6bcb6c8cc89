// Builds the /openapi/v3 root and one OpenAPI 3.0 document per served group-version, plus a swagger 2.0
// rendering for /openapi/v2 in JSON and in the protobuf kubectl asks for. Documents are built and serialized once, on first request; the hash is
// sha512 of the serialized body in upper-case hex, as kube-openapi's handler3 computes it. A group-version's
// document outlives a change elsewhere (a CRD added in another group), as upstream updates one group-version.
// Upstream: k8s.io/kube-openapi/pkg/handler3/handler.go, apiserver/pkg/server/routes/openapi.go.
import type { ResourceDefinition } from '../../api/index.ts';
import { definitionNameFor, documentedSchemas } from './definitions.ts';
import { resourcePaths, type KindSchemas, type PathItem } from './paths.ts';
import { closure, type OpenApiSchema, type SchemaMap } from './schema.ts';
import { toSwagger2 } from './swagger2.ts';
import { swagger2Protobuf } from './swagger2-protobuf.ts';
import { contentHash } from '../conditional-get.ts';

export interface GroupVersionDocument {
  /** The serialized document as UTF-8, written as is: a string this size would be copied into fresh memory at every write. */
  readonly body: Buffer;
  /** Quoted entity tag for the ETag header: `"<HASH>"`. */
  readonly etag: string;
  /** The bare hash used in `?hash=` of the root's serverRelativeURL. */
  readonly hash: string;
}

export interface OpenApiDocuments {
  /** GET /openapi/v3: `{paths: {"api/v1": {serverRelativeURL: "/openapi/v3/api/v1?hash=…"}}}`. */
  root(): { paths: Record<string, { serverRelativeURL: string }> };
  /** GET /openapi/v3/<path>, with path `api/v1` or `apis/<group>/<version>`; undefined when not served. */
  groupVersion(path: string): GroupVersionDocument | undefined;
  /** GET /openapi/v2 as swagger 2.0 JSON, in UTF-8. */
  v2(): Buffer;
  /** GET /openapi/v2 in gnostic's protobuf, as kubectl asks for it: swagger, info and the definitions. */
  v2Protobuf(): Uint8Array;
}

const info = { title: 'Kubernetes', version: 'v1.35.0' };
const securitySchemes = { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } };
// Schemas the operations reference besides the kinds themselves.
const operationSchemas = [
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList',
];

const gvPath = (group: string, version: string): string => (group === '' ? `api/${version}` : `apis/${group}/${version}`);

/**
 * Group-version documents built by earlier builds, by path, with the definitions they were built from.
 * A custom resource's definition is a new object whenever its CRD changes, so the same objects mean the same document.
 */
export type GroupVersionDocumentCache = Map<string, { defs: readonly ResourceDefinition[]; doc: GroupVersionDocument }>;

const sameDefinitions = (a: readonly ResourceDefinition[], b: readonly ResourceDefinition[]): boolean =>
  a.length === b.length && a.every((def, i) => def === b[i]);

/** The component schema of a kind with no shipped schema (a custom resource), by its upstream name; `v2` asks for the swagger 2.0 variant. */
export type CustomSchemaSource = (def: ResourceDefinition, v2?: boolean) => { name: string; schema: OpenApiSchema } | undefined;

export function buildOpenApi(definitions: readonly ResourceDefinition[], custom?: CustomSchemaSource, built: GroupVersionDocumentCache = new Map()): OpenApiDocuments {
  const byGroupVersion = new Map<string, ResourceDefinition[]>();
  for (const def of definitions) {
    const key = gvPath(def.group, def.version);
    const defs = byGroupVersion.get(key);
    if (defs) defs.push(def);
    else byGroupVersion.set(key, [def]);
  }
  for (const path of built.keys()) if (!byGroupVersion.has(path)) built.delete(path);
  let rootCache: ReturnType<OpenApiDocuments['root']> | undefined;
  let swagger2: ReturnType<typeof toSwagger2> | undefined;
  let v2Cache: Buffer | undefined;
  let v2ProtobufCache: Uint8Array | undefined;
  const customV2: CustomSchemaSource | undefined = custom && ((def) => custom(def, true));
  const v2Document = (): ReturnType<typeof toSwagger2> => (swagger2 ??= toSwagger2(openApiV3(definitions, documentedSchemas(), customV2)));

  const document = (path: string): GroupVersionDocument | undefined => {
    const defs = byGroupVersion.get(path);
    if (!defs) return undefined;
    const cached = built.get(path);
    if (cached && sameDefinitions(cached.defs, defs)) return cached.doc;
    const body = Buffer.from(JSON.stringify(openApiV3(defs, documentedSchemas(), custom)));
    const hash = contentHash(body);
    const doc = { body, hash, etag: `"${hash}"` };
    built.set(path, { defs, doc });
    return doc;
  };

  return {
    root() {
      rootCache ??= {
        paths: Object.fromEntries(
          [...byGroupVersion.keys()].sort().map((p) => [p, { serverRelativeURL: `/openapi/v3/${p}?hash=${document(p)!.hash}` }]),
        ),
      };
      return rootCache;
    },
    groupVersion: document,
    v2() {
      v2Cache ??= Buffer.from(JSON.stringify(v2Document()));
      return v2Cache;
    },
    v2Protobuf() {
      v2ProtobufCache ??= swagger2Protobuf(v2Document());
      return v2ProtobufCache;
    },
  };
}

export interface OpenApiV3Document {
  openapi: string;
  info: typeof info;
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, OpenApiSchema>; securitySchemes: typeof securitySchemes };
}

/** One OpenAPI v3 document covering `defs`: their paths and every schema those reach. */
export function openApiV3(defs: readonly ResourceDefinition[], shipped: SchemaMap, custom?: CustomSchemaSource): OpenApiV3Document {
  const paths: Record<string, PathItem> = {};
  const roots = new Set(operationSchemas);
  let schemas = shipped;
  const customNames = new Map<ResourceDefinition, string>();
  for (const def of defs) {
    const c = definitionNameFor(def.group, def.version, def.kind) ? undefined : custom?.(def);
    if (!c) continue;
    if (schemas === shipped) schemas = { ...shipped };
    (schemas as Record<string, OpenApiSchema>)[c.name] = c.schema;
    customNames.set(def, c.name);
  }
  for (const def of defs) {
    const names = kindSchemas(def, customNames.get(def));
    for (const n of [names.kind, names.list, ...Object.values(names.subresources)]) if (n) roots.add(n);
    Object.assign(paths, resourcePaths(def, names));
  }
  const reachable = [...closure(schemas, roots)].filter((n) => schemas[n]).sort();
  const componentSchemas: Record<string, OpenApiSchema> = {};
  for (const name of reachable) componentSchemas[name] = schemas[name]!;
  // A kind without a shipped schema still gets one, so explain and validation find its GVK.
  for (const def of defs) {
    if (definitionNameFor(def.group, def.version, def.kind) || customNames.has(def)) continue;
    componentSchemas[fallbackName(def)] = {
      description: `${def.kind} is served by Drydock without a published schema.`,
      type: 'object',
      'x-kubernetes-group-version-kind': [{ group: def.group, kind: def.kind, version: def.version }],
      'x-kubernetes-preserve-unknown-fields': true,
    };
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { openapi: '3.0.0', info, paths: sortedPaths, components: { schemas: componentSchemas, securitySchemes } };
}

const fallbackName = (def: ResourceDefinition): string => `dev.drydock.${def.group || 'core'}.${def.version}.${def.kind}`;

function kindSchemas(def: ResourceDefinition, customName: string | undefined): KindSchemas {
  const kind = definitionNameFor(def.group, def.version, def.kind) ?? customName ?? fallbackName(def);
  const list = definitionNameFor(def.group, def.version, `${def.kind}List`);
  const subresources: Record<string, string | undefined> = {};
  for (const sub of def.subresources ?? []) {
    subresources[sub.name] = sub.kind ? definitionNameFor(sub.group ?? def.group, sub.version ?? def.version, sub.kind) : kind;
  }
  return { kind, ...(list ? { list } : {}), subresources, ...(customName ? { custom: true } : {}) };
}
