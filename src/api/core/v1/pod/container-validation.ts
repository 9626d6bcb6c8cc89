// Validation of one container and its parts (ports, env, mounts, resources, probes, handlers, resizePolicy)
// for regular, init (incl. native sidecars) and ephemeral containers, with upstream's paths and messages.
// Upstream: pkg/apis/core/validation/validation.go (validateContainerCommon, validateResourceRequirements, ...).
import { duplicate, FieldPath, forbiddenField, invalidValue, notFoundField, notSupported, pushErrors, required } from '../../../../core/index.ts';
import type { FieldError } from '../../../../core/index.ts';
import { parseQuantity, quantityErrorMessage, formatQuantity, compareQuantities, quantityMilliValue } from '../../../../core/index.ts';
import type { Container, LifecycleHandler, Probe, ResourceRequirements, RestartPolicy } from './types.ts';
import { validateProcMount } from './security-context-validation.ts';
import { inclusiveRangeError, isDNS1123Label, isQualifiedName, isRelaxedEnvVarName, isValidPortName, isValidPortNum } from './syntax.ts';

export interface ContainerContext {
  volumes: ReadonlySet<string>;
  claimNames: ReadonlySet<string>;
  gracePeriod: number | undefined;
  podRestartPolicy: RestartPolicy | undefined;
  /** The pod shares the host's user namespace (hostUsers unset or true). */
  hostUsers: boolean;
}

const nonNegative = 'must be greater than or equal to 0';
const pullPolicies = ['Always', 'IfNotPresent', 'Never'] as const; // sets.List: sorted

/** validatePullPolicy: a container's imagePullPolicy and an image volume's pullPolicy. */
export function validatePullPolicy(policy: string | undefined, path: FieldPath): FieldError[] {
  if (!policy) return [required(path)];
  return (pullPolicies as readonly string[]).includes(policy) ? [] : [notSupported(path, policy, pullPolicies)];
}

function nonNegativeField(v: number | undefined, path: FieldPath): FieldError[] {
  return v !== undefined && v < 0 ? [invalidValue(path, v, nonNegative)] : [];
}

