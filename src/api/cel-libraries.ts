// The CEL libraries Kubernetes adds to every environment it compiles in (quantity, semver) on top of
// @marcbachmann/cel-js, and cel-go's wording of compilation and runtime errors: shared by DRA device
// selectors and admission policies.
// Upstream: staging/src/k8s.io/apiserver/pkg/cel/library/{quantity.go,semverlib.go}, cel-go common/errors.go.
import type { ParseResult } from '@marcbachmann/cel-js';
import { Environment, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import type { Quantity } from '../core/index.ts';
import { UserRegExp, addQuantities, compareQuantities, parseQuantity, quantityFromValue, quantityNanoValue, quantityParseError, subtractQuantities } from '../core/index.ts';
import { compareSemver, isSemverError, normalizeSemverText, parseSemver } from './resource/v1/semver.ts';
import { withNetworkLibraries } from './cel-network.ts';
import { celGoTypeName, withExtensionLibraries } from './cel-extensions.ts';
import { withTwoVariableComprehensions } from './cel-comprehensions.ts';
import { withImageLibrary } from './cel-image.ts';
import { withFormatLibrary } from './cel-format.ts';
import { validateCheckedAst } from './cel-validators.ts';
import type { Semver } from './resource/v1/semver.ts';

export { celGoTypeName };

/** A Kubernetes Quantity as CEL sees it (apiservercel.Quantity). */
export class CelQuantity {
  readonly q: Quantity;
  constructor(q: Quantity) {
    this.q = q;
  }
}

/** A semantic version as CEL sees it (apiservercel.Semver). */
export class CelSemver {
  readonly v: Semver;
  constructor(v: Semver) {
    this.v = v;
  }
}

const int64Max = 9_223_372_036_854_775_807n;
const int64Min = -9_223_372_036_854_775_808n;
const nano = 1_000_000_000n;

function mustQuantity(text: string): CelQuantity {
  const q = parseQuantity(text);
  if (!q) throw new Error(quantityParseError(text) ?? 'quantities must match the regular expression');
  return new CelQuantity(q);
}

function mustSemver(text: string, normalize: boolean): CelSemver {
  const t = normalize ? normalizeSemverText(text) : text;
  if (typeof t !== 'string') throw new Error(t.error);
  const v = parseSemver(t);
  if (isSemverError(v)) throw new Error(v.error);
  return new CelSemver(v);
}

function isValidSemver(text: string, normalize: boolean): boolean {
  const t = normalize ? normalizeSemverText(text) : text;
  return typeof t === 'string' && !isSemverError(parseSemver(t));
}

function asInteger(q: Quantity): bigint | undefined {
  const n = quantityNanoValue(q);
  if (n % nano !== 0n) return undefined;
  const v = n / nano;
  return v > int64Max || v < int64Min ? undefined : v;
}

const cmp = (a: CelQuantity, b: CelQuantity): bigint => BigInt(compareQuantities(a.q, b.q));
const scmp = (a: CelSemver, b: CelSemver): bigint => BigInt(compareSemver(a.v, b.v));

/** lists.sum(): 0 for an empty list, else the elements added in order (ints, or doubles). */
function sum(list: readonly unknown[]): unknown {
  if (list.length === 0) return 0n;
  return list.reduce((a, b) => (a as number) + (b as number));
}

type Ordered = bigint | number | string;

/** lists.min()/max(): the least (greatest) element; an empty list is an error, as upstream's. */
function extreme(list: readonly unknown[], name: 'min' | 'max'): unknown {
  if (list.length === 0) throw new Error(`${name} called on empty list`);
  return list.reduce((a, b) => ((name === 'min' ? (b as Ordered) < (a as Ordered) : (b as Ordered) > (a as Ordered)) ? b : a));
}

const sorted = (list: readonly unknown[]): boolean => list.every((v, i) => i === 0 || (list[i - 1] as Ordered) <= (v as Ordered));

const globalPattern = boundedMemo((pattern: string) => new UserRegExp(pattern, 'g'));
const searchPattern = boundedMemo((pattern: string) => new UserRegExp(pattern));

/** The standard library's global matches(s, pattern) (cel-js has the member form only): an unanchored search. */
function matches(s: string, pattern: string): boolean {
  let re: UserRegExp;
  try {
    re = searchPattern(pattern);
  } catch {
    throw new Error(`Invalid regular expression: ${pattern}`);
  }
  return re.test(s);
}

/** regex.find / findAll: the first (up to n, all when n < 0) matches of `pattern` in `s`. */
function findAll(s: string, pattern: string, n: bigint): string[] {
  if (n === 0n) return [];
  const out: string[] = [];
  for (const m of s.matchAll(globalPattern(pattern).for(s))) {
    out.push(m[0]);
    if (n > 0n && BigInt(out.length) >= n) break;
  }
  return out;
}

/** strings.replace: `n` replacements from the left, all when n < 0. */
function replace(s: string, from: string, to: string, n: bigint): string {
  if (n < 0n) return s.split(from).join(to);
  let out = s;
  let at = 0;
  for (let i = 0n; i < n; i++) {
    const found = out.indexOf(from, at);
    if (found < 0) break;
    out = out.slice(0, found) + to + out.slice(found + from.length);
    at = found + to.length;
  }
  return out;
}

/**
 * Registers the IP, CIDR and URL libraries (cel-network.ts), sets, strings.quote and string.format
 * (cel-extensions.ts), the Image library (cel-image.ts), the Quantity and Semver types and
 * libraries, and the parts of Kubernetes' lists, regex and strings libraries cel-js lacks (sum, min, max, isSorted, indexOf, lastIndexOf; find, findAll;
 * replace, charAt), on `env`.
 */
export function withKubernetesLibraries(env: Environment): Environment {
  return withTwoVariableComprehensions(withFormatLibrary(withImageLibrary(withExtensionLibraries(withNetworkLibraries(env)))), chargeStep)
    .registerFunction('matches(string, string): bool', matches)
    .registerFunction('list<int>.sum(): int', sum)
    .registerFunction('list<double>.sum(): double', sum)
    .registerFunction('list<dyn>.sum(): dyn', sum)
    .registerFunction('list<dyn>.min(): dyn', (l: unknown[]) => extreme(l, 'min'))
    .registerFunction('list<dyn>.max(): dyn', (l: unknown[]) => extreme(l, 'max'))
    .registerFunction('list<dyn>.isSorted(): bool', sorted)
    .registerFunction('list<dyn>.indexOf(dyn): int', (l: unknown[], v: unknown) => BigInt(l.findIndex((x) => x === v)))
    .registerFunction('list<dyn>.lastIndexOf(dyn): int', (l: unknown[], v: unknown) => BigInt(l.findLastIndex((x) => x === v)))
    .registerFunction('string.find(string): string', (s: string, p: string) => findAll(s, p, 1n)[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n))
    .registerFunction('string.findAll(string, int): list<string>', findAll)
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => replace(s, a, b, -1n))
    .registerFunction('string.replace(string, string, int): string', replace)
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      if (i < 0n || i > BigInt(s.length)) throw new Error(`index out of range: ${i}`);
      return s.charAt(Number(i));
    })
    .registerType('Quantity', CelQuantity)
    .registerType('Semver', CelSemver)
    // Quantity library.
    .registerFunction('quantity(string): Quantity', (s: string) => mustQuantity(s))
    .registerFunction('isQuantity(string): bool', (s: string) => parseQuantity(s) !== undefined)
    .registerFunction('Quantity.compareTo(Quantity): int', cmp)
    .registerFunction('Quantity.isGreaterThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) === 1n)
    .registerFunction('Quantity.isLessThan(Quantity): bool', (a: CelQuantity, b: CelQuantity) => cmp(a, b) === -1n)
    .registerFunction('Quantity.isInteger(): bool', (a: CelQuantity) => asInteger(a.q) !== undefined)
    .registerFunction('Quantity.asInteger(): int', (a: CelQuantity) => {
      const v = asInteger(a.q);
      if (v === undefined) throw new Error('cannot convert value to integer');
      return v;
    })
    .registerFunction('Quantity.asApproximateFloat(): double', (a: CelQuantity) => Number(quantityNanoValue(a.q)) / 1e9)
    .registerFunction('Quantity.sign(): int', (a: CelQuantity) => BigInt(Math.sign(Number(quantityNanoValue(a.q)))))
    .registerFunction('sign(Quantity): int', (a: CelQuantity) => BigInt(Math.sign(Number(quantityNanoValue(a.q)))))
    .registerFunction('Quantity.add(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) => new CelQuantity(addQuantities(a.q, b.q)))
    .registerFunction('Quantity.add(int): Quantity', (a: CelQuantity, b: bigint) => new CelQuantity(addQuantities(a.q, quantityFromValue(b, 'DecimalExponent'))))
    .registerFunction('Quantity.sub(Quantity): Quantity', (a: CelQuantity, b: CelQuantity) => new CelQuantity(subtractQuantities(a.q, b.q)))
    .registerFunction('Quantity.sub(int): Quantity', (a: CelQuantity, b: bigint) => new CelQuantity(subtractQuantities(a.q, quantityFromValue(b, 'DecimalExponent'))))
    .registerOperator('Quantity == Quantity', (a: CelQuantity, b: CelQuantity) => cmp(a, b) === 0n)
    // Semver library.
    .registerFunction('semver(string): Semver', (s: string) => mustSemver(s, false))
    .registerFunction('semver(string, bool): Semver', (s: string, n: boolean) => mustSemver(s, n))
    .registerFunction('isSemver(string): bool', (s: string) => isValidSemver(s, false))
    .registerFunction('isSemver(string, bool): bool', (s: string, n: boolean) => isValidSemver(s, n))
    .registerFunction('Semver.compareTo(Semver): int', scmp)
    .registerFunction('Semver.isGreaterThan(Semver): bool', (a: CelSemver, b: CelSemver) => scmp(a, b) === 1n)
    .registerFunction('Semver.isLessThan(Semver): bool', (a: CelSemver, b: CelSemver) => scmp(a, b) === -1n)
    .registerFunction('Semver.major(): int', (a: CelSemver) => a.v.major)
    .registerFunction('Semver.minor(): int', (a: CelSemver) => a.v.minor)
    .registerFunction('Semver.patch(): int', (a: CelSemver) => a.v.patch)
    .registerOperator('Semver == Semver', (a: CelSemver, b: CelSemver) => scmp(a, b) === 0n);
}

/** An environment with Kubernetes' libraries and each of `variables` declared dyn (JSON values as CEL sees them). */
export function dynEnvironment(variables: readonly string[]): Environment {
  let env = withKubernetesLibraries(new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true }));
  for (const name of variables) env = env.registerVariable(name, 'dyn');
  return env;
}

