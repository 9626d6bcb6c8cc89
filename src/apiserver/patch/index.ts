// Public surface of the patch engines: pure functions from (object, patch) to a result.
// How the handler answers each failure kind is documented on the result types.
export { applyStrategicMergePatch } from './strategic-merge.ts';
export type { SmpErrorKind, StrategicMergeResult } from './strategic-merge.ts';
export { applyMergePatch } from './merge-patch.ts';
export { applyJsonPatch, maxJSONPatchOperations } from './json-patch.ts';
export type { JsonPatchResult } from './json-patch.ts';
export { applyServerSide, beforeFirstApplyManager } from './apply.ts';
export type { ApplyConflict, ApplyOptions, ApplyResult } from './apply.ts';
export { updateManagedFields, updatedManagedFields } from './managed-fields.ts';
export type { FieldManagerOptions } from './managed-fields.ts';
export { jsonEqual } from './json-value.ts';
export type { JsonObject, JsonValue } from './json-value.ts';
