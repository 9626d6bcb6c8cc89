// cel-go's two-variable comprehensions (ext.TwoVarComprehensions; Kubernetes' base environment from 1.32):
// all, exists, existsOne (and exists_one) with an index or key variable beside the value, and
// transformList, transformMap, transformMapEntry with an optional filter. cel-js's comprehensions bind one
// variable, so each is a macro of its own here: checked once against the range's type, then run directly.
// Upstream: cel-go ext/comprehensions.go, common/types (InsertMapKeyValue), checker (comprehension ranges).
import type { Environment } from '@marcbachmann/cel-js';
import { ParseError } from '@marcbachmann/cel-js';
import { celGoTypeName } from './cel-extensions.ts';

// The parts of cel-js's macro protocol used here (lib/macros.js: the `has` and `cel.bind` macros).
interface CelType {
  readonly kind: string;
  readonly name: string;
  readonly keyType?: CelType;
  readonly valueType?: CelType;
}
interface CelAst {
  readonly op: string;
  readonly args: unknown;
}
interface Scope {
  forkWithVariable(name: string, type: CelType): Scope;
  reuse(parent: Scope): Scope;
  setIterValue(value: unknown, evaluator: Evaluator): Scope;
}
interface Checker {
  check(node: CelAst, scope: Scope): CelType;
  getType(name: string): CelType;
  formatType(type: CelType): string;
  createError(code: string, message: string, node: CelAst): Error;
  readonly registry: { getListType(t: CelType): CelType; getMapType(k: CelType, v: CelType): CelType };
}
interface Evaluator {
  run(node: CelAst, scope: Scope): unknown;
  tryEval(node: CelAst, scope: Scope): unknown;
  debugType(value: unknown): CelType;
  createError(code: string, message: string, node?: CelAst): Error;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface Comprehension {
  readonly kind: Kind;
  readonly range: CelAst;
  readonly first: string;
  readonly second: string;
  readonly filter: CelAst | undefined;
  readonly body: CelAst;
  readonly async: false;
  keyScope?: Scope;
  valueScope?: Scope;
  /** transformMapEntry: the checked key type of the entries its body makes. */
  entryKeyType?: CelType;
  typeCheck(checker: Checker, self: Comprehension, scope: Scope): CelType;
  evaluate(evaluator: Evaluator, self: Comprehension, scope: Scope): unknown;
}

/** Counts one step of a comprehension against the evaluation's cost limit (throws past it). */
export type StepCharge = () => void;

function iterationVariable(node: unknown): string {
  const n = node as CelAst;
  if (n.op === 'id' && typeof n.args === 'string') return n.args;
  // cel-go's extractIterVar wording, reported by the parser at the argument.
  throw new ParseError({ code: 'invalid_macro_argument', message: 'argument must be a simple name', node: n } as never);
}

/** The (key, value) types a range binds: (int, T) for list(T), (K, V) for map(K, V), dyn for dyn. */
function rangeTypes(checker: Checker, range: CelAst, scope: Scope): [CelType, CelType] {
  const t = checker.check(range, scope);
  if (t.kind === 'dyn') return [t, t];
  if (t.kind === 'list' && t.valueType) return [checker.getType('int'), t.valueType];
  if (t.kind === 'map' && t.keyType && t.valueType) return [t.keyType, t.valueType];
  throw checker.createError('invalid_comprehension_range', `expression of type '${celGoTypeName(checker.formatType(t))}' cannot be the range of a comprehension (must be list, map, or dynamic)`, range);
}

const predicateOperator: Partial<Record<Kind, string>> = { all: '_&&_', exists: '_||_', existsOne: '_?_:_' };

function expectBool(checker: Checker, node: CelAst, scope: Scope, operator: string, others: string): void {
  const t = checker.check(node, scope);
  if (t.kind === 'dyn' || t.name === 'bool') return;
  throw checker.createError('invalid_macro_argument', `found no matching overload for '${operator}' applied to '(${others.replace('%', celGoTypeName(checker.formatType(t)))})'`, node);
}

function typeCheck(checker: Checker, c: Comprehension, scope: Scope): CelType {
  const [keyType, valueType] = rangeTypes(checker, c.range, scope);
  const keyScope = (c.keyScope = scope.forkWithVariable(c.first, keyType));
  const inner = (c.valueScope = keyScope.forkWithVariable(c.second, valueType));
  const boolType = checker.getType('bool');
  const operator = predicateOperator[c.kind];
  if (operator) {
    expectBool(checker, c.body, inner, operator, c.kind === 'existsOne' ? '%, int, int' : 'bool, %');
    return boolType;
  }
  if (c.filter) expectBool(checker, c.filter, inner, '_?_:_', '%, dyn, dyn');
  const bodyType = checker.check(c.body, inner);
  if (c.kind === 'transformList') return checker.registry.getListType(bodyType);
  if (c.kind === 'transformMap') return checker.registry.getMapType(keyType, bodyType);
  if (bodyType.kind === 'dyn') return checker.registry.getMapType(bodyType, bodyType);
  if (bodyType.kind !== 'map' || !bodyType.keyType || !bodyType.valueType) {
    throw checker.createError('invalid_macro_argument', `found no matching overload for 'cel.@mapInsert' applied to '(map(dyn, dyn), ${celGoTypeName(checker.formatType(bodyType))})'`, c.body);
  }
  c.entryKeyType = bodyType.keyType;
  return bodyType;
}

/** The range's (key, value) pairs: a list's indexes as ints, a map's keys. */
function pairsOf(evaluator: Evaluator, value: unknown, range: CelAst): [unknown, unknown][] {
  if (Array.isArray(value)) return value.map((v, i) => [BigInt(i), v]);
  if (value instanceof Map) return [...value];
  if (typeof value === 'object' && value !== null && evaluator.debugType(value).kind === 'map') return Object.entries(value);
  throw evaluator.createError('invalid_comprehension_range', `expression of type '${celGoTypeName(evaluator.debugType(value).name)}' cannot be the range of a comprehension (must be list, map, or dynamic)`, range);
}

/**
 * A map value's entries, whether made here (a Map) or by cel-js from a literal (an object, whose keys
 * JavaScript turned into text): an int or bool key of a literal typed so gets its type back.
 */
function mapEntries(m: unknown, keyType: CelType | undefined): [unknown, unknown][] {
  if (m instanceof Map) return [...m];
  const entries = Object.entries(m as object);
  if (keyType?.name === 'int' || keyType?.name === 'uint') return entries.map(([k, v]) => [BigInt(k), v]);
  if (keyType?.name === 'bool') return entries.map(([k, v]) => [k === 'true', v]);
  return entries;
}

function evaluate(charge: StepCharge, evaluator: Evaluator, c: Comprehension, scope: Scope): unknown {
  const keyScope = (c.keyScope as Scope).reuse(scope);
  const inner = (c.valueScope as Scope).reuse(keyScope);
  const pairs = pairsOf(evaluator, evaluator.run(c.range, scope), c.range);
  const bind = (key: unknown, value: unknown): Scope => {
    charge();
    keyScope.setIterValue(key, evaluator);
    return inner.setIterValue(value, evaluator);
  };
  if (c.kind === 'all' || c.kind === 'exists') return quantify(c.kind, evaluator, c.body, pairs, bind);
  if (c.kind === 'existsOne') {
    let count = 0;
    for (const [k, v] of pairs) if (truth(evaluator, evaluator.run(c.body, bind(k, v)), c.body) === true) count++;
    return count === 1;
  }
  const kept = c.filter ? pairs.filter(([k, v]) => truth(evaluator, evaluator.run(c.filter as CelAst, bind(k, v)), c.filter as CelAst)) : pairs;
  if (c.kind === 'transformList') return kept.map(([k, v]) => evaluator.run(c.body, bind(k, v)));
  const out = new Map<unknown, unknown>();
  for (const [k, v] of kept) {
    const produced = evaluator.run(c.body, bind(k, v));
    if (c.kind === 'transformMap') {
      out.set(k, produced);
      continue;
    }
    for (const [key, value] of mapEntries(produced, c.entryKeyType)) {
      if (out.has(key)) throw evaluator.createError('invalid_argument', `insert failed: key ${String(key)} already exists`, c.body);
      out.set(key, value);
    }
  }
  return out;
}

function truth(evaluator: Evaluator, value: unknown, node: CelAst): boolean {
  if (typeof value === 'boolean') return value;
  throw evaluator.createError('invalid_argument', `no such overload: ${celGoTypeName(evaluator.debugType(value).name)}`, node);
}

/**
 * all and exists as cel-go runs them (_&&_ and _||_ over the steps): the first false (true) decides;
 * an error in a step is kept and raised only when nothing decided.
 */
function quantify(kind: 'all' | 'exists', evaluator: Evaluator, body: CelAst, pairs: [unknown, unknown][], bind: (k: unknown, v: unknown) => Scope): boolean {
  const decisive = kind === 'exists';
  let error: unknown;
  for (const [k, v] of pairs) {
    const r = evaluator.tryEval(body, bind(k, v));
    if (r === decisive) return decisive;
    if (r instanceof Error) error ??= r;
    else if (typeof r !== 'boolean') error ??= evaluator.createError('invalid_argument', `no such overload: ${celGoTypeName(evaluator.debugType(r).name)}`, body);
  }
  if (error !== undefined) throw error;
  return !decisive;
}

const macros: readonly { name: string; kind: Kind; filtered: boolean }[] = [
  { name: 'all', kind: 'all', filtered: false },
  { name: 'exists', kind: 'exists', filtered: false },
  { name: 'existsOne', kind: 'existsOne', filtered: false },
  { name: 'exists_one', kind: 'existsOne', filtered: false },
  ...(['transformList', 'transformMap', 'transformMapEntry'] as const).flatMap((kind) => [false, true].map((filtered) => ({ name: kind, kind, filtered }))),
];

/** Registers the two-variable comprehension macros on `env`; each step is charged with `charge`. */
export function withTwoVariableComprehensions(env: Environment, charge: StepCharge): Environment {
  let out = env;
  for (const { name, kind, filtered } of macros) {
    const signature = `dyn.${name}(${['ast', 'ast', 'ast', ...(filtered ? ['ast'] : [])].join(', ')}): dyn`;
    out = out.registerFunction(signature, ({ args, receiver }: { args: unknown[]; receiver: CelAst }): Comprehension => ({
      kind,
      range: receiver,
      first: iterationVariable(args[0]),
      second: iterationVariable(args[1]),
      filter: filtered ? (args[2] as CelAst) : undefined,
      body: args[filtered ? 3 : 2] as CelAst,
      async: false,
      typeCheck,
      evaluate: (evaluator, self, scope) => evaluate(charge, evaluator, self, scope),
    }));
  }
  return out;
}