/**
 * `compute`, remembered for the last `limit` keys. Upstream's cel.Cache keeps a bounded LRU; expressions
 * come from a handful of objects, so a generous bound only guards against unbounded growth.
 */
export function boundedMemo<V>(compute: (key: string) => V, limit = 4096): (key: string) => V {
  const cache = new Map<string, V>();
  return (key) => {
    if (cache.has(key)) return cache.get(key) as V;
    const value = compute(key);
    if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
    cache.set(key, value);
    return value;
  };
}

/**
 * Upstream's runtime cost limit per evaluation (celconfig.PerCallLimit; DRA's
 * CELSelectorExpressionMaxCost). cel-js keeps no cost, so here a step of a comprehension costs one:
 * the rest of an expression does work bounded by its length, while macros nested over long lists
 * (`l.all(a, l.all(b, l.all(c, ...)))`) could run for hours on the thread the cluster serves from.
 * Past the limit the evaluation ends in cel-go's error. Counting fewer steps than cel-go counts cost,
 * it cancels nothing upstream would finish.
 */
export const perCallCostLimit = 1_000_000;
let stepsLeft = Number.POSITIVE_INFINITY;

class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

/** One comprehension step of the running evaluation; past the limit the evaluation ends. */
function chargeStep(): void {
  if (--stepsLeft < 0) throw new CostLimitExceeded();
}

