// Field errors: what validation returns, formatted exactly as upstream's field.Error.
// Upstream: apimachinery/pkg/util/validation/field/errors.go.

export const FieldErrorType = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Duplicate: 'FieldValueDuplicate',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  TypeInvalid: 'FieldValueTypeInvalid',
  NotFound: 'FieldValueNotFound',
  Internal: 'InternalError',
} as const;
export type FieldErrorType = (typeof FieldErrorType)[keyof typeof FieldErrorType];

const typeText: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueNotFound: 'Not found',
  InternalError: 'Internal error',
};

/** `omitValue` marks errors whose bad value upstream does not print (Required, Forbidden, TooLong...). */
export interface FieldError {
  readonly type: FieldErrorType;
  readonly field: string;
  readonly badValue?: unknown;
  readonly detail: string;
  readonly omitValue?: boolean;
}

/**
 * A field path such as `spec.containers[0].image`, built immutably. Validation builds one for
 * every field it looks at and needs the text only for the few that are wrong, so a path keeps its
 * parent and its own step and spells itself out on first use.
 */
export class FieldPath {
  readonly #parent: FieldPath | undefined;
  /** The root's text, a field name, an index or a map key. */
  readonly #step: string | number;
  /** How the step joins its parent: `.name`, `[index]` and `[key]` both print in brackets. */
  readonly #bracketed: boolean;
  #text: string | undefined;
  constructor(text: string, parent?: FieldPath, step?: string | number, bracketed = false) {
    this.#parent = parent;
    this.#step = step ?? text;
    this.#bracketed = bracketed;
    if (parent === undefined) this.#text = text;
  }
  static root(name: string): FieldPath {
    return new FieldPath(name);
  }
  // Fixed arity, not a rest parameter: validation calls this for every field it looks at, and V8
  // allocated the empty rest array each time (~40 ns a call, a few µs a pod).
  child(name: string, second?: string, third?: string): FieldPath {
    let path = new FieldPath('', this, name);
    if (second !== undefined) path = new FieldPath('', path, second);
    if (third !== undefined) path = new FieldPath('', path, third);
    return path;
  }
  index(i: number): FieldPath {
    return new FieldPath('', this, i, true);
  }
  key(k: string): FieldPath {
    return new FieldPath('', this, k, true);
  }
  toString(): string {
    if (this.#text === undefined) {
      const parent = String(this.#parent);
      if (this.#bracketed) this.#text = `${parent}[${this.#step}]`;
      // A child of the empty root has no leading dot: `metadata`, not `.metadata`.
      else this.#text = parent === '' ? String(this.#step) : `${parent}.${this.#step}`;
    }
    return this.#text;
  }
}

type Path = FieldPath | string;

/**
 * Appends a nested validator's errors. A spread push (`errs.push(...more)`) is a runtime call even
 * for the empty list most validators return, ~70 of them a pod create.
 */
export function pushErrors(errs: FieldError[], more: readonly FieldError[]): void {
  for (let i = 0; i < more.length; i++) errs.push(more[i] as FieldError);
}

export function required(path: Path, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field: String(path), detail, omitValue: true };
}
export function invalidValue(path: Path, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: String(path), badValue: value, detail };
}
export function notSupported(path: Path, value: unknown, valid: readonly string[]): FieldError {
  const detail = valid.length ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field: String(path), badValue: value, detail };
}
export function duplicate(path: Path, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: String(path), badValue: value, detail: '' };
}
export function forbiddenField(path: Path, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field: String(path), detail, omitValue: true };
}
export function tooLong(path: Path, maxLength: number): FieldError {
  return { type: 'FieldValueTooLong', field: String(path), detail: `may not be more than ${maxLength} bytes`, omitValue: true };
}
export function tooMany(path: Path, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field: String(path), badValue: actual, detail: `must have at most ${max} items` };
}
export function notFoundField(path: Path, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field: String(path), badValue: value, detail: '' };
}
export function internalFieldError(path: Path, detail: string): FieldError {
  return { type: 'InternalError', field: String(path), detail, omitValue: true };
}

/**
 * A bad value printed as Go's `%#v` prints it (`[]string{"/healthz"}`, `rbac.RoleRef{...}`): what
 * upstream's field errors show for values that are neither scalars nor Stringers.
 */
export class GoSyntax {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** A bad value as field.Error prints it: strings quoted, numbers bare, GoSyntax as written. */
function formatValue(value: unknown): string {
  if (value instanceof GoSyntax) return value.text;
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/**
 * `spec.containers[0].image: Required value` (withField) or `Required value` (a cause's message). As
 * field.Error.Error() (`%s: %s`), an error at the empty path still has its separator: `: Forbidden: ...`.
 */
export function formatFieldError(e: FieldError, opts: { withField: boolean }): string {
  let body = typeText[e.type];
  if (!e.omitValue && e.type !== 'FieldValueRequired') body += `: ${formatValue(e.badValue)}`;
  if (e.detail) body += `: ${e.detail}`;
  return opts.withField ? `${e.field}: ${body}` : body;
}
