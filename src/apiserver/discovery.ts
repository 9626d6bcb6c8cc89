// Discovery documents: legacy (/api, /api/v1, /apis, /apis/<g>, /apis/<g>/<v>) and
// aggregated (apidiscovery.k8s.io/v2), built from the ResourceIndex and kept encoded per generation,
// the aggregated ones with their ETag.
// Upstream: apiserver/pkg/endpoints/discovery/{legacy.go,aggregated/handler.go,aggregated/etag.go}
// (the aggregated handler, too, serves a cached serialization and its tag until a group-version is
// added or removed).
import type { ResourceDefinition, SubresourceDefinition, Verb } from '../api/index.ts';
import { allVerbs } from '../api/index.ts';
import type { ResourceIndex } from './resource-index.ts';
import type { GroupVersion } from './aggregated-apis.ts';
import { contentHash } from './conditional-get.ts';

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

function resourceList(index: ResourceIndex, group: string, version: string): Record<string, unknown> | undefined {
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
function apiGroupList(index: ResourceIndex, remote: readonly GroupVersion[] = []): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups(index, remote)].map(([name, versions]) => apiGroup(name, versions)) };
}

function apiGroupDocument(index: ResourceIndex, group: string, remote: readonly GroupVersion[] = []): Record<string, unknown> | undefined {
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

/** The items of the APIGroupDiscoveryList for /api (legacy group) or /apis; the same in v2 and v2beta1. */
function aggregatedItems(index: ResourceIndex, prefix: 'api' | 'apis', remote: readonly GroupVersion[]): Record<string, unknown>[] {
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
  return items;
}

/** What each document was built into, valid while the index keeps the generation it was built at. */
const builtDocuments = new WeakMap<ResourceIndex, { generation: number; byKey: Map<string, unknown> }>();

/**
 * What `build` makes, built once per index generation. `key` names everything else it is built from
 * (its kind, version and the remote group-versions): every client's start asks for the same few
 * documents, and a CRD or an APIService changes them rarely. A path that names nothing is not kept,
 * so requests for made-up groups cannot grow the cache.
 */
function builtOnce<T>(index: ResourceIndex, key: string, build: () => T | undefined): T | undefined {
  let cache = builtDocuments.get(index);
  if (cache?.generation !== index.generation) builtDocuments.set(index, (cache = { generation: index.generation, byKey: new Map() }));
  if (cache.byKey.has(key)) return cache.byKey.get(key) as T;
  const built = build();
  if (built !== undefined) cache.byKey.set(key, built);
  return built;
}

function encodedOnce(index: ResourceIndex, key: string, build: () => Record<string, unknown> | undefined): string | undefined {
  return builtOnce(index, key, () => {
    const doc = build();
    return doc === undefined ? undefined : JSON.stringify(doc);
  });
}

function remoteKey(remote: readonly GroupVersion[]): string {
  return remote.map((gv) => `${gv.group}/${gv.version}`).join(',');
}

export function encodedResourceList(index: ResourceIndex, group: string, version: string): string | undefined {
  return encodedOnce(index, `resources ${group}/${version}`, () => resourceList(index, group, version));
}

export function encodedApiGroupList(index: ResourceIndex, remote: readonly GroupVersion[]): string {
  return encodedOnce(index, `groups ${remoteKey(remote)}`, () => apiGroupList(index, remote)) ?? '';
}

export function encodedApiGroupDocument(index: ResourceIndex, group: string, remote: readonly GroupVersion[] = []): string | undefined {
  return encodedOnce(index, `group ${group} ${remoteKey(remote)}`, () => apiGroupDocument(index, group, remote));
}

/** An aggregated discovery document and its entity tag, quoted for the ETag header. */
export interface TaggedDiscovery {
  readonly json: string;
  readonly etag: string;
}

/**
 * The APIGroupDiscoveryList of /api or /apis in `apiVersion` (v2 or v2beta1). Its tag, as upstream's
 * calculateETag, hashes the list without its kind and apiVersion, so both versions (and any
 * encoding) share one: Vary: Accept keeps caches from mixing them. It changes whenever the items do
 * (a CRD or an APIService added or removed).
 */
export function encodedAggregatedDiscovery(index: ResourceIndex, prefix: 'api' | 'apis', apiVersion: string, remote: readonly GroupVersion[]): TaggedDiscovery {
  const remoteNames = remoteKey(remote);
  return builtOnce(index, `aggregated ${prefix} ${apiVersion} ${remoteNames}`, () => {
    const { items, etag } = builtOnce(index, `aggregated ${prefix} ${remoteNames}`, () => {
      const built = aggregatedItems(index, prefix, remote);
      return { items: built, etag: `"${contentHash(JSON.stringify({ metadata: {}, items: built }))}"` };
    })!;
    return { json: JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion, metadata: {}, items }), etag };
  })!;
}
