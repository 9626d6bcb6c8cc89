// Validation shared by the resource.k8s.io kinds: driver, pool and qualified names, CEL device
// selectors (compiled against the DRA CEL environment), opaque config,
// claim specs, tolerations and taints.
// Upstream: pkg/apis/resource/validation/validation.go.
import { parse } from '@marcbachmann/cel-js';
import { compileDeviceSelector } from './cel.ts';
import { FieldPath, duplicate, invalidValue, notSupported, required, tooLong, tooMany } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { byteLength, isCIdentifier, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../validation/names.ts';
import { ResourceLimits as L } from './types.ts';
import type {
  DeviceClaim,
  DeviceConfiguration,
  DeviceRequest,
  DeviceSelector,
  DeviceSubRequest,
  DeviceTaint,
  DeviceToleration,
  ExactDeviceRequest,
  ResourceClaimSpec,
} from './types.ts';

type Errs = FieldError[];

const msgsToErrs = (msgs: string[], path: FieldPath, value: unknown): Errs => msgs.map((m) => invalidValue(path, value, m));

/** ValidateCSIDriverName, which DRA driver names reuse. */
export function validateDriverName(name: string | undefined, path: FieldPath): Errs {
  const v = name ?? '';
  const errs: Errs = [];
  if (!v) errs.push(required(path, ''));
  if (v.length > 63) errs.push(tooLong(path, 63));
  errs.push(...msgsToErrs(isDNS1123Subdomain(v.toLowerCase()), path, v));
  return errs;
}

export const validateDNSLabel = (v: string, path: FieldPath): Errs => msgsToErrs(isDNS1123Label(v), path, v);
export const validateDNSSubdomain = (v: string, path: FieldPath): Errs => msgsToErrs(isDNS1123Subdomain(v), path, v);

export function validatePoolName(name: string | undefined, path: FieldPath): Errs {
  if (!name) return [required(path, '')];
  const errs: Errs = [];
  if (name.length > L.PoolNameMaxLength) errs.push(tooLong(path, L.PoolNameMaxLength));
  for (const part of name.split('/')) errs.push(...validateDNSSubdomain(part, path));
  return errs;
}

function validateCIdentifier(id: string, path: FieldPath): Errs {
  const errs: Errs = [];
  if (id.length > L.DeviceMaxIDLength) errs.push(tooLong(path, L.DeviceMaxIDLength));
  errs.push(...msgsToErrs(isCIdentifier(id), path, id));
  return errs;
}

/**
 * Names already found valid: a driver publishes the same attribute and capacity names on every
 * device of every slice, and checking them again was most of a slice's validation. Bounded, as the
 * names are user data; invalid names are checked afresh (their messages are built then).
 */
const validQualifiedNames = new Set<string>();

/** Whether validateQualifiedName finds nothing wrong with `name`. */
export function isValidQualifiedName(name: string): boolean {
  if (validQualifiedNames.has(name)) return true;
  if (validateQualifiedName(name, FieldPath.root('')).length > 0) return false;
  if (validQualifiedNames.size >= 4096) validQualifiedNames.clear();
  validQualifiedNames.add(name);
  return true;
}

/** A C identifier, or `<driver-like domain>/<C identifier>`. */
export function validateQualifiedName(name: string, path: FieldPath): Errs {
  const parts = name.split('/');
  if (parts.length === 1) return validateCIdentifier(name, path);
  const errs: Errs = [];
  const [domain = '', id = ''] = parts;
  if (!domain) errs.push(invalidValue(path, '', 'the domain must not be empty'));
  else errs.push(...validateDriverName(domain, path));
  if (!id) errs.push(invalidValue(path, '', 'the name must not be empty'));
  else errs.push(...validateCIdentifier(id, path));
  return errs;
}

export function validateFullyQualifiedName(name: string, path: FieldPath): Errs {
  const errs = validateQualifiedName(name, path);
  if (!name.includes('/')) errs.push(invalidValue(path, name, 'a fully qualified name must be a domain and a name separated by a slash'));
  return errs;
}

/** validateSlice: too many entries short-circuits the item checks. */
export function validateList<T>(items: readonly T[] | undefined, max: number, path: FieldPath, each: (item: T, p: FieldPath) => Errs): Errs {
  const list = items ?? [];
  if (max >= 0 && list.length > max) return [tooMany(path, list.length, max)];
  return list.flatMap((item, i) => each(item, path.index(i)));
}

/** validateSet: validateList plus a Duplicate error per repeated key. */
export function validateSet<T>(items: readonly T[] | undefined, max: number, path: FieldPath, each: (item: T, p: FieldPath) => Errs, key: (item: T) => string): Errs {
  const list = items ?? [];
  if (max >= 0 && list.length > max) return [tooMany(path, list.length, max)];
  const errs = list.flatMap((item, i) => each(item, path.index(i)));
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) errs.push(duplicate(path.index(i), k));
    else seen.add(k);
  });
  return errs;
}

