// What an object counts against a ResourceQuota, shared by the quota admission and the quota
// controller: a pod's compute usage (its effective requests and limits, with native sidecars and
// overhead; nothing once it has finished), object counts (`count/<resource>`, `pods`, `services`,
// ...), claims' requested storage, and which quotas a pod falls under by scope. Pure.
// Upstream: pkg/quota/v1/evaluator/core/pods.go (PodUsageFunc, podComputeUsageHelper, Constraints,
// podMatchesScopeFunc), persistent_volume_claims.go, services.go, pkg/quota/v1/generic, resources.go.
import { addQuantities, compareQuantities, formatQuantity, isZeroQuantity, lookupTable, parseQuantity, quantityFromMilli, quantityFromValue, quantityNanoValue, quantityValue, subtractQuantities } from '../../../core/index.ts';
import type { DeepReadonly, Quantity } from '../../../core/index.ts';
import { computePodQOS } from './pod/qos.ts';
import type { Container, Pod } from './pod/types.ts';
import { podResourceLimits, podResourceRequests } from './pod-resources.ts';
import type { ResourceAmounts } from './pod-resources.ts';
import type { ResourceQuota } from './resource-quota.ts';
import type { PersistentVolumeClaim } from './persistent-volume-claim.ts';
import type { ServiceSpec } from './service-types.ts';
import { betaStorageClassAnnotation } from './volume-access.ts';

export type Usage = Record<string, string>;

