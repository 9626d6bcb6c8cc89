// The CEL environment of DRA device selectors: one variable `device` (driver, attributes,
// capacity, allowMultipleAllocations), the Kubernetes quantity and semver libraries and cel.bind,
// on top of @marcbachmann/cel-js. Expressions compile once and are cached by their text.
// Upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go,
// staging/src/k8s.io/apiserver/pkg/cel/library/{quantity.go,semverlib.go}.
import { Environment, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import type { ParseResult } from '@marcbachmann/cel-js';
import type { Quantity } from '../../../core/index.ts';
import { addQuantities, compareQuantities, parseQuantity, quantityFromValue, quantityNanoValue, quantityParseError, subtractQuantities } from '../../../core/index.ts';
import type * as resourceV1 from './types.ts';
import { compareSemver, isSemverError, normalizeSemverText, parseSemver } from './semver.ts';
import type { Semver } from './semver.ts';

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

type AttributeValue = bigint | boolean | string | CelSemver;

/**
 * The `device` variable. Build one per device with {@link toCelDevice} and reuse it for every
 * expression: the maps inside are read-only.
 */
export class CelDevice {
  readonly driver: string;
  readonly attributes: Map<string, Map<string, AttributeValue>>;
  readonly capacity: Map<string, Map<string, CelQuantity>>;
  readonly allowMultipleAllocations: boolean;
  constructor(driver: string, attributes: Map<string, Map<string, AttributeValue>>, capacity: Map<string, Map<string, CelQuantity>>, allowMultipleAllocations: boolean) {
    this.driver = driver;
    this.attributes = attributes;
    this.capacity = capacity;
    this.allowMultipleAllocations = allowMultipleAllocations;
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

function buildEnvironment(): Environment {
  return new Environment({ homogeneousAggregateLiterals: false })
    .registerType('Quantity', CelQuantity)
    .registerType('Semver', CelSemver)
    .registerType('kubernetes.DRADevice', {
      ctor: CelDevice,
      fields: {
        driver: 'string',
        attributes: 'map<string, map<string, dyn>>',
        capacity: 'map<string, map<string, Quantity>>',
        allowMultipleAllocations: 'bool',
      },
    })
    .registerVariable('device', 'kubernetes.DRADevice')
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

let environment: Environment | undefined;
function env(): Environment {
  environment ??= buildEnvironment();
  return environment;
}

/** A compiled selector; opaque to callers, evaluate it with {@link evaluate}. */
export interface DeviceSelectorProgram {
  readonly expression: string;
  readonly run: ParseResult;
}

export type CompileResult = { ok: true; program: DeviceSelectorProgram } | { ok: false; message: string };

// Upstream's cel.Cache keeps a bounded LRU; expressions come from a handful of classes and
// templates, so a generous bound only guards against unbounded growth.
const cacheLimit = 4096;
const cache = new Map<string, CompileResult>();

/**
 * CompileCELExpression: parse and type-check against the DRA environment, cached by text.
 * Errors read `compilation failed: ERROR: <input>:L:C: ...` or
 * `must evaluate to bool or the unknown type, not <type>`, as upstream.
 */
export function compileDeviceSelector(expression: string): CompileResult {
  const hit = cache.get(expression);
  if (hit) return hit;
  const result = compile(expression);
  if (cache.size >= cacheLimit) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(expression, result);
  return result;
}

function compile(expression: string): CompileResult {
  let run: ParseResult;
  try {
    run = env().parse(expression);
  } catch (e) {
    return { ok: false, message: `compilation failed: ${issue(expression, e, true)}` };
  }
  const checked = run.check();
  if (!checked.valid) return { ok: false, message: `compilation failed: ${issue(expression, checked.error, false)}` };
  if (checked.type !== 'bool' && checked.type !== 'dyn') return { ok: false, message: `must evaluate to bool or the unknown type, not ${celGoTypeName(checked.type ?? 'unknown')}` };
  return { ok: true, program: { expression, run } };
}

/** cel-go's issue layout: `ERROR: <input>:line:col: msg`, the source line and a caret. */
function issue(expression: string, e: unknown, syntax: boolean): string {
  const summary = e instanceof ParseError || e instanceof CelTypeError ? e.summary : e instanceof Error ? e.message : String(e);
  const start = e instanceof ParseError || e instanceof CelTypeError ? (e.range?.start ?? 0) : 0;
  const before = expression.slice(0, start);
  const line = before.split('\n').length;
  const col = start - (before.lastIndexOf('\n') + 1) + 1;
  const src = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col}: ${syntax ? `Syntax error: ${summary}` : celGoWording(summary)}\n | ${src}\n | ${'.'.repeat(col - 1)}^`;
}

/** cel-go spells types `map(string, dyn)`, `kubernetes.Quantity`. */
function celGoTypeName(t: string): string {
  return t.replaceAll('<', '(').replaceAll('>', ')').replace(/\b(Quantity|Semver)\b/g, 'kubernetes.$1');
}

// The type-checker messages users meet most often, in cel-go's words.
function celGoWording(summary: string): string {
  const unknownVariable = /^Unknown variable: (.+)$/.exec(summary);
  if (unknownVariable) return `undeclared reference to '${unknownVariable[1]}' (in container '')`;
  const noKey = /^No such key: (.+)$/.exec(summary);
  if (noKey) return `undefined field '${noKey[1]}'`;
  return summary;
}

export type EvalResult = { ok: true; matches: boolean } | { ok: false; message: string };

/** DeviceMatches: run a compiled selector against one device. Never throws for CEL errors. */
export function evaluate(program: DeviceSelectorProgram, device: CelDevice): EvalResult {
  let value: unknown;
  try {
    value = program.run({ device });
  } catch (e) {
    return { ok: false, message: runtimeMessage(e) };
  }
  if (typeof value !== 'boolean') return { ok: false, message: `CEL result of type ${celTypeName(value)} could not be converted to bool` };
  return { ok: true, matches: value };
}

function runtimeMessage(e: unknown): string {
  const summary = e instanceof Error && 'summary' in e && typeof e.summary === 'string' ? e.summary : e instanceof Error ? e.message : String(e);
  // cel-go spells its runtime errors in lower case ("no such key: foo").
  return summary.replace(/^No such key: /, 'no such key: ');
}

function celTypeName(v: unknown): string {
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

const emptyDomain: ReadonlyMap<string, never> = new Map<string, never>();

// Upstream returns an empty map for an unknown domain (newStringInterfaceMapWithDefault). cel-js
// dispatches on `constructor === Map`, so a subclass would not do: the instance's own `get`
// falls back instead.
function withEmptyDefault<V>(m: Map<string, Map<string, V>>): Map<string, Map<string, V>> {
  const get = Map.prototype.get;
  Object.defineProperty(m, 'get', { value: (k: string) => get.call(m, k) ?? emptyDomain, enumerable: false });
  return m;
}

/** Splits a qualified name into domain and id; unqualified names belong to the driver. */
export function splitQualifiedName(name: string, driver: string): [domain: string, id: string] {
  const i = name.indexOf('/');
  return i < 0 ? [driver, name] : [name.slice(0, i), name.slice(i + 1)];
}

function attributeValue(a: resourceV1.DeviceAttribute): AttributeValue | { error: string } {
  if (a.int !== undefined) return BigInt(a.int);
  if (a.bool !== undefined) return a.bool;
  if (a.string !== undefined) return a.string;
  if (a.version !== undefined) {
    const v = parseSemver(a.version);
    return isSemverError(v) ? { error: `parse semantic version: ${v.error}` } : new CelSemver(v);
  }
  return { error: 'unsupported attribute value' };
}

/** The CEL view of a device; an error string when an attribute cannot be represented. */
export function toCelDevice(driver: string, device: resourceV1.Device): CelDevice | { error: string } {
  const attributes = new Map<string, Map<string, AttributeValue>>();
  for (const [name, attr] of Object.entries(device.attributes ?? {})) {
    const value = attributeValue(attr);
    if (typeof value === 'object' && !(value instanceof CelSemver)) return { error: `attribute ${name}: ${value.error}` };
    const [domain, id] = splitQualifiedName(name, driver);
    let inner = attributes.get(domain);
    if (!inner) attributes.set(domain, (inner = new Map()));
    inner.set(id, value);
  }
  const capacity = new Map<string, Map<string, CelQuantity>>();
  for (const [name, cap] of Object.entries(device.capacity ?? {})) {
    const q = parseQuantity(cap.value);
    if (!q) return { error: `capacity ${name}: ${quantityParseError(cap.value) ?? 'invalid quantity'}` };
    const [domain, id] = splitQualifiedName(name, driver);
    let inner = capacity.get(domain);
    if (!inner) capacity.set(domain, (inner = new Map()));
    inner.set(id, new CelQuantity(q));
  }
  return new CelDevice(driver, withEmptyDefault(attributes), withEmptyDefault(capacity), device.allowMultipleAllocations === true);
}
