// Public surface of apiserver/: the request pipeline, its HTTP edge and the in-process client.
export { ApiServer } from './server.ts';
export { EventTtl, defaultEventTtlMs } from './event-ttl.ts';
export { createServiceAccountKey } from './service-account-tokens.ts';
export type { ApiServerOptions, ServerVersion, ObjectResult } from './server.ts';
export { createHttpHandler, sendError } from './http.ts';
export type { HttpHandlerOptions, OpenApiSource, ExtraRoute } from './http.ts';
export { contentHash } from './conditional-get.ts';
export type { ServedDocument } from './conditional-get.ts';
export { createLocalClient } from './local-client.ts';
export { builtinAdmissionPlugins, checkNamespaceDeletion, withoutPlugins } from './admission-plugins.ts';
export type { AdmissionPlugin, AdmissionAttributes } from './admission.ts';
export { allSchemas, buildOpenApi, checkDecoded, patchMetaFor, schemaFor, unknownFields } from './openapi/index.ts';
export type { GroupVersionDocument, GroupVersionDocumentCache, OpenApiDocuments, OpenApiSchema } from './openapi/index.ts';
export { CustomResources } from './crd/controller.ts';
export type { CustomResourceDefinition } from './crd/types.ts';
export { ApiMetrics, instrumentStore } from './metrics.ts';
export type { DelegatedResource } from './delegated.ts';