/**
 * The CEL selector check: length, then compilation against the DRA environment (syntax, types,
 * a bool result), reported as upstream's `compilation failed: <cel-go issue>`. An expression the
 * object already had (`stored`, on update) is only parsed, as upstream compiles stored expressions
 * leniently so that an object written by an older server stays updatable.
 */
export function validateCELExpression(expression: string, path: FieldPath, stored?: ReadonlySet<string>): Errs {
  const p = path.child('expression');
  if (byteLength(expression) > L.CELSelectorExpressionMaxLength) return [tooLong(p, L.CELSelectorExpressionMaxLength)];
  if (stored?.has(expression)) {
    try {
      parse(expression);
      return [];
    } catch {
      // A stored expression that no longer parses gets the full compiler's message below.
    }
  }
  const compiled = compileDeviceSelector(expression);
  return compiled.ok ? [] : [invalidValue(p, expression, compiled.message)];
}

/** The selector expressions of an object before an update: they compile leniently. */
export function storedExpressions(selectors: readonly DeviceSelector[] | undefined): ReadonlySet<string> {
  return new Set((selectors ?? []).map((s) => s.cel?.expression ?? ''));
}

export function validateSelectors(selectors: readonly DeviceSelector[] | undefined, path: FieldPath, stored?: ReadonlySet<string>): Errs {
  return validateList(selectors, L.DeviceSelectorsMaxSize, path, (s, p) =>
    s.cel ? validateCELExpression(s.cel.expression ?? '', p.child('cel'), stored) : [required(p.child('cel'), '')],
  );
}

/** validateRawExtension for opaque parameters: a JSON object of at most 10Ki. */
function validateParameters(value: unknown, path: FieldPath, max: number): Errs {
  if (value === undefined || value === null) return [required(path, '')];
  const raw = JSON.stringify(value);
  if (byteLength(raw) > max) return [tooLong(path, max)];
  if (typeof value !== 'object' || Array.isArray(value)) return [invalidValue(path, '<value omitted>', 'must be a valid JSON object')];
  return [];
}

export function validateDeviceConfiguration(config: DeviceConfiguration, path: FieldPath): Errs {
  if (!config.opaque) return [required(path.child('opaque'), '')];
  const p = path.child('opaque');
  return [...validateDriverName(config.opaque.driver, p.child('driver')), ...validateParameters(config.opaque.parameters, p.child('parameters'), L.OpaqueParametersMaxLength)];
}

const taintEffects = ['NoExecute', 'NoSchedule', 'None'];

function validateLabelValue(value: string, path: FieldPath): Errs {
  return msgsToErrs(isValidLabelValue(value), path, value);
}

export function validateDeviceToleration(t: DeviceToleration, path: FieldPath): Errs {
  const errs: Errs = [];
  if (t.key) errs.push(...msgsToErrs(isQualifiedName(t.key), path.child('key'), t.key));
  const operator = (t.operator ?? '') as string;
  switch (operator) {
    case 'Exists':
      if (t.value) errs.push(invalidValue(path.child('value'), t.value, 'must be empty for operator `Exists`'));
      break;
    case 'Equal':
      errs.push(...validateLabelValue(t.value ?? '', path.child('value')));
      break;
    case '':
      errs.push(required(path.child('operator'), ''));
      break;
    default:
      errs.push(notSupported(path.child('operator'), operator, ['Equal', 'Exists']));
  }
  if (t.effect && !taintEffects.includes(t.effect)) errs.push(notSupported(path.child('effect'), t.effect, taintEffects));
  return errs;
}

export function validateDeviceTaint(t: DeviceTaint, path: FieldPath): Errs {
  const errs = msgsToErrs(isQualifiedName(t.key ?? ''), path.child('key'), t.key ?? '');
  if (t.value) errs.push(...validateLabelValue(t.value, path.child('value')));
  if (!t.effect) errs.push(required(path.child('effect'), ''));
  else if (!taintEffects.includes(t.effect)) errs.push(notSupported(path.child('effect'), t.effect, taintEffects));
  return errs;
}

