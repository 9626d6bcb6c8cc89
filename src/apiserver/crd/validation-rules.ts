// CRD validation rules (x-kubernetes-validations): each rule is a CEL expression over `self`, the
// value at its schema node, and for transition rules `oldSelf`, the same value before an update
// (evaluated only where the old value correlates: object properties by name, map lists by their
// keys). A rule that is not true fails its field with its message, its messageExpression or
// `failed rule: <rule>`, under its reason. Rules run only when the schema checks found no type error.
// Upstream: staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go,
// pkg/registry/customresource/strategy.go (Validate, hasBlockingErr).
import type { Environment, ParseResult } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { boundedMemo, dynEnvironment, parseAndCheck, parseFormatDuration, runProgram, stringFormatCheck, toCelValue } from '../../api/index.ts';
import { duplicate, forbiddenField, invalidValue, jsonEqual, ownValue, required } from '../../core/index.ts';
import type { FieldError } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';
import { correlatedListItem, isObject, usesOldSelf } from './correlation.ts';

interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

let environment: Environment | undefined;
let optionalEnvironment: Environment | undefined;
const env = (): Environment => (environment ??= dynEnvironment(['self', 'oldSelf']));
// With optionalOldSelf the rule's oldSelf is an optional of the value's type.
const envWithOptionalOldSelf = (): Environment => (optionalEnvironment ??= dynEnvironment(['self']).registerVariable('oldSelf', 'optional<dyn>'));

type Compiled = { run: ParseResult } | { message: string };
const compile = (e: Environment, rule: string): Compiled => {
  const c = parseAndCheck(e, rule);
  return c.ok ? { run: c.run } : { message: c.message };
};
const compiledPlain = boundedMemo((rule) => compile(env(), rule));
const compiledWithOptionalOldSelf = boundedMemo((rule) => compile(envWithOptionalOldSelf(), rule));

/** The compiled rule (or messageExpression), cached by its text, or cel-go's compilation message. */
export function compileRule(rule: string, optionalOldSelf = false): Compiled {
  return optionalOldSelf ? compiledWithOptionalOldSelf(rule) : compiledPlain(rule);
}


/** fieldErrorForReason: the rule's reason picks the error type; the value shown is the schema type. */
function failure(path: string, s: JSONSchemaProps, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbiddenField(path, detail);
    case 'FieldValueRequired':
      return required(path, detail);
    case 'FieldValueDuplicate':
      return duplicate(path, s.type ?? '');
    default:
      return invalidValue(path, s.type ?? '', detail);
  }
}

const child = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

const celReservedSymbols = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/**
 * A property name as a CEL field name (apiserver/pkg/cel/escaping.go): `__` is `__underscores__`, `.`
 * `__dot__`, `-` `__dash__`, `/` `__slash__`, a reserved word `__namespace__`; undefined for a name with
 * any other character or a leading digit, which no rule can reach.
 */
export function celEscape(name: string): string | undefined {
  if (name === '' || /^[0-9]/.test(name)) return undefined;
  if (celReservedSymbols.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z0-9_./-]+$/.test(name)) return undefined;
  const spelled: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };
  return name.replace(/__|[./-]/g, (m) => spelled[m] ?? m);
}

/**
 * A value as CEL sees it under its schema (UnstructuredToVal): a string of format byte is bytes, of
 * duration a duration, of date or date-time a timestamp; an object's declared properties are fields under
 * their escaped names; the rest as JSON reads in CEL. The value was validated first, so its format parses.
 */
export function schemaCelValue(value: unknown, s: JSONSchemaProps | undefined): unknown {
  if (!s) return toCelValue(value);
  if (typeof value === 'string' && s.format && stringFormatCheck(s.format)) {
    switch (s.format.replaceAll('-', '')) {
      case 'byte':
        return new Uint8Array(Buffer.from(value, 'base64'));
      case 'duration': {
        const ms = parseFormatDuration(value) ?? 0;
        const seconds = Math.trunc(ms / 1000);
        return new Duration(seconds, Math.round((ms - seconds * 1000) * 1e6));
      }
      case 'date':
        return new Date(`${value}T00:00:00Z`);
      case 'datetime':
        return new Date(value.toUpperCase());
    }
  }
  if (Array.isArray(value)) return value.map((item) => schemaCelValue(item, s.items as JSONSchemaProps | undefined));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const property = ownValue(s.properties, key);
      // A declared property is a field, under its escaped name; one that cannot be escaped is unreachable.
      const name = property ? celEscape(key) : key;
      if (name !== undefined) out[name] = schemaCelValue(v, property ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined));
    }
    return out;
  }
  return toCelValue(value);
}

