// The CEL environment of admission policies: `object`, `oldObject`, `request`, `params`,
// `namespaceObject` and `variables`, with Kubernetes' quantity and semver libraries. Objects are
// their JSON, which cel-js reads as maps; integral numbers become CEL ints, as the schemas type
// them. `authorizer` is not declared, so an expression using it fails to compile.
// Upstream: staging/src/k8s.io/apiserver/pkg/admission/plugin/cel/compile.go, filter.go.
import { Environment } from '@marcbachmann/cel-js';
import type { ParseResult } from '@marcbachmann/cel-js';
import { celRuntimeMessage, parseAndCheck, withKubernetesLibraries } from '../../cel-libraries.ts';

export const policyVariables = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables'] as const;

let environment: Environment | undefined;
function env(): Environment {
  if (!environment) {
    let e = withKubernetesLibraries(new Environment({ homogeneousAggregateLiterals: false }));
    for (const name of policyVariables) e = e.registerVariable(name, 'dyn');
    environment = e;
  }
  return environment;
}

/** What an expression must evaluate to: validations and match conditions bool, messages string. */
export type ResultType = 'bool' | 'string' | 'any';

export interface PolicyProgram {
  readonly expression: string;
  readonly resultType: ResultType;
  readonly run: ParseResult;
}

export type PolicyCompileResult = { ok: true; program: PolicyProgram } | { ok: false; message: string };

const cacheLimit = 4096;
const cache = new Map<string, PolicyCompileResult>();

/** CompileCELExpression, cached by text and result type; messages as upstream's field errors carry them. */
export function compilePolicyExpression(expression: string, resultType: ResultType): PolicyCompileResult {
  const key = `${resultType}\u0000${expression}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const result = compile(expression, resultType);
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}

function compile(expression: string, resultType: ResultType): PolicyCompileResult {
  const checked = parseAndCheck(env(), expression);
  if (!checked.ok) return checked;
  if (resultType !== 'any' && checked.type !== resultType && checked.type !== 'dyn') return { ok: false, message: `must evaluate to ${resultType}` };
  return { ok: true, program: { expression, resultType, run: checked.run } };
}

export type PolicyEvalResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Runs a compiled expression; a CEL error is `ok: false`, never thrown. Callers judge the value as upstream does (a validation passes only on `true`). */
export function evaluatePolicyExpression(program: PolicyProgram, activation: Readonly<Record<string, unknown>>): PolicyEvalResult {
  let value: unknown;
  try {
    value = program.run(activation);
  } catch (e) {
    return { ok: false, message: celRuntimeMessage(e) };
  }
  return { ok: true, value };
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
