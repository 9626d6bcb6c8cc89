// CRD validation rules (x-kubernetes-validations): each rule is a CEL expression over `self`, the
// value at its schema node, and for transition rules `oldSelf`, the same value before an update
// (evaluated only where the old value correlates: object properties by name, map lists by their
// keys). A rule that is not true fails its field with its message, its messageExpression or
// `failed rule: <rule>`, under its reason. Rules run only when the schema checks found no type error.
// Upstream: staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go,
// pkg/registry/customresource/strategy.go (Validate, hasBlockingErr).
import { Environment } from '@marcbachmann/cel-js';
import type { ParseResult } from '@marcbachmann/cel-js';
import { celRuntimeMessage, parseAndCheck, toCelValue, withKubernetesLibraries } from '../../api/index.ts';
import { duplicate, forbiddenField, invalidValue, required } from '../../core/index.ts';
import type { FieldError } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';

interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

let environment: Environment | undefined;
function env(): Environment {
  environment ??= withKubernetesLibraries(new Environment({ homogeneousAggregateLiterals: false })).registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');
  return environment;
}

const compiled = new Map<string, { run: ParseResult } | { message: string }>();

/** The compiled rule, cached by its text, or cel-go's compilation message. */
export function compileRule(rule: string): { run: ParseResult } | { message: string } {
  let hit = compiled.get(rule);
  if (!hit) {
    const c = parseAndCheck(env(), rule);
    hit = c.ok ? { run: c.run } : { message: c.message };
    if (compiled.size >= 4096) compiled.delete(compiled.keys().next().value as string);
    compiled.set(rule, hit);
  }
  return hit;
}

const isTransition = (rule: string): boolean => /\boldSelf\b/.test(rule);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

function checkRules(value: unknown, old: unknown, s: JSONSchemaProps, path: string, errors: FieldError[]): void {
  for (const raw of (s['x-kubernetes-validations'] ?? []) as ValidationRule[]) {
    if (isTransition(raw.rule) && old === undefined && !raw.optionalOldSelf) continue;
    const program = compileRule(raw.rule);
    const at = raw.fieldPath ? path + raw.fieldPath : path;
    if ('message' in program) {
      errors.push({ type: 'FieldValueInvalid', field: at, badValue: s.type ?? '', detail: program.message });
      continue;
    }
    const activation = { self: toCelValue(value), oldSelf: old === undefined ? null : toCelValue(old) };
    let result: unknown;
    try {
      result = program.run(activation);
    } catch (e) {
      errors.push({ type: 'FieldValueInvalid', field: at, badValue: s.type ?? '', detail: `rule evaluation error: ${celRuntimeMessage(e)}` });
      continue;
    }
    if (result === true) continue;
    errors.push(failure(at, s, messageOf(raw, activation), raw.reason));
  }
}

function messageOf(rule: ValidationRule, activation: Record<string, unknown>): string {
  if (rule.messageExpression) {
    const program = compileRule(rule.messageExpression);
    if ('run' in program) {
      try {
        const text = program.run(activation);
        if (typeof text === 'string' && text.trim() !== '' && !text.includes('\n')) return text.trim();
      } catch {
        // A failing messageExpression falls back to the message, as upstream.
      }
    }
  }
  return rule.message?.trim() || `failed rule: ${rule.rule.trim()}`;
}

/** The old list item a new one correlates with: by the map keys of a listType=map list, else none. */
function correlatedItem(item: unknown, old: unknown, s: JSONSchemaProps): unknown {
  const keys = s['x-kubernetes-list-map-keys'];
  if (s['x-kubernetes-list-type'] !== 'map' || !keys?.length || !Array.isArray(old) || !isObject(item)) return undefined;
  return old.find((o) => isObject(o) && keys.every((k) => JSON.stringify(o[k]) === JSON.stringify(item[k])));
}

/** Evaluates every rule under `s` against `value`; `old` is the value before an update (undefined on create). */
export function validateRules(value: unknown, old: unknown, s: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  walk(value, old, s, path, errors);
  return errors;
}

function walk(value: unknown, old: unknown, s: JSONSchemaProps, path: string, errors: FieldError[]): void {
  if (value === undefined || value === null) return;
  checkRules(value, old, s, path, errors);
  if (Array.isArray(value) && s.items) {
    const items = s.items as JSONSchemaProps;
    value.forEach((item, i) => walk(item, correlatedItem(item, old, s), items, `${path}[${i}]`, errors));
  }
  if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (path === '' && key === 'metadata') continue;
      const sub = s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
      if (sub) walk(v, isObject(old) ? old[key] : undefined, sub as JSONSchemaProps, child(path, key), errors);
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

/** hasBlockingErr: a type error stops the rules, with upstream's note that they were not checked. */
export function blockingError(errors: readonly FieldError[]): FieldError | undefined {
  if (!errors.some((e) => e.type === 'FieldValueTypeInvalid')) return undefined;
  return { type: 'FieldValueInvalid', field: '<nil>', badValue: 'null', detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation' };
}
