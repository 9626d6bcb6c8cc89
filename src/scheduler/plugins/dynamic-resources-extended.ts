// Extended resources backed by DRA (DRAExtendedResource): which DeviceClass serves an extended
// resource name, and the pod's "special claim" (one request per container and mapped resource the
// node does not offer through a device plugin) that DynamicResources allocates and PreBind creates.
// Upstream: pkg/scheduler/framework/plugins/dynamicresources/extended/extended.go (DeviceClassMapping),
// dynamicresources/extendedresources.go, pkg/scheduler/util/utils.go (IsDRAExtendedResourceName).
import type { Container, resourceV1 } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { isExtendedResourceName } from '../node-info.ts';
import type { PodRO } from '../framework.ts';
import type { ClaimRO } from './dynamic-resources-tracker.ts';

export const resourceDeviceClassPrefix = 'deviceclass.resource.kubernetes.io/';
export const extendedResourceClaimAnnotation = 'resource.kubernetes.io/extended-resource-claim';
/** Not a valid object name, so it never collides with a real claim. */
export const specialClaimInMemName = '<extended-resources>';
export const errReasonExtendedClaim = 'cannot schedule extended resource claim';

type ClassRO = DeepReadonly<resourceV1.DeviceClass>;
type ContainerRO = DeepReadonly<Container>;

export const isDRAExtendedResourceName = (name: string): boolean => isExtendedResourceName(name) || name.startsWith(resourceDeviceClassPrefix);

/**
 * Extended resource name -> DeviceClass name. Every class maps its implicit name; an explicit
 * extendedResourceName claimed by several classes goes to the newest, then the smallest name.
 */
export function deviceClassMapping(classes: readonly ClassRO[]): Map<string, string> {
  const out = new Map<string, string>();
  const winner = new Map<string, ClassRO>();
  for (const c of classes) {
    const className = c.metadata.name ?? '';
    out.set(resourceDeviceClassPrefix + className, className);
    const ext = c.spec?.extendedResourceName;
    if (!ext) continue;
    const prev = winner.get(ext);
    const created = c.metadata.creationTimestamp ?? '';
    const prevCreated = prev?.metadata.creationTimestamp ?? '';
    if (!prev || created > prevCreated || (created === prevCreated && className < (prev.metadata.name ?? ''))) winner.set(ext, c);
  }
  for (const [ext, c] of winner) out.set(ext, c.metadata.name ?? '');
  return out;
}

const containersOf = (pod: PodRO): ContainerRO[] => [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
const requestsOf = (c: ContainerRO): Readonly<Record<string, string>> => (c.resources?.requests ?? c.resources?.limits ?? {}) as Readonly<Record<string, string>>;
const integer = (q: string | undefined): number => {
  const n = Number(q ?? 0);
  return Number.isInteger(n) ? n : 0;
};

/** The mapped extended resources the pod asks for (non-zero), sorted. */
export function mappedPodResources(pod: PodRO, mapping: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const c of containersOf(pod)) {
    for (const [r, q] of Object.entries(requestsOf(c))) if (isDRAExtendedResourceName(r) && mapping.has(r) && integer(q) > 0) out.add(r);
  }
  return [...out].sort();
}

/** createDeviceRequests: `container-<i>-request-<j>`, j = the resource's index in the container's sorted request keys. */
export function createDeviceRequests(pod: PodRO, resources: readonly string[], mapping: ReadonlyMap<string, string>): resourceV1.DeviceRequest[] {
  const out: resourceV1.DeviceRequest[] = [];
  for (const [i, c] of containersOf(pod).entries()) {
    const reqs = requestsOf(c);
    const keys = Object.keys(reqs).sort();
    for (const r of resources) {
      const count = integer(reqs[r]);
      const className = mapping.get(r);
      if (count === 0 || !className) continue;
      out.push({ name: `container-${i}-request-${keys.indexOf(r)}`, exactly: { deviceClassName: className, allocationMode: 'ExactCount', count } });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** createRequestMappings: which container and resource each request of the special claim serves. */
export function createRequestMappings(requests: readonly DeepReadonly<resourceV1.DeviceRequest>[], pod: PodRO): { containerName: string; resourceName: string; requestName: string }[] {
  const names = new Set(requests.map((r) => r.name));
  const out: { containerName: string; resourceName: string; requestName: string }[] = [];
  for (const [i, c] of containersOf(pod).entries()) {
    const keys = Object.keys(requestsOf(c)).sort();
    for (const [j, r] of keys.entries()) {
      const requestName = `container-${i}-request-${j}`;
      if (names.has(requestName)) out.push({ containerName: c.name, resourceName: r, requestName });
    }
  }
  return out;
}

/** The in-memory special claim for one node (PreBind creates it under a generated name). */
export function specialClaim(pod: PodRO, requests: resourceV1.DeviceRequest[]): ClaimRO {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      namespace: pod.metadata.namespace ?? '',
      name: specialClaimInMemName,
      // A stand-in uid for the in-flight allocation until the real claim exists.
      uid: `${specialClaimInMemName}${pod.metadata.uid ?? ''}`,
      generateName: `${pod.metadata.name ?? ''}-extended-resources-`,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
      annotations: { [extendedResourceClaimAnnotation]: 'true' },
    },
    spec: { devices: { requests } },
  };
}

/** The special claim an earlier cycle created for the pod (annotation + controller ownerRef), if any. */
export function findExtendedResourceClaim(pod: PodRO, claims: readonly ClaimRO[]): ClaimRO | undefined {
  return claims.find(
    (c) => c.metadata.annotations?.[extendedResourceClaimAnnotation] === 'true' && (c.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === pod.metadata.uid && o.name === pod.metadata.name),
  );
}