function validateAllocationMode(mode: string | undefined, count: number | undefined, modePath: FieldPath, countPath: FieldPath): Errs {
  const c = count ?? 0;
  switch (mode) {
    case 'All':
      return c !== 0 ? [invalidValue(countPath, c, "must not be specified when allocationMode is 'All'")] : [];
    case 'ExactCount':
      return c <= 0 ? [invalidValue(countPath, c, 'must be greater than zero')] : [];
    default:
      return [notSupported(modePath, mode ?? '', ['All', 'ExactCount'])];
  }
}

function validateDeviceClassRef(name: string | undefined, path: FieldPath): Errs {
  return name ? validateDNSSubdomain(name, path) : [required(path, '')];
}

function validateSelection(r: ExactDeviceRequest | DeviceSubRequest, path: FieldPath): Errs {
  return [
    ...validateDeviceClassRef(r.deviceClassName, path.child('deviceClassName')),
    ...validateSelectors(r.selectors, path.child('selectors')),
    ...validateAllocationMode(r.allocationMode, r.count, path.child('allocationMode'), path.child('count')),
    ...(r.tolerations ?? []).flatMap((t, i) => validateDeviceToleration(t, path.child('tolerations').index(i))),
  ];
}

function validateDeviceRequest(r: DeviceRequest, path: FieldPath): Errs {
  const errs = validateDNSLabel(r.name ?? '', path.child('name'));
  const hasFirst = (r.firstAvailable ?? []).length > 0;
  const hasExactly = r.exactly !== undefined;
  if (!hasFirst && !hasExactly) errs.push(required(path, 'exactly one of `exactly` or `firstAvailable` is required'));
  else if (hasFirst && hasExactly) errs.push(invalidValue(path, null, 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'));
  else if (hasFirst) {
    errs.push(
      ...validateSet(r.firstAvailable, L.FirstAvailableDeviceRequestMaxSize, path.child('firstAvailable'), (s, p) => [
        ...validateDNSLabel(s.name ?? '', p.child('name')),
        ...validateSelection(s, p),
      ], (s) => s.name),
    );
  } else if (r.exactly) errs.push(...validateSelection(r.exactly, path.child('exactly')));
  return errs;
}

/** Request names, each with its subrequest names (empty for `exactly` requests). */
export function gatherRequestNames(claim: DeviceClaim | undefined): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  for (const r of claim?.requests ?? []) names.set(r.name, new Set((r.firstAvailable ?? []).map((s) => s.name)));
  return names;
}

const requestRefMsg = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

export function validateRequestNameRef(name: string, path: FieldPath, names: Map<string, Set<string>>): Errs {
  const segments = name.split('/');
  if (segments.length > 2) return [invalidValue(path, name, requestRefMsg)];
  const errs = segments.flatMap((s) => validateDNSLabel(s, path));
  const [req = '', sub] = segments;
  const subs = names.get(req);
  if (!subs || (sub !== undefined && !subs.has(sub))) errs.push(invalidValue(path, name, requestRefMsg));
  return errs;
}

function validateRequestRefs(refs: readonly string[] | undefined, path: FieldPath, names: Map<string, Set<string>>): Errs {
  return validateSet(refs, L.DeviceRequestsMaxSize, path, (n, p) => validateRequestNameRef(n, p, names), (n) => n);
}

/** validateResourceClaimSpec (new expressions). */
export function validateResourceClaimSpec(spec: ResourceClaimSpec | undefined, path: FieldPath): Errs {
  const devices = spec?.devices ?? {};
  const p = path.child('devices');
  const names = gatherRequestNames(devices);
  return [
    ...validateSet(devices.requests, L.DeviceRequestsMaxSize, p.child('requests'), validateDeviceRequest, (r) => r.name),
    ...validateList(devices.constraints, L.DeviceConstraintsMaxSize, p.child('constraints'), (c, cp) => {
      const errs = validateRequestRefs(c.requests, cp.child('requests'), names);
      if (c.matchAttribute !== undefined) errs.push(...validateFullyQualifiedName(c.matchAttribute, cp.child('matchAttribute')));
      else if (c.distinctAttribute !== undefined) errs.push(...validateFullyQualifiedName(c.distinctAttribute, cp.child('distinctAttribute')));
      else errs.push(required(cp.child('matchAttribute'), ''));
      return errs;
    }),
    ...validateList(devices.config, L.DeviceConfigMaxSize, p.child('config'), (c, cp) => [
      ...validateRequestRefs(c.requests, cp.child('requests'), names),
      ...validateDeviceConfiguration(c, cp),
    ]),
  ];
}
