// Discovery documents: legacy (/api, /api/v1, /apis, /apis/<g>, /apis/<g>/<v>) and
// aggregated (apidiscovery.k8s.io/v2), built from the ResourceIndex and cached per generation.
// Upstream: apiserver/pkg/endpoints/discovery/{legacy.go,aggregated/handler.go}.
import type { ResourceDefinition, SubresourceDefinition, Verb } from '../api/index.ts';
import { allVerbs } from '../api/index.ts';
import type { ResourceIndex } from './resource-index.ts';
import type { GroupVersion } from './aggregated-apis.ts';

function verbsOf(def: ResourceDefinition): Verb[] {
  return [...(def.verbs ?? allVerbs)].sort();
}

function apiResource(def: ResourceDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: def.resource,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: verbsOf(def),
  };
  if (def.shortNames?.length) out.shortNames = def.shortNames;
  if (def.categories?.length) out.categories = def.categories;
  return out;
}

function apiSubresource(def: ResourceDefinition, sub: SubresourceDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = { name: `${def.resource}/${sub.name}`, singularName: '', namespaced: def.namespaced, kind: sub.kind ?? def.kind, verbs: [...sub.verbs] };
  if (sub.group !== undefined) out.group = sub.group;
  if (sub.version !== undefined) out.version = sub.version;
  return out;
}

export function resourceList(index: ResourceIndex, group: string, version: string): Record<string, unknown> | undefined {
  const defs = index.inGroupVersion(group, version);
  if (defs.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const def of defs) {
    resources.push(apiResource(def));
    for (const sub of def.subresources ?? []) resources.push(apiSubresource(def, sub));
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groups(index: ResourceIndex, remote: readonly GroupVersion[] = []): Map<string, string[]> {
  const byGroup = new Map<string, string[]>();
  for (const gv of [...index.groupVersions(), ...remote]) {
    if (gv.group === '') continue;
    const versions = byGroup.get(gv.group) ?? [];
    if (!versions.includes(gv.version)) versions.push(gv.version);
    byGroup.set(gv.group, versions);
  }
  return byGroup;
}

function apiGroup(name: string, versions: string[]): Record<string, unknown> {
  const list = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

/** /apis: the served groups, and those of APIServices that send to a Service (`remote`). */
export function apiGroupList(index: ResourceIndex, remote: readonly GroupVersion[] = []): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups(index, remote)].map(([name, versions]) => apiGroup(name, versions)) };
}

export function apiGroupDocument(index: ResourceIndex, group: string, remote: readonly GroupVersion[] = []): Record<string, unknown> | undefined {
  const versions = groups(index, remote).get(group);
  return versions ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) } : undefined;
}

function discoveryResource(def: ResourceDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {
    resource: def.resource,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: verbsOf(def),
  };
  if (def.shortNames?.length) out.shortNames = def.shortNames;
  if (def.categories?.length) out.categories = def.categories;
  if (def.subresources?.length) {
    out.subresources = def.subresources.map((sub) => ({
      subresource: sub.name,
      responseKind: { group: sub.group ?? def.group, version: sub.version ?? def.version, kind: sub.kind ?? def.kind },
      verbs: [...sub.verbs],
    }));
  }
  return out;
}

/** apidiscovery.k8s.io/v2 APIGroupDiscoveryList for /api (legacy group) or /apis. */
export function aggregatedDiscovery(index: ResourceIndex, prefix: 'api' | 'apis', apiVersion: string, remote: readonly GroupVersion[] = []): Record<string, unknown> {
  const items: Record<string, unknown>[] = [];
  const byGroup = new Map<string, string[]>();
  for (const gv of index.groupVersions()) {
    if ((prefix === 'api') !== (gv.group === '')) continue;
    const versions = byGroup.get(gv.group) ?? [];
    versions.push(gv.version);
    byGroup.set(gv.group, versions);
  }
  for (const [group, versions] of byGroup) {
    items.push({
      metadata: group ? { name: group, creationTimestamp: null } : { creationTimestamp: null },
      versions: versions.map((version) => ({
        version,
        resources: index.inGroupVersion(group, version).map(discoveryResource),
        freshness: 'Current',
      })),
    });
  }
  // An APIService whose discovery could not be fetched is listed without resources, Stale (clients
  // report "stale GroupVersion discovery" for it).
  for (const gv of remote) {
    if ((prefix === 'api') !== (gv.group === '')) continue;
    const stale = { version: gv.version, freshness: 'Stale' };
    const existing = items.find((i) => (i.metadata as { name?: string }).name === gv.group) as { versions: unknown[] } | undefined;
    if (existing) existing.versions.push(stale);
    else items.push({ metadata: gv.group ? { name: gv.group, creationTimestamp: null } : { creationTimestamp: null }, versions: [stale] });
  }
  return { kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items };
}
