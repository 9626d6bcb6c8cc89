// Public surface of the OpenAPI folder: the served documents, per-kind schemas, patch metadata and
// unknown-field detection, all derived from the same generated upstream definitions.
export { buildOpenApi, type CustomSchemaSource, type OpenApiDocuments, type GroupVersionDocument, type GroupVersionDocumentCache } from './documents.ts';
export { allSchemas, schemaFor, definitionNameFor } from './definitions.ts';
export { patchMetaFor } from './patch-meta.ts';
export { unknownFields } from './unknown-fields.ts';
export type { OpenApiSchema, GroupVersionKind } from './schema.ts';
export { checkDecoded, checkObjectMeta, typedMismatch, type DecodeCheck, type Expected } from './decode-check.ts';
