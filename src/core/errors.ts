// ApiError: the one error that crosses the API, rendered as a metav1.Status.
// Upstream: apimachinery/pkg/api/errors/errors.go (constructors and their texts).
import type { FieldError } from './field-errors.ts';
import { formatFieldError } from './field-errors.ts';

export const StatusReason = {
  BadRequest: 'BadRequest',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  MethodNotAllowed: 'MethodNotAllowed',
  NotAcceptable: 'NotAcceptable',
  AlreadyExists: 'AlreadyExists',
  Conflict: 'Conflict',
  Gone: 'Gone',
  Expired: 'Expired',
  RequestEntityTooLarge: 'RequestEntityTooLarge',
  UnsupportedMediaType: 'UnsupportedMediaType',
  Invalid: 'Invalid',
  TooManyRequests: 'TooManyRequests',
  InternalError: 'InternalError',
  ServiceUnavailable: 'ServiceUnavailable',
  Timeout: 'Timeout',
  /** StatusReasonUnknown: an error that is no metav1.Status upstream (a registry's plain Go error), a 500 without a reason. */
  Unknown: '',
} as const;
export type StatusReason = (typeof StatusReason)[keyof typeof StatusReason];

const httpCode: Record<StatusReason, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
  '': 500,
};

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  /** ListMeta: only a 410 for a list's continue token carries one (the token to go on inconsistently). */
  metadata: { continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** A qualified resource as errors name it: `pods`, `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export class ApiError extends Error {
  readonly reason: StatusReason;
  readonly code: number;
  readonly details: StatusDetails | undefined;
  /** The Status's ListMeta continue token, when there is one. */
  continueToken: string | undefined;
  constructor(reason: StatusReason, message: string, details?: StatusDetails, code?: number) {
    super(message);
    this.reason = reason;
    this.code = code ?? httpCode[reason];
    this.details = details;
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: this.continueToken === undefined ? {} : { continue: this.continueToken },
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    // Go omits the empty reason.
    if (this.reason === '') delete status.reason;
    if (this.details) status.details = withoutEmptyDetails(this.details);
    return status;
  }
}

/** StatusDetails as Go encodes it: every field is omitempty, so an empty name, group or kind is left out. */
function withoutEmptyDetails(details: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  for (const [key, value] of Object.entries(details) as [keyof StatusDetails, StatusDetails[keyof StatusDetails]][]) {
    if (value === undefined || value === '' || value === 0 || (Array.isArray(value) && value.length === 0)) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export function successStatus(details?: StatusDetails): Status {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) status.details = details;
  return status;
}

export function notFound(gr: GroupResource, name: string): ApiError {
  return new ApiError('NotFound', `${qualified(gr)} "${name}" not found`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return new ApiError('AlreadyExists', `${qualified(gr)} "${name}" already exists`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export function conflict(gr: GroupResource, name: string, why: string): ApiError {
  return new ApiError('Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export const OptimisticLockErrorMsg = 'the object has been modified; please apply your changes to the latest version and try again';

/** A 422 whose message is upstream's aggregate: `Pod "x" is invalid: [a: b, c: d]`. */
export function invalid(groupKind: { group: string; kind: string }, name: string, errors: readonly FieldError[]): ApiError {
  const causes = errors.map((e) => ({ reason: e.type, message: formatFieldError(e, { withField: false }), field: e.field }));
  const listed = errors.map((e) => formatFieldError(e, { withField: true }));
  const aggregate = listed.length === 1 ? listed[0] : `[${listed.join(', ')}]`;
  const what = groupKind.group ? `${groupKind.kind}.${groupKind.group}` : groupKind.kind;
  // A nameless object's (an options kind's) details have no name, as Go's omitempty leaves it out.
  const details: StatusDetails = name ? { name, group: groupKind.group, kind: groupKind.kind, causes } : { group: groupKind.group, kind: groupKind.kind, causes };
  return new ApiError('Invalid', `${what} "${name}" is invalid: ${aggregate}`, details);
}

export function badRequest(message: string): ApiError {
  return new ApiError('BadRequest', message);
}

export function methodNotSupported(gr: GroupResource, verb: string): ApiError {
  return new ApiError('MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified(gr)}"`, {
    group: gr.group,
    kind: gr.resource,
  });
}

/** go-restful's 405 for a method no route takes, as the API server's service error handler words it (empty details). */
export function methodNotAllowed(): ApiError {
  return new ApiError('MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function pathNotFound(): ApiError {
  return new ApiError('NotFound', 'the server could not find the requested resource', {});
}

export function expired(message: string): ApiError {
  return new ApiError('Expired', message);
}

export function gone(message: string): ApiError {
  return new ApiError('Gone', message);
}

export function unauthorized(): ApiError {
  return new ApiError('Unauthorized', 'Unauthorized');
}

export function forbidden(gr: GroupResource, name: string, why: string): ApiError {
  const target = name ? `${qualified(gr)} "${name}"` : qualified(gr);
  return new ApiError('Forbidden', `${target} is forbidden: ${why}`, { name, group: gr.group, kind: gr.resource });
}

/** The cause of a write refused because its namespace is being deleted (core/v1 NamespaceTerminatingCause). */
export const namespaceTerminatingCause = 'NamespaceTerminating';

/** Whether the error carries a cause of `reason` (apimachinery's errors.HasStatusCause). */
export function hasStatusCause(error: unknown, reason: string): boolean {
  return error instanceof ApiError && (error.details?.causes ?? []).some((c) => c.reason === reason);
}

export function requestEntityTooLarge(message: string): ApiError {
  return new ApiError('RequestEntityTooLarge', `Request entity too large: ${message}`);
}

export function unsupportedMediaType(contentType: string): ApiError {
  return new ApiError('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf${contentType ? '' : ''}`);
}

export function notAcceptable(): ApiError {
  return new ApiError('NotAcceptable', 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf');
}

export function tooManyRequests(message: string, causes?: StatusCause[]): ApiError {
  return new ApiError('TooManyRequests', message, causes ? { causes } : undefined);
}

export function internalError(cause: unknown): ApiError {
  const text = cause instanceof Error ? cause.message : String(cause);
  return new ApiError('InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
}

/**
 * A read that asked for a resourceVersion the server has not reached (storage.NewTooLargeResourceVersionError,
 * in apierrors.NewTimeoutError's form). Clients (client-go's reflector) read the cause and relist.
 */
export function tooLargeResourceVersion(minimum: number, current: number, retryAfterSeconds: number): ApiError {
  const causes = [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }];
  // Go omits a zero retryAfterSeconds.
  return new ApiError('Timeout', `Timeout: Too large resource version: ${minimum}, current: ${current}`, retryAfterSeconds > 0 ? { causes, retryAfterSeconds } : { causes });
}

export function serviceUnavailable(message: string): ApiError {
  return new ApiError('ServiceUnavailable', message);
}