export function validateContainerCommon(c: Container, path: FieldPath, ctx: ContainerContext): FieldError[] {
  const errs: FieldError[] = [];
  const namePath = path.child('name');
  if (!c.name) errs.push(required(namePath));
  else for (const m of isDNS1123Label(c.name)) errs.push(invalidValue(namePath, c.name, m));
  if (!c.image) errs.push(required(path.child('image')));
  else if (c.image.trim() !== c.image) errs.push(invalidValue(path.child('image'), c.image, 'must not have leading or trailing whitespace'));
  const tmp = c.terminationMessagePolicy;
  if (!tmp) errs.push(required(path.child('terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(notSupported(path.child('terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  pushErrors(errs, validatePorts(c, path.child('ports')));
  pushErrors(errs, validateEnv(c, path));
  pushErrors(errs, validateVolumeMounts(c, path.child('volumeMounts'), ctx.volumes));
  pushErrors(errs, validatePullPolicy(c.imagePullPolicy, path.child('imagePullPolicy')));
  pushErrors(errs, validateResourceRequirements(c.resources, path.child('resources'), ctx.claimNames, 'container'));
  pushErrors(errs, validateResizePolicy(c, path.child('resizePolicy'), ctx.podRestartPolicy));
  pushErrors(errs, validateProcMount(c.securityContext, path.child('securityContext'), ctx.hostUsers));
  return errs;
}

function validatePorts(c: Container, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (c.ports ?? []).forEach((p, i) => {
    const ip = path.index(i);
    if (p.name) {
      const msgs = isValidPortName(p.name);
      if (msgs.length) for (const m of msgs) errs.push(invalidValue(ip.child('name'), p.name, m));
      else if (names.has(p.name)) errs.push(duplicate(ip.child('name'), p.name));
      else names.add(p.name);
    }
    if (!p.containerPort) errs.push(required(ip.child('containerPort')));
    else for (const m of isValidPortNum(p.containerPort)) errs.push(invalidValue(ip.child('containerPort'), p.containerPort, m));
    if (p.hostPort) for (const m of isValidPortNum(p.hostPort)) errs.push(invalidValue(ip.child('hostPort'), p.hostPort, m));
    if (!p.protocol) errs.push(required(ip.child('protocol')));
    else if (!['SCTP', 'TCP', 'UDP'].includes(p.protocol)) errs.push(notSupported(ip.child('protocol'), p.protocol, ['SCTP', 'TCP', 'UDP']));
  });
  return errs;
}

function validateEnv(c: Container, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (c.env ?? []).forEach((e, i) => {
    const ip = path.child('env').index(i);
    if (!e.name) errs.push(required(ip.child('name')));
    else for (const m of isRelaxedEnvVarName(e.name)) errs.push(invalidValue(ip.child('name'), e.name, m));
    const vf = e.valueFrom;
    if (!vf) return;
    const n = [vf.fieldRef, vf.resourceFieldRef, vf.configMapKeyRef, vf.secretKeyRef, vf.fileKeyRef].filter((x) => x !== undefined).length;
    const vp = ip.child('valueFrom');
    if (n === 0) errs.push(invalidValue(vp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (e.value) errs.push(invalidValue(vp, '', 'may not be specified when `value` is not empty'));
    else if (n > 1) errs.push(invalidValue(vp, '', 'may not have more than one field specified at a time'));
  });
  (c.envFrom ?? []).forEach((e, i) => {
    const ip = path.child('envFrom').index(i);
    if (e.prefix) for (const m of isRelaxedEnvVarName(e.prefix)) errs.push(invalidValue(ip.child('prefix'), e.prefix, m));
    const n = (e.configMapRef ? 1 : 0) + (e.secretRef ? 1 : 0);
    if (n === 0) errs.push(invalidValue(path.child('envFrom'), '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (n > 1) errs.push(invalidValue(path.child('envFrom'), '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateVolumeMounts(c: Container, path: FieldPath, volumes: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const points = new Set<string>();
  (c.volumeMounts ?? []).forEach((m, i) => {
    const ip = path.index(i);
    if (!m.name) errs.push(required(ip.child('name')));
    if (!volumes.has(m.name)) errs.push(notFoundField(ip.child('name'), m.name));
    if (!m.mountPath) errs.push(required(ip.child('mountPath')));
    if (points.has(m.mountPath)) errs.push(invalidValue(ip.child('mountPath'), m.mountPath, 'must be unique'));
    points.add(m.mountPath);
    // Upstream reports these at the list's path, not the mount's (`volumeMounts.subPath`): kept as it is.
    if (m.subPath) pushErrors(errs, validateLocalDescendingPath(m.subPath, path.child('subPath')));
    if (m.subPathExpr) {
      if (m.subPath) errs.push(invalidValue(ip.child('subPathExpr'), m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      pushErrors(errs, validateLocalDescendingPath(m.subPathExpr, path.child('subPathExpr')));
    }
    if (m.mountPropagation !== undefined) pushErrors(errs, validateMountPropagation(m.mountPropagation, c, path.child('mountPropagation')));
    if (m.recursiveReadOnly !== undefined) pushErrors(errs, validateMountRecursiveReadOnly(m, path.child('recursiveReadOnly')));
  });
  return errs;
}

const mountPropagations = ['Bidirectional', 'HostToContainer', 'None'] as const; // sets.List: sorted
const recursiveReadOnlyModes = ['Disabled', 'Enabled', 'IfPossible'] as const; // sets.List: sorted

/** validateLocalDescendingPath: relative, with no `..` element (one error however many there are). */
function validateLocalDescendingPath(target: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(invalidValue(path, target, 'must be a relative path'));
  if (target.split('/').includes('..')) errs.push(invalidValue(path, target, "must not contain '..'"));
  return errs;
}

function validateMountPropagation(mode: string, c: Container, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!(mountPropagations as readonly string[]).includes(mode)) errs.push(notSupported(path, mode, mountPropagations));
  if (mode === 'Bidirectional' && c.securityContext?.privileged !== true) {
    errs.push(forbiddenField(path, 'Bidirectional mount propagation is available only to privileged containers'));
  }
  return errs;
}

/** RecursiveReadOnlyMounts (GA in 1.33): Enabled and IfPossible need a read-only mount that propagates nothing. */
function validateMountRecursiveReadOnly(m: NonNullable<Container['volumeMounts']>[number], path: FieldPath): FieldError[] {
  const mode = m.recursiveReadOnly;
  if (mode === 'Disabled') return [];
  if (mode !== 'Enabled' && mode !== 'IfPossible') return [notSupported(path, mode, recursiveReadOnlyModes)];
  const errs: FieldError[] = [];
  if (!m.readOnly) errs.push(forbiddenField(path, 'may only be specified when readOnly is true'));
  if (m.mountPropagation !== undefined && m.mountPropagation !== 'None') {
    errs.push(forbiddenField(path, 'may only be specified when mountPropagation is None or not specified'));
  }
  return errs;
}

// Resource name classes, as pkg/apis/core/helper names them.
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}
function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePages(name);
}
const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
const standardPodResources = new Set(['cpu', 'memory']);
const integerResources = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims']);
/** v1helper.IsExtendedResourceName: not native (domain-less or kubernetes.io/), not requests.-prefixed, a qualified name as a quota's. */
export function isExtendedResourceName(name: string): boolean {
  return !isNativeResource(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
}

export function validateResourceName(name: string, path: FieldPath, scope: 'container' | 'pod'): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalidValue(path, name, m));
  if (errs.length) return errs;
  if (!name.includes('/')) {
    const ok = scope === 'container' ? standardContainerResources.has(name) || isHugePages(name) : standardPodResources.has(name) || isHugePages(name);
    if (!ok) return [invalidValue(path, name, scope === 'container' ? 'must be a standard resource for containers' : 'must be a supported pod-level resource')];
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [invalidValue(path, name, "doesn't follow extended resource name standard")];
  }
  return [];
}

function hugePageSize(name: string): bigint | undefined {
  const q = parseQuantity(name.slice('hugepages-'.length));
  return q ? q.milli : undefined;
}

/** validateResourceRequirements for containers, overhead ('container' rules) and pod-level resources. */
export function validateResourceRequirements(
  r: ResourceRequirements | undefined,
  path: FieldPath,
  claimNames: ReadonlySet<string>,
  scope: 'container' | 'pod',
): FieldError[] {
  if (!r) return [];
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  let cpuMem = false;
  let huge = false;
  const check = (list: Record<string, string>, base: FieldPath, isRequest: boolean): void => {
    for (const name of Object.keys(list)) {
      const text = list[name] as string;
      const p = base.key(name);
      pushErrors(errs, validateResourceName(name, p, scope));
      const q = parseQuantity(text);
      if (!q) {
        errs.push(invalidValue(p, text, quantityErrorMessage));
        continue;
      }
      if (q.milli < 0n) errs.push(invalidValue(p, formatQuantity(q), nonNegative));
      if ((integerResources.has(name) || isExtendedResourceName(name)) && quantityMilliValue(q) % 1000 !== 0) {
        errs.push(invalidValue(p, formatQuantity(q), 'must be an integer'));
      }
      if (isRequest) {
        const limText = r.limits?.[name];
        const lim = limText !== undefined ? parseQuantity(limText) : undefined;
        if (lim) {
          const cmp = compareQuantities(q, lim);
          if (cmp !== 0 && !isOvercommitAllowed(name)) {
            errs.push(invalidValue(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(lim)}`));
          } else if (cmp > 0) {
            errs.push(invalidValue(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(lim)}`));
          }
        } else if (limText === undefined && !isOvercommitAllowed(name)) {
          errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
        }
      }
      if (isHugePages(name)) {
        huge = true;
        const size = hugePageSize(name);
        if (size !== undefined && (size === 0n || q.milli % size !== 0n)) {
          errs.push(invalidValue(p, formatQuantity(q), `${formatQuantity(q)} is not positive integer multiple of ${name}`));
        }
      }
      if (name === 'cpu' || name === 'memory') cpuMem = true;
    }
  };
  check(r.limits ?? {}, limPath, false);
  check(r.requests ?? {}, reqPath, true);
  if (!cpuMem && huge) errs.push(forbiddenField(path, 'HugePages require cpu or memory'));
  pushErrors(errs, validateClaimRefs(r, path.child('claims'), claimNames));
  return errs;
}

function validateClaimRefs(r: ResourceRequirements, path: FieldPath, claimNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (r.claims ?? []).forEach((c, i) => {
    const ip = path.index(i);
    if (!c.name) {
      errs.push(required(ip));
      return;
    }
    if (seen.has(c.name)) errs.push(duplicate(ip, c.name));
    else {
      let key = c.name;
      if (c.request) {
        for (const m of isDNS1123Label(c.request)) errs.push(invalidValue(ip.child('request'), c.request, m));
        key += `/${c.request}`;
      }
      if (seen.has(key)) errs.push(duplicate(ip, key));
      else if (!c.request) for (const k of seen) if (k.startsWith(`${c.name}/`)) errs.push(duplicate(ip, c.name));
      seen.add(key);
    }
    if (!claimNames.has(c.name)) {
      const names = [...claimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${names.length === 0 ? ' which is empty' : `: ${names.join(', ')}`}`;
      errs.push({ ...notFoundField(ip, c.name), detail });
    }
  });
  return errs;
}

function validateResizePolicy(c: Container, path: FieldPath, podRestartPolicy: RestartPolicy | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (c.resizePolicy ?? []).forEach((p, i) => {
    if (seen.has(p.resourceName)) errs.push(duplicate(path.index(i), p.resourceName));
    seen.add(p.resourceName);
    if (!p.resourceName) errs.push(required(path));
    else if (p.resourceName !== 'cpu' && p.resourceName !== 'memory') errs.push(notSupported(path, p.resourceName, ['cpu', 'memory']));
    if (!p.restartPolicy) errs.push(required(path));
    else if (p.restartPolicy !== 'NotRequired' && p.restartPolicy !== 'RestartContainer') {
      errs.push(notSupported(path, p.restartPolicy, ['NotRequired', 'RestartContainer']));
    }
    if (podRestartPolicy === 'Never' && p.restartPolicy !== 'NotRequired') {
      errs.push(invalidValue(path, p.restartPolicy, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
    }
  });
  return errs;
}

type Handler = { exec?: unknown; httpGet?: unknown; tcpSocket?: unknown; grpc?: unknown; sleep?: unknown };

function validatePortNumOrName(port: number | string, path: FieldPath): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalidValue(path, port, m));
  return isValidPortName(port).map((m) => invalidValue(path, port, m));
}

function validateHandler(h: Probe | LifecycleHandler, path: FieldPath, gracePeriod: number | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  const all = h as Handler & Probe & LifecycleHandler;
  for (const kind of ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'] as const) {
    if (all[kind] === undefined) continue;
    if (n > 0) {
      errs.push(forbiddenField(path.child(kind), 'may not specify more than 1 handler type'));
      continue;
    }
    n++;
    const p = path.child(kind);
    if (kind === 'exec' && !(all.exec?.command?.length)) errs.push(required(p.child('command')));
    if (kind === 'httpGet' && all.httpGet) {
      if (!all.httpGet.path) errs.push(required(p.child('path')));
      pushErrors(errs, validatePortNumOrName(all.httpGet.port, p.child('port')));
      const s = all.httpGet.scheme ?? '';
      if (s !== 'HTTP' && s !== 'HTTPS') errs.push(notSupported(p.child('scheme'), s, ['HTTP', 'HTTPS']));
    }
    if (kind === 'tcpSocket' && all.tcpSocket) pushErrors(errs, validatePortNumOrName(all.tcpSocket.port, p.child('port')));
    if (kind === 'grpc' && all.grpc) pushErrors(errs, validatePortNumOrName(all.grpc.port, p.child('port')));
    if (kind === 'sleep' && all.sleep && gracePeriod !== undefined && (all.sleep.seconds < 0 || all.sleep.seconds > gracePeriod)) {
      errs.push(invalidValue(p, all.sleep.seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`));
    }
  }
  if (n === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

export function validateProbe(kind: 'liveness' | 'readiness' | 'startup', p: Probe | undefined, path: FieldPath, gracePeriod: number | undefined): FieldError[] {
  if (!p) return [];
  const errs = validateHandler(p, path, gracePeriod);
  pushErrors(errs, nonNegativeField(p.initialDelaySeconds, path.child('initialDelaySeconds')));
  pushErrors(errs, nonNegativeField(p.timeoutSeconds, path.child('timeoutSeconds')));
  pushErrors(errs, nonNegativeField(p.periodSeconds, path.child('periodSeconds')));
  pushErrors(errs, nonNegativeField(p.successThreshold, path.child('successThreshold')));
  pushErrors(errs, nonNegativeField(p.failureThreshold, path.child('failureThreshold')));
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds <= 0) {
    errs.push(invalidValue(path.child('terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  if (kind !== 'readiness' && p.successThreshold !== 1) errs.push(invalidValue(path.child('successThreshold'), p.successThreshold ?? 0, 'must be 1'));
  if (kind === 'readiness' && p.terminationGracePeriodSeconds !== undefined) {
    errs.push(invalidValue(path.child('terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

/** Lifecycle and probes, allowed for regular containers and native sidecars. */
export function validateLifecycleAndProbes(c: Container, path: FieldPath, gracePeriod: number | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (c.lifecycle?.postStart) pushErrors(errs, validateHandler(c.lifecycle.postStart, path.child('lifecycle', 'postStart'), gracePeriod));
  if (c.lifecycle?.preStop) pushErrors(errs, validateHandler(c.lifecycle.preStop, path.child('lifecycle', 'preStop'), gracePeriod));
  pushErrors(errs, validateProbe('liveness', c.livenessProbe, path.child('livenessProbe'), gracePeriod));
  pushErrors(errs, validateProbe('readiness', c.readinessProbe, path.child('readinessProbe'), gracePeriod));
  pushErrors(errs, validateProbe('startup', c.startupProbe, path.child('startupProbe'), gracePeriod));
  return errs;
}

export { inclusiveRangeError };
