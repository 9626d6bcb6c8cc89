// The strategic-merge-patch errors with upstream's texts, and the kind the
// handler maps to an HTTP status (interpretStrategicMergePatchError).
// Upstream: apimachinery/pkg/util/mergepatch/errors.go, apiserver/pkg/endpoints/handlers/patch.go.
import { goTypeName, goValue } from './go-format.ts';

/**
 * - malformed: 400 BadRequest with the message;
 * - unprocessable: 422 from NewGenericServerResponse (lists of lists, retainKeys content);
 * - internal: upstream returns the raw error, which the apiserver renders as a 500 with the message.
 */
export type SmpErrorKind = 'malformed' | 'unprocessable' | 'internal';

export class SmpError extends Error {
  readonly kind: SmpErrorKind;
  constructor(kind: SmpErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export const errBadJSONDoc = (): SmpError => new SmpError('malformed', 'invalid JSON document');
export const errNoListOfLists = (): SmpError => new SmpError('unprocessable', 'lists of lists are not supported');
export const errBadPatchFormatForPrimitiveList = (): SmpError =>
  new SmpError('malformed', 'invalid patch format of primitive list');
export const errBadPatchFormatForRetainKeys = (): SmpError => new SmpError('malformed', 'invalid patch format of retainKeys');
export const errBadPatchFormatForSetElementOrderList = (): SmpError =>
  new SmpError('malformed', 'invalid patch format of setElementOrder list');

export function errNoMergeKey(m: unknown, key: string): SmpError {
  return new SmpError('internal', `map: ${goValue(m)} does not contain declared merge key: ${key}`);
}

/** ErrBadArgType: the expected side is named by its Go type. */
export function errBadArgType(expected: 'map' | 'slice', actual: unknown): SmpError {
  const want = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return new SmpError('internal', `expected a ${want}, but received a ${goTypeName(actual)}`);
}

export function errBadPatchType(t: unknown, m: unknown): SmpError {
  // fmt's %s of a nil interface is `%!s(<nil>)`; of another non-string, `%!s(int64=1)`.
  const shown = typeof t === 'string' ? t : t === null || t === undefined ? '%!s(<nil>)' : `%!s(${goTypeName(t)}=${goValue(t)})`;
  return new SmpError('internal', `unknown patch type: ${shown} in map: ${goValue(m)}`);
}

export function internal(message: string): SmpError {
  return new SmpError('internal', message);
}
