// The CEL environment of DRA device selectors: one variable `device` (driver, attributes,
// capacity, allowMultipleAllocations), the Kubernetes quantity and semver libraries and cel.bind,
// on top of @marcbachmann/cel-js. Expressions compile once and are cached by their text.
// Upstream: staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go,
// staging/src/k8s.io/apiserver/pkg/cel/library/{quantity.go,semverlib.go}.
import { Environment } from '@marcbachmann/cel-js';
import type { ParseResult } from '@marcbachmann/cel-js';
import { parseQuantity, quantityParseError } from '../../../core/index.ts';
import { CelQuantity, CelSemver, boundedMemo, celGoTypeName, celTypeName, parseAndCheck, runProgram, withKubernetesLibraries } from '../../cel-libraries.ts';
import type * as resourceV1 from './types.ts';
import { isSemverError, parseSemver } from './semver.ts';

export { CelQuantity, CelSemver } from '../../cel-libraries.ts';

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

function buildEnvironment(): Environment {
  return withKubernetesLibraries(new Environment({ homogeneousAggregateLiterals: false, enableOptionalTypes: true }))
    .registerType('kubernetes.DRADevice', {
      ctor: CelDevice,
      fields: {
        driver: 'string',
        attributes: 'map<string, map<string, dyn>>',
        capacity: 'map<string, map<string, Quantity>>',
        allowMultipleAllocations: 'bool',
      },
    })
    .registerVariable('device', 'kubernetes.DRADevice');
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

/**
 * CompileCELExpression: parse and type-check against the DRA environment, cached by text.
 * Errors read `compilation failed: ERROR: <input>:L:C: ...` or
 * `must evaluate to bool or the unknown type, not <type>`, as upstream.
 */
export const compileDeviceSelector: (expression: string) => CompileResult = boundedMemo(compile);

function compile(expression: string): CompileResult {
  const checked = parseAndCheck(env(), expression);
  if (!checked.ok) return checked;
  if (checked.type !== 'bool' && checked.type !== 'dyn') return { ok: false, message: `must evaluate to bool or the unknown type, not ${celGoTypeName(checked.type)}` };
  return { ok: true, program: { expression, run: checked.run } };
}

export type EvalResult = { ok: true; matches: boolean } | { ok: false; message: string };

/** DeviceMatches: run a compiled selector against one device. Never throws for CEL errors. */
export function evaluate(program: DeviceSelectorProgram, device: CelDevice): EvalResult {
  const result = runProgram(program.run, { device });
  if (!result.ok) return result;
  const value = result.value;
  if (typeof value !== 'boolean') return { ok: false, message: `CEL result of type ${celTypeName(value)} could not be converted to bool` };
  return { ok: true, matches: value };
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