/** Legacy names for object counts (resources.go). */
const legacyCounts: Readonly<Record<string, string>> = lookupTable({ pods: 'pods', services: 'services', configmaps: 'configmaps', secrets: 'secrets', persistentvolumeclaims: 'persistentvolumeclaims', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers' });
const standardRequests = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** count/<resource>.<group>: what every stored object of a resource counts as. */
export const objectCountName = (group: string, resource: string): string => `count/${resource}${group ? `.${group}` : ''}`;

/** The object count a quota's hard resource is measured by (undefined for compute resources). */
export function countedBy(hardName: string): string | undefined {
  if (hardName.startsWith('count/')) return hardName;
  if (legacyCounts[hardName]) return `count/${hardName}`;
  if (hardName === 'requests.storage' || isClaimResourceByClass(hardName)) return 'count/persistentvolumeclaims';
  if (hardName === 'services.loadbalancers' || hardName === 'services.nodeports') return 'count/services';
  if (hardName.endsWith(devicesPerClassSuffix)) return objectCountName('resource.k8s.io', 'resourceclaims');
  return undefined;
}

function amount(name: string, value: number): string {
  if (name === 'cpu') return formatQuantity(quantityFromMilli(value));
  return formatQuantity(quantityFromValue(value, value !== 0 && value % 1024 === 0 && name !== 'pods' ? 'BinarySI' : 'DecimalSI'));
}

/** podComputeUsageHelper: requests and limits under their quota names (extended resources: requests only). */
function computeUsage(requests: ResourceAmounts, limits: ResourceAmounts): Usage {
  const out: Usage = { pods: '1' };
  for (const [name, v] of Object.entries(requests)) {
    if (standardRequests.has(name)) {
      out[name] = amount(name, v);
      out[`requests.${name}`] = amount(name, v);
    } else if (name.startsWith('hugepages-')) out[`requests.${name}`] = amount(name, v);
    else if (name.includes('/') && !name.startsWith('kubernetes.io/')) out[`requests.${name}`] = amount(name, v);
  }
  for (const [name, v] of Object.entries(limits)) if (standardRequests.has(name)) out[`limits.${name}`] = amount(name, v);
  return out;
}

/** pods.go podResources: the quota names a pod is measured by, besides hugepages and extended requests. */
const podResources = new Set(['count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods']);

/** podEvaluator.MatchingResources: which of a quota's resource names a pod can count against. */
export function podMatchingResources(names: readonly string[]): string[] {
  const extendedRequest = (n: string): boolean => n.startsWith('requests.') && n.includes('/') && !n.slice('requests.'.length).startsWith('kubernetes.io/');
  return names.filter((n) => podResources.has(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || extendedRequest(n));
}

/** quota.RemoveZeros: a zero amount cannot take a quota over, so admission does not weigh it. */
export function withoutZeroUsage(usage: Readonly<Usage>): Usage {
  return Object.fromEntries(Object.entries(usage).filter(([, v]) => {
    const parsed = parseQuantity(v);
    return parsed === undefined || !isZeroQuantity(parsed);
  }));
}

/** QuotaV1Pod: a finished pod, or one past its deletion grace period, no longer counts its compute. */
export function podCountsCompute(pod: DeepReadonly<Pod>, now: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deleted = pod.metadata.deletionTimestamp;
  if (deleted && Date.parse(deleted) + (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000 < now) return false;
  return true;
}

/** PodUsageFunc. */
export function podUsage(pod: DeepReadonly<Pod>, now: number): Usage {
  const count = { 'count/pods': '1' };
  if (!podCountsCompute(pod, now)) return count;
  return { ...count, ...computeUsage(podResourceRequests(pod, { useStatusResources: true }), podResourceLimits(pod, { useStatusResources: true })) };
}

/** <class>.storageclass.storage.k8s.io/<resource>: a claim resource counted per storage class. */
const storageClassSuffix = '.storageclass.storage.k8s.io/';
const claimResources = ['persistentvolumeclaims', 'requests.storage'];
const isClaimResourceByClass = (name: string): boolean => claimResources.some((r) => name.endsWith(storageClassSuffix + r));

interface CountedObject {
  metadata?: { annotations?: Readonly<Record<string, string>> };
  spec?: unknown;
  status?: unknown;
}
type ClaimFields = DeepReadonly<Pick<PersistentVolumeClaim, 'spec' | 'status'>>;

/** A stored quantity in whole units: storage is charged in bytes (issue 94313). */
function roundedUp(text: string): string {
  const parsed = parseQuantity(text);
  if (!parsed || quantityNanoValue(parsed) % 1_000_000_000n === 0n) return text;
  return formatQuantity(quantityFromValue(quantityValue(parsed), parsed.format));
}

/** pvcEvaluator.getStorageUsage: the request, or status.allocatedResources when that is larger (an expansion under way). */
function claimStorage(claim: ClaimFields): string | undefined {
  const requested = claim.spec?.resources?.requests?.['storage'];
  if (requested === undefined) return undefined;
  const allocated = claim.status?.allocatedResources?.['storage'];
  const [r, a] = [parseQuantity(requested), allocated === undefined ? undefined : parseQuantity(allocated)];
  return roundedUp(allocated !== undefined && r && a && compareQuantities(a, r) > 0 ? allocated : requested);
}

/** pvcEvaluator.Usage: the claim, its storage, and both again under its storage class. */
function claimUsage(obj: CountedObject, out: Usage): void {
  const claim = obj as ClaimFields;
  // GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName.
  const className = obj.metadata?.annotations?.[betaStorageClassAnnotation] ?? claim.spec?.storageClassName ?? '';
  if (className) out[`${className}${storageClassSuffix}persistentvolumeclaims`] = '1';
  const storage = claimStorage(claim);
  if (storage === undefined) return;
  out['requests.storage'] = storage;
  if (className) out[`${className}${storageClassSuffix}requests.storage`] = storage;
}

/** serviceEvaluator.Usage: node ports and load balancers are measured (as 0) for every type. */
function serviceUsage(obj: CountedObject, out: Usage): void {
  const spec = obj.spec as DeepReadonly<ServiceSpec> | undefined;
  const ports = spec?.ports ?? [];
  out['services.loadbalancers'] = spec?.type === 'LoadBalancer' ? '1' : '0';
  let nodePorts = 0;
  if (spec?.type === 'NodePort') nodePorts = ports.length;
  // With node ports suppressed only the ones asked for by number are taken.
  else if (spec?.type === 'LoadBalancer') nodePorts = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
  out['services.nodeports'] = String(nodePorts);
}

/** <class>.deviceclass.resource.k8s.io/devices: the devices a claim asks for, per DeviceClass. */
const devicesPerClassSuffix = '.deviceclass.resource.k8s.io/devices';
/** resourceapi.AllocationResultsMaxSize: what a request for All devices is charged, its worst case. */
const allocationResultsMaxSize = 32;

interface ClaimDeviceRequest {
  deviceClassName?: string;
  allocationMode?: string;
  count?: number;
}

function devicesAskedFor(r: ClaimDeviceRequest): number {
  if (r.allocationMode === 'ExactCount') return r.count ?? 1;
  // An unknown mode (after a downgrade) is not charged.
  return r.allocationMode === 'All' ? allocationResultsMaxSize : 0;
}

/** claimEvaluator.Usage: each request's devices under its class; a prioritized list its worst case per class. */
function resourceClaimUsage(obj: CountedObject, out: Usage): void {
  const requests = (obj.spec as { devices?: { requests?: readonly { exactly?: ClaimDeviceRequest; firstAvailable?: readonly ClaimDeviceRequest[] }[] } } | undefined)?.devices?.requests ?? [];
  const devices = new Map<string, number>();
  const charge = (className: string | undefined, n: number): void => {
    const key = `${className ?? ''}${devicesPerClassSuffix}`;
    devices.set(key, (devices.get(key) ?? 0) + n);
  };
  for (const request of requests) {
    if (request.firstAvailable?.length) {
      const worst = new Map<string | undefined, number>();
      for (const sub of request.firstAvailable) worst.set(sub.deviceClassName, Math.max(worst.get(sub.deviceClassName) ?? 0, devicesAskedFor(sub)));
      for (const [className, n] of worst) charge(className, n);
    } else if (request.exactly) charge(request.exactly.deviceClassName, devicesAskedFor(request.exactly));
  }
  for (const [key, n] of devices) out[key] = String(n);
}

/** What any other object counts: itself, under its count/ name and legacy name, plus what a claim or a service measures. */
export function objectUsage(group: string, resource: string, obj: CountedObject): Usage {
  const out: Usage = { [objectCountName(group, resource)]: '1' };
  if (group === '' && legacyCounts[resource]) out[resource] = '1';
  if (group === '' && resource === 'persistentvolumeclaims') claimUsage(obj, out);
  if (group === '' && resource === 'services') serviceUsage(obj, out);
  if (group === 'resource.k8s.io' && resource === 'resourceclaims') resourceClaimUsage(obj, out);
  return out;
}

const serviceResources = new Set(['count/services', 'services', 'services.nodeports', 'services.loadbalancers']);

/** MatchingResources of every evaluator but the pods': which of a quota's resource names an object of the resource can count against. */
export function objectMatchingResources(group: string, resource: string, names: readonly string[]): string[] {
  if (group === '' && resource === 'persistentvolumeclaims') return names.filter((n) => n === 'count/persistentvolumeclaims' || claimResources.includes(n) || isClaimResourceByClass(n));
  if (group === '' && resource === 'services') return names.filter((n) => serviceResources.has(n));
  if (group === 'resource.k8s.io' && resource === 'resourceclaims') return names.filter((n) => n === objectCountName(group, resource) || n.endsWith(devicesPerClassSuffix));
  const own = new Set([objectCountName(group, resource), ...(group === '' && legacyCounts[resource] ? [resource] : [])]);
  return names.filter((n) => own.has(n));
}

/** quota.IsNegative: the resources a usage would take below zero. */
export function negativeUsage(usage: Readonly<Usage>): string[] {
  return Object.keys(usage).filter((k) => {
    const parsed = q(usage[k]);
    return parsed !== undefined && quantityNanoValue(parsed) < 0n;
  });
}

export function addUsage(a: Readonly<Usage>, b: Readonly<Usage>): Usage {
  const out: Usage = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    const x = parseQuantity(v);
    const y = prev === undefined ? undefined : parseQuantity(prev);
    out[k] = x && y ? formatQuantity(addQuantities(y, x)) : v;
  }
  return out;
}

/** quota.SubtractWithNonNegativeResult: what `a` adds over `b`, per resource of `a`, never below zero. */
export function subtractUsage(a: Readonly<Usage>, b: Readonly<Usage>): Usage {
  const out: Usage = {};
  for (const [k, v] of Object.entries(a)) {
    const x = parseQuantity(v);
    const y = b[k] === undefined ? undefined : parseQuantity(b[k]);
    if (!x || !y) out[k] = v;
    else out[k] = compareQuantities(x, y) > 0 ? formatQuantity(subtractQuantities(x, y)) : '0';
  }
  return out;
}

const q = (text: string | undefined): Quantity | undefined => (text === undefined ? undefined : parseQuantity(text));

/** The resources of `usage` that go above `hard` (quota.LessThanOrEqual). */
export function exceededResources(usage: Readonly<Usage>, hard: Readonly<Usage>): string[] {
  return Object.keys(usage).filter((k) => {
    const limit = q(hard[k]);
    const used = q(usage[k]);
    return limit !== undefined && used !== undefined && compareQuantities(used, limit) > 0;
  });
}

/** podMatchesScopeFunc plus the scope selector: does this quota's scope take in the pod? */
export function quotaCoversPod(quota: DeepReadonly<ResourceQuota>, pod: DeepReadonly<Pod>): boolean {
  const matches = (scope: string, op: string, values: readonly string[]): boolean => {
    switch (scope) {
      case 'Terminating':
        return pod.spec.activeDeadlineSeconds !== undefined && pod.spec.activeDeadlineSeconds >= 0;
      case 'NotTerminating':
        return pod.spec.activeDeadlineSeconds === undefined;
      case 'BestEffort':
        return computePodQOS(pod) === 'BestEffort';
      case 'NotBestEffort':
        return computePodQOS(pod) !== 'BestEffort';
      case 'PriorityClass': {
        const name = pod.spec.priorityClassName ?? '';
        if (op === 'Exists') return name !== '';
        if (op === 'DoesNotExist') return name === '';
        if (op === 'NotIn') return !values.includes(name);
        return values.includes(name);
      }
      case 'CrossNamespacePodAffinity': {
        const terms = [...(pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []), ...(pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])];
        return terms.some((t) => (t.namespaces?.length ?? 0) > 0 || t.namespaceSelector !== undefined);
      }
      default:
        return false;
    }
  };
  return (quota.spec?.scopes ?? []).every((s) => matches(s, 'Exists', [])) && (quota.spec?.scopeSelector?.matchExpressions ?? []).every((r) => matches(r.scopeName, r.operator, r.values ?? []));
}

/** The VolumeAttributesClasses a claim names: asked for, current, and the target of a modification under way. */
function attributesClassesOf(claim: ClaimFields): string[] {
  const names = [claim.spec?.volumeAttributesClassName, claim.status?.currentVolumeAttributesClassName, claim.status?.modifyVolumeStatus?.targetVolumeAttributesClassName];
  return [...new Set(names.filter((n): n is string => !!n))];
}

/**
 * RequiresQuotaReplenish: a claim's change matters to quota when it changes the allocated storage or
 * the attributes classes named. (Upstream compares the two storage quantities by pointer, so it weighs
 * every claim write; one with nothing to charge is let through either way.)
 */
export function claimQuotaChanged(old: CountedObject, obj: CountedObject): boolean {
  const allocated = (c: CountedObject): string | undefined => (c as ClaimFields).status?.allocatedResources?.['storage'];
  return allocated(old) !== allocated(obj) || attributesClassesOf(old as ClaimFields).sort().join(',') !== attributesClassesOf(obj as ClaimFields).sort().join(',');
}

/** pvcMatchesScopeFunc: only the VolumeAttributesClass scope selects claims, as a label selector over the classes named. */
function claimMatchesScope(claim: ClaimFields, scope: string, op: string, values: readonly string[]): boolean {
  if (scope !== 'VolumeAttributesClass') return false;
  const classes = attributesClassesOf(claim);
  const matches = (name: string | undefined): boolean => {
    if (op === 'Exists') return name !== undefined;
    if (op === 'DoesNotExist') return name === undefined;
    if (op === 'NotIn') return name === undefined || !values.includes(name);
    return name !== undefined && values.includes(name);
  };
  return classes.length === 0 ? matches(undefined) : classes.some(matches);
}

/**
 * Evaluator.Matches' scope half for any object: pods by their scopes, claims by VolumeAttributesClass,
 * and nothing else under a scoped quota (MatchesNoScopeFunc).
 */
export function quotaCoversObject(group: string, resource: string, quota: DeepReadonly<ResourceQuota>, obj: CountedObject): boolean {
  if (group === '' && resource === 'pods') return quotaCoversPod(quota, obj as DeepReadonly<Pod>);
  const selectors = [...(quota.spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists', values: [] as readonly string[] })), ...(quota.spec?.scopeSelector?.matchExpressions ?? []).map((r) => ({ scopeName: r.scopeName, operator: r.operator, values: r.values ?? [] }))];
  if (selectors.length === 0) return true;
  if (!(group === '' && resource === 'persistentvolumeclaims')) return false;
  return selectors.every((r) => claimMatchesScope(obj as ClaimFields, r.scopeName, r.operator, r.values));
}

const requiredForEveryContainer = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** Constraints: a quota on cpu or memory needs every container to say it (`must specify ...`), or undefined. */
export function missingContainerResources(pod: DeepReadonly<Pod>, quotaResources: readonly string[]): string | undefined {
  const required = requiredForEveryContainer.filter((r) => quotaResources.includes(r));
  if (required.length === 0) return undefined;
  const missing = new Map<string, string[]>();
  const check = (c: DeepReadonly<Container>): void => {
    const requests: ResourceAmounts = {};
    const limits: ResourceAmounts = {};
    for (const k of ['cpu', 'memory']) {
      if (c.resources?.requests?.[k] !== undefined) requests[k] = 0;
      if (c.resources?.limits?.[k] !== undefined) limits[k] = 0;
    }
    const has = new Set(Object.keys(computeUsage(requests, limits)));
    for (const r of required) if (!has.has(r)) missing.set(r, [...(missing.get(r) ?? []), c.name]);
  };
  for (const c of pod.spec.containers) check(c);
  for (const c of pod.spec.initContainers ?? []) check(c);
  if (missing.size === 0) return undefined;
  return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${[...new Set(missing.get(r))].sort().join(',')}`).join('; ')}`;
}
