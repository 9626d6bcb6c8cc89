// The CEL environment of admission policies: `object`, `oldObject`, `request`, `params`,
// `namespaceObject`, `variables` and `authorizer` (cel-authorizer.ts), with Kubernetes' libraries.
// Objects are their JSON, which cel-js reads as maps; integral numbers become CEL ints, as the schemas
// type them.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go, filter.go.
import type { Environment, ParseResult } from '@marcbachmann/cel-js';
import { boundedMemo, celGoTypeName, dynEnvironment, parseAndCheck, runProgram } from '../../cel-libraries.ts';
import { withAuthorizerLibrary } from './cel-authorizer.ts';

export const policyVariables = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables'] as const;

let environment: Environment | undefined;
const env = (): Environment => (environment ??= withAuthorizerLibrary(dynEnvironment(policyVariables)));

/** What an expression must evaluate to: validations and match conditions bool, messages string. */
export type ResultType = 'bool' | 'string' | 'any';

export interface PolicyProgram {
  readonly expression: string;
  readonly resultType: ResultType;
  readonly run: ParseResult;
}

export type PolicyCompileResult = { ok: true; program: PolicyProgram } | { ok: false; message: string };

const compiled = boundedMemo((key) => {
  const cut = key.indexOf('\u0000');
  return compile(key.slice(cut + 1), key.slice(0, cut) as ResultType);
});

/** CompileCELExpression, cached by text and result type; messages as upstream's field errors carry them. */
export function compilePolicyExpression(expression: string, resultType: ResultType): PolicyCompileResult {
  return compiled(`${resultType}\u0000${expression}`);
}

function compile(expression: string, resultType: ResultType): PolicyCompileResult {
  const checked = parseAndCheck(env(), expression);
  if (!checked.ok) return checked;
  // Upstream requires the exact type, dyn included; here `request` and `namespaceObject` are dyn where
  // upstream declares their types, so a dyn result passes rather than refuse what upstream accepts.
  if (resultType !== 'any' && checked.type !== resultType && checked.type !== 'dyn') return { ok: false, message: `must evaluate to ${resultType} but got ${celGoTypeName(checked.type)}` };
  return { ok: true, program: { expression, resultType, run: checked.run } };
}

export type PolicyEvalResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Runs a compiled expression; a CEL error is `ok: false`, never thrown. Callers judge the value as upstream does (a validation passes only on `true`). */
export function evaluatePolicyExpression(program: PolicyProgram, activation: Readonly<Record<string, unknown>>): PolicyEvalResult {
  return runProgram(program.run, activation);
}

/** A JSON value as CEL sees it: integral numbers are ints (bigint); the rest as it is. */
export function toCelValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCelValue);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toCelValue(v);
    return out;
  }
  return value;
}