/** Runs a checked program: its value, or the CEL error in cel-go's words. Never throws for CEL errors. */
export function runProgram(run: ParseResult, activation: Readonly<Record<string, unknown>>): { ok: true; value: unknown } | { ok: false; message: string } {
  stepsLeft = perCallCostLimit;
  try {
    return { ok: true, value: run(activation) };
  } catch (e) {
    return { ok: false, message: celRuntimeMessage(e) };
  } finally {
    stepsLeft = Number.POSITIVE_INFINITY;
  }
}

/** The parts of cel-js's AST nodes the step count reaches (a node's meta is the evaluator it resolves to). */
interface CelNode {
  readonly op: string;
  readonly args: unknown;
  readonly meta: { evaluate: (this: CelNode, ...args: unknown[]) => unknown; alternate?: unknown };
}

function isCelNode(v: unknown): v is CelNode {
  return typeof v === 'object' && v !== null && typeof (v as { op?: unknown }).op === 'string' && 'args' in v && 'meta' in v;
}

/**
 * Makes every comprehension step of a checked AST count against {@link perCallCostLimit}. A step is
 * the node a comprehension evaluates per element (cel-js's macros expand into `comprehension` nodes,
 * reached through a call's `alternate`); the node resolves its evaluator from its meta on first use,
 * so the count wraps that before any evaluation. cel-js 8's AST layout: a unit test runs a nested
 * macro past the limit, so a layout change fails there.
 */
