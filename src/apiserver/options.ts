// Query-parameter parsing for API requests, as the API server's parameter codec decodes them.
// Upstream: apimachinery/pkg/apis/meta/v1 (ListOptions, DeleteOptions, CreateOptions).
import type { FieldError } from '../core/index.ts';
import { badRequest, forbiddenField, invalid, notSupported, queryBool } from '../core/index.ts';

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
  if (errors.length > 0) throw invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errors);
}
