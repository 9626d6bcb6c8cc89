// Query-parameter parsing for API requests, as the API server's parameter codec decodes them, and the
// options' validation the handlers run before they read anything.
// Upstream: apimachinery/pkg/apis/meta/v1 (ListOptions, DeleteOptions, CreateOptions),
// apimachinery/pkg/apis/meta/v1/validation and meta/internalversion/validation.
import type { FieldError } from '../core/index.ts';
import { GoSyntax, badRequest, forbiddenField, invalid, invalidValue, notSupported, queryBool, required } from '../core/index.ts';
import { fieldManagerErrors } from './field-manager.ts';

export function parseInteger(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^[-+]?\d+$/.test(raw)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  // An int64, as ParseInt(raw, 10, 64) reads it.
  const value = BigInt(raw);
  if (value > 9223372036854775807n || value < -9223372036854775808n) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
  return Number(value);
}

export interface ListQuery {
  labelSelector: string;
  fieldSelector: string;
  limit: number;
  continue: string;
  resourceVersion: string;
  resourceVersionMatch: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  timeoutSeconds: number | undefined;
}

export function parseListQuery(query: URLSearchParams): ListQuery {
  return {
    labelSelector: query.get('labelSelector') ?? '',
    fieldSelector: query.get('fieldSelector') ?? '',
    limit: Math.max(0, parseInteger(query, 'limit') ?? 0),
    continue: query.get('continue') ?? '',
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: query.get('resourceVersionMatch') ?? '',
    watch: queryBool(query, 'watch') ?? false,
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks') ?? false,
    sendInitialEvents: queryBool(query, 'sendInitialEvents'),
    timeoutSeconds: parseInteger(query, 'timeoutSeconds'),
  };
}

export interface WriteQuery {
  dryRun: boolean;
  /** Every dryRun value as sent: the options' validation refuses any but All. */
  dryRunValues: string[];
  fieldManager: string;
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  /** The fieldValidation parameter as sent, '' when absent (the server defaults it to Warn). */
  sentFieldValidation: string;
  /** Undefined when absent: only apply patches may set it. */
  force: boolean | undefined;
}

export function parseWriteQuery(query: URLSearchParams): WriteQuery {
  const dryRunValues = query.getAll('dryRun');
  const fieldValidation = query.get('fieldValidation') ?? '';
  return {
    dryRun: dryRunValues.length > 0,
    dryRunValues,
    fieldManager: query.get('fieldManager') ?? '',
    // A value other than these is refused by the options' validation before it is read.
    fieldValidation: fieldValidation === 'Strict' || fieldValidation === 'Ignore' ? fieldValidation : 'Warn',
    sentFieldValidation: fieldValidation,
    force: queryBool(query, 'force'),
  };
}

/**
 * The list handler's ListOptions validation (internalversion/validation ValidateListOptions, WatchList on):
 * a 422 for ListOptions.meta.k8s.io, before storage reads anything.
 */
export function validateListOptions(options: { watch: boolean; resourceVersion?: string; resourceVersionMatch?: string; continue?: string; sendInitialEvents?: boolean | undefined }): void {
  const match = options.resourceVersionMatch ?? '';
  const errors: FieldError[] = [];
  if (options.watch) {
    if (options.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      errors.push(forbiddenField('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (match !== '') {
      if (options.sendInitialEvents === undefined) errors.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      if (match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
      if (options.continue) errors.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match !== '') {
      if (!options.resourceVersion) errors.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (options.continue) errors.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
      if (match === 'Exact' && options.resourceVersion === '0') errors.push(forbiddenField('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
    if (options.sendInitialEvents !== undefined) errors.push(forbiddenField('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errors.length > 0) throw optionsInvalid('ListOptions', errors);
}

/** A write's options as the request sent them: dryRun's values, fieldValidation ('' when absent). */
export interface SentWriteOptions {
  fieldManager?: string | undefined;
  dryRunValues?: readonly string[] | undefined;
  sentFieldValidation?: string | undefined;
}

/** ValidatePatchOptions: an apply names its manager; force belongs to apply alone; then as a create's. */
export function validatePatchOptions(apply: boolean, force: boolean | undefined, sent: SentWriteOptions): void {
  const errors: FieldError[] = [];
  if (!apply && force !== undefined) errors.push(forbiddenField('force', 'may not be specified for non-apply patch'));
  if (apply && !sent.fieldManager) errors.push(required('fieldManager', 'is required for apply patch'));
  errors.push(...writeOptionsErrors(sent));
  if (errors.length > 0) throw optionsInvalid('PatchOptions', errors);
}

/** ValidateCreateOptions and ValidateUpdateOptions: the manager's name, dryRun and fieldValidation. */
export function validateWriteOptions(kind: 'CreateOptions' | 'UpdateOptions', sent: SentWriteOptions): void {
  const errors = writeOptionsErrors(sent);
  if (errors.length > 0) throw optionsInvalid(kind, errors);
}

/** ValidateDeleteOptions, which the delete handler runs before it reads anything. */
export function validateDeleteOptions(options: { propagationPolicy?: string | undefined; orphanDependents?: boolean | undefined; dryRunValues?: readonly string[] | undefined }): void {
  const errors: FieldError[] = [];
  const policy = options.propagationPolicy;
  if (options.orphanDependents !== undefined && policy !== undefined) errors.push(invalidValue('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  if (policy !== undefined && policy !== 'Foreground' && policy !== 'Background' && policy !== 'Orphan') {
    errors.push(notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  errors.push(...dryRunErrors(options.dryRunValues));
  if (errors.length > 0) throw optionsInvalid('DeleteOptions', errors);
}

function writeOptionsErrors(sent: SentWriteOptions): FieldError[] {
  const errors = [...fieldManagerErrors(sent.fieldManager ?? ''), ...dryRunErrors(sent.dryRunValues)];
  const validation = sent.sentFieldValidation ?? '';
  if (!['', 'Ignore', 'Strict', 'Warn'].includes(validation)) errors.push(notSupported('fieldValidation', validation, ['', 'Ignore', 'Strict', 'Warn']));
  return errors;
}

/** ValidateDryRun: every value is "All"; the bad value prints as Go prints a []string. */
function dryRunErrors(values: readonly string[] | undefined): FieldError[] {
  if (values === undefined || values.every((v) => v === 'All')) return [];
  return [notSupported('dryRun', new GoSyntax(`[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`), ['All'])];
}

/** NewInvalid on a meta.k8s.io options kind, which has no name. */
function optionsInvalid(kind: string, errors: readonly FieldError[]): Error {
  return invalid({ group: 'meta.k8s.io', kind }, '', errors);
}