function countComprehensionSteps(node: unknown, seen = new WeakSet<object>()): void {
  if (Array.isArray(node)) {
    for (const child of node) countComprehensionSteps(child, seen);
    return;
  }
  if (!isCelNode(node) || seen.has(node)) return;
  seen.add(node);
  const args = node.args;
  if (node.op === 'comprehension' && typeof args === 'object' && args !== null) {
    const { iterable, init, step } = args as { iterable?: unknown; init?: unknown; step?: unknown };
    if (isCelNode(step)) {
      const evaluate = step.meta.evaluate;
      step.meta.evaluate = function countedStep(this: CelNode, ...rest: unknown[]): unknown {
        chargeStep();
        return evaluate.apply(this, rest);
      };
    }
    for (const child of [iterable, init, step]) countComprehensionSteps(child, seen);
  } else if (typeof args === 'object' && args !== null) {
    countComprehensionSteps(Array.isArray(args) ? args : Object.values(args), seen);
  }
  countComprehensionSteps(node.meta.alternate, seen);
}

/** Parses and type-checks `expression` in `env`: the program and its result type, or `compilation failed: ...` as cel-go reports it. */
export function parseAndCheck(env: Environment, expression: string): { ok: true; run: ParseResult; type: string } | { ok: false; message: string } {
  let run: ParseResult;
  try {
    run = env.parse(expression);
  } catch (e) {
    return { ok: false, message: `compilation failed: ${compilationIssue(expression, e, true)}` };
  }
  const checked = run.check();
  if (!checked.valid) return { ok: false, message: `compilation failed: ${compilationIssue(expression, checked.error, false)}` };
  const issues = validateCheckedAst(run.ast);
  if (issues.length > 0) return { ok: false, message: `compilation failed: ${issues.map((i) => issueAt(expression, i.offset, i.message)).join('\n')}` };
  countComprehensionSteps(run.ast);
  return { ok: true, run, type: checked.type ?? 'dyn' };
}

/** cel-go's issue layout: `ERROR: <input>:line:col: msg`, the source line and a caret. */
function compilationIssue(expression: string, e: unknown, syntax: boolean): string {
  const summary = e instanceof ParseError || e instanceof CelTypeError ? e.summary : e instanceof Error ? e.message : String(e);
  const start = e instanceof ParseError || e instanceof CelTypeError ? (e.range?.start ?? 0) : 0;
  return issueAt(expression, start, syntax ? `Syntax error: ${summary}` : celGoWording(summary));
}

/** One issue at offset `start` of the expression, with its line and a caret under it. */
function issueAt(expression: string, start: number, message: string): string {
  const before = expression.slice(0, start);
  const line = before.split('\n').length;
  const col = start - (before.lastIndexOf('\n') + 1) + 1;
  const src = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col}: ${message}\n | ${src}\n | ${'.'.repeat(col - 1)}^`;
}

// The type-checker messages users meet most often, in cel-go's words.
function celGoWording(summary: string): string {
  const unknownVariable = /^Unknown variable: (.+)$/.exec(summary);
  if (unknownVariable) return `undeclared reference to '${unknownVariable[1]}' (in container '')`;
  const noKey = /^No such key: (.+)$/.exec(summary);
  if (noKey) return `undefined field '${noKey[1]}'`;
  return summary;
}

/** A runtime error as cel-go words it. */
export function celRuntimeMessage(e: unknown): string {
  const summary = e instanceof Error && 'summary' in e && typeof e.summary === 'string' ? e.summary : e instanceof Error ? e.message : String(e);
  // cel-go spells its runtime errors in lower case ("no such key: foo").
  return summary.replace(/^No such key: /, 'no such key: ');
}

export function celTypeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (v === null) return 'null_type';
  if (v instanceof CelQuantity) return 'kubernetes.Quantity';
  if (v instanceof CelSemver) return 'kubernetes.Semver';
  if (v instanceof Map) return 'map';
  if (Array.isArray(v)) return 'list';
  return 'dyn';
}