function checkRules(value: unknown, old: unknown, s: JSONSchemaProps, path: string, errors: FieldError[]): void {
  const rules = (s['x-kubernetes-validations'] ?? []) as ValidationRule[];
  if (rules.length === 0) return;
  const self = schemaCelValue(value, s);
  const oldSelf = old === undefined ? undefined : schemaCelValue(old, s);
  const plain = { self, oldSelf: oldSelf ?? null };
  let optional: Record<string, unknown> | undefined;
  for (const raw of rules) {
    if (usesOldSelf(raw.rule) && old === undefined && !raw.optionalOldSelf) continue;
    // optionalOldSelf: oldSelf is an optional, none where no old value correlates (on create too).
    const activation = raw.optionalOldSelf ? (optional ??= { self, oldSelf: oldSelf === undefined ? Optional.none() : Optional.of(oldSelf) }) : plain;
    const program = compileRule(raw.rule, raw.optionalOldSelf === true);
    const at = raw.fieldPath ? path + raw.fieldPath : path;
    if ('message' in program) {
      errors.push(invalidValue(path, s.type ?? '', `rule compile error: ${program.message}`));
      continue;
    }
    const result = runProgram(program.run, activation);
    if (!result.ok) {
      errors.push(invalidValue(path, s.type ?? '', `${result.message} evaluating rule: ${ruleErrorString(raw)}`));
      continue;
    }
    if (result.value === true) continue;
    errors.push(failure(at, s, messageOf(raw, activation), raw.reason));
  }
}

/** ruleErrorString: the rule's message, else the rule itself. */
const ruleErrorString = (rule: ValidationRule): string => rule.message?.trim() || rule.rule.trim();

function messageOf(rule: ValidationRule, activation: Record<string, unknown>): string {
  if (rule.messageExpression) {
    // A failing messageExpression falls back to the message, as upstream.
    const program = compileRule(rule.messageExpression, rule.optionalOldSelf === true);
    const text = 'run' in program ? runProgram(program.run, activation) : undefined;
    if (text?.ok && typeof text.value === 'string' && text.value.trim() !== '' && !text.value.includes('\n')) return text.value.trim();
  }
  return rule.message?.trim() || `failed rule: ${rule.rule.trim()}`;
}

/**
 * Evaluates every rule under `s` against `value`; `old` is the value before an update (undefined on
 * create). A node equal to the old value it correlates with keeps the errors its rules find (ratcheting);
 * `changedAbove` says the root differs though its value does not (its metadata changed).
 */
export function validateRules(value: unknown, old: unknown, s: JSONSchemaProps, path: string, changedAbove = false): FieldError[] {
  const errors: FieldError[] = [];
  walk(value, old, s, path, errors, changedAbove);
  return errors;
}

function walk(value: unknown, old: unknown, s: JSONSchemaProps, path: string, errors: FieldError[], changedAbove = false): void {
  if (value === undefined || value === null) return;
  const found: FieldError[] = [];
  checkRules(value, old, s, path, found);
  if (changedAbove || old === undefined || !jsonEqual(value, old)) errors.push(...found);
  if (Array.isArray(value) && s.items) {
    const items = s.items as JSONSchemaProps;
    value.forEach((item, i) => walk(item, correlatedListItem(item, old, s), items, `${path}[${i}]`, errors));
  }
  if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (path === '' && key === 'metadata') continue;
      const sub = ownValue(s.properties, key) ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (sub) walk(v, isObject(old) ? ownValue(old, key) : undefined, sub as JSONSchemaProps, child(path, key), errors);
    }
  }
}

/** Whether any node of `s` carries rules (upstream builds no CEL validator for a schema without). */
export function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if ((s['x-kubernetes-validations'] ?? []).length > 0) return true;
  if (hasRules(s.items as JSONSchemaProps | undefined)) return true;
  if (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties)) return true;
  return Object.values(s.properties ?? {}).some((p) => hasRules(p));
}

const blockingTypes = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/**
 * hasBlockingErr: an unsupported, missing, too long, too many or mistyped value stops the rules (they
 * could not read it), with upstream's note that they were not checked.
 */
export function blockingError(errors: readonly FieldError[]): FieldError | undefined {
  if (!errors.some((e) => blockingTypes.has(e.type))) return undefined;
  return { type: 'FieldValueInvalid', field: '<nil>', badValue: 'null', detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation' };
}
