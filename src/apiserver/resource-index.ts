// The set of served resources, looked up by group/version/resource and by kind.
// Built-in definitions are fixed at start; custom resources can be added and removed.
import type { ResourceDefinition } from '../api/index.ts';

export interface GroupVersion {
  group: string;
  version: string;
}

export class ResourceIndex {
  #byResource = new Map<string, ResourceDefinition>();
  #byKind = new Map<string, ResourceDefinition>();
  #groupVersions: GroupVersion[] = [];
  #generation = 0;

  constructor(definitions: readonly ResourceDefinition[]) {
    for (const def of definitions) this.add(def);
  }

  add(def: ResourceDefinition): void {
    this.#byResource.set(resourceKey(def.group, def.version, def.resource), def);
    this.#byKind.set(resourceKey(def.group, def.version, def.kind), def);
    if (!this.#groupVersions.some((gv) => gv.group === def.group && gv.version === def.version)) {
      this.#groupVersions.push({ group: def.group, version: def.version });
    }
    this.#generation++;
  }

  remove(group: string, version: string, resource: string): void {
    const def = this.#byResource.get(resourceKey(group, version, resource));
    if (!def) return;
    this.#byResource.delete(resourceKey(group, version, resource));
    this.#byKind.delete(resourceKey(group, version, def.kind));
    if (!this.all().some((d) => d.group === group && d.version === version)) {
      this.#groupVersions = this.#groupVersions.filter((gv) => !(gv.group === group && gv.version === version));
    }
    this.#generation++;
  }

  find(group: string, version: string, resource: string): ResourceDefinition | undefined {
    return this.#byResource.get(resourceKey(group, version, resource));
  }

  findKind(group: string, version: string, kind: string): ResourceDefinition | undefined {
    return this.#byKind.get(resourceKey(group, version, kind));
  }

  all(): ResourceDefinition[] {
    return [...this.#byResource.values()];
  }

  inGroupVersion(group: string, version: string): ResourceDefinition[] {
    return this.all().filter((d) => d.group === group && d.version === version);
  }

  groupVersions(): readonly GroupVersion[] {
    return this.#groupVersions;
  }

  /** Bumped on every change, so discovery documents can be cached per generation. */
  get generation(): number {
    return this.#generation;
  }
}

function resourceKey(group: string, version: string, name: string): string {
  return `${group}/${version}/${name}`;
}
