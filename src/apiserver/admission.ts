// Admission: the ordered chain of mutating then validating plugins every write passes,
// after defaulting and before storage. Plugins are plain objects; the chain is built once
// in admission-plugins.ts (the registry), never by import side effects.
// Upstream: apiserver/pkg/admission/interfaces.go, chain.go.
import type { ResourceDefinition } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { DeleteRequest, ResourceStorage, WriteContext } from './resource-storage.ts';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  def: ResourceDefinition;
  /**
   * The name the URL gives, when the object is a subresource's own kind (a Binding, an Eviction, a
   * TokenRequest, a PodExecOptions) rather than the object named; otherwise the object's name.
   */
  name?: string | undefined;
  /** The URL's namespace, for an object that has no metadata (a connecter's options). */
  namespace?: string | undefined;
  /** The object being written; mutating plugins change it in place. */
  object: KubeObject;
  old: KubeObject | undefined;
  ctx: WriteContext;
  /** For plugins that must read other objects (namespaces, priority classes). */
  storage: ResourceStorage;
}

/** A DELETE as validating admission sees it: no new object, the one being deleted as the old. */
export interface DeleteAdmissionAttributes {
  def: ResourceDefinition;
  old: KubeObject;
  ctx: WriteContext;
  storage: ResourceStorage;
  /** The DeleteOptions the request carried. */
  options: DeleteRequest;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating phase; throw an ApiError to reject. */
  mutate?(attributes: AdmissionAttributes): void | Promise<void>;
  /** Validating phase; must not change the object; throw an ApiError to reject. */
  validate?(attributes: AdmissionAttributes): void | Promise<void>;
  /** Validating phase of a DELETE, before the object is marked or removed; throw an ApiError to refuse. */
  validateDelete?(attributes: DeleteAdmissionAttributes): void | Promise<void>;
}

/**
 * An admission step that costs a write a turn of the microtask queue only when it is about that
 * write: `applies` decides at once, and only then does the (async) step run.
 */
export function onlyFor(applies: (attrs: AdmissionAttributes) => boolean, step: (attrs: AdmissionAttributes) => Promise<void>): (attrs: AdmissionAttributes) => Promise<void> | undefined {
  return (attrs) => (applies(attrs) ? step(attrs) : undefined);
}

export class Admission {
  readonly #mutating: AdmissionPlugin[];
  readonly #validating: AdmissionPlugin[];
  readonly #validatingDeletes: AdmissionPlugin[];
  constructor(plugins: readonly AdmissionPlugin[]) {
    this.#mutating = plugins.filter((p) => p.mutate);
    this.#validating = plugins.filter((p) => p.validate);
    this.#validatingDeletes = plugins.filter((p) => p.validateDelete);
  }
  // A plugin that decides at once returns nothing: only a promise is awaited, so the plugins with
  // nothing to do for a write (most of them, on most writes) cost it no turn of the microtask queue.
  // Indexed loops: a for-of across an await allocates an iterator result per plugin.
  async mutate(attributes: AdmissionAttributes): Promise<void> {
    const plugins = this.#mutating;
    for (let i = 0; i < plugins.length; i++) {
      const pending = (plugins[i] as AdmissionPlugin).mutate?.(attributes);
      if (pending) await pending;
    }
  }
  async validate(attributes: AdmissionAttributes): Promise<void> {
    const plugins = this.#validating;
    for (let i = 0; i < plugins.length; i++) {
      const pending = (plugins[i] as AdmissionPlugin).validate?.(attributes);
      if (pending) await pending;
    }
  }
  async validateDelete(attributes: DeleteAdmissionAttributes): Promise<void> {
    const plugins = this.#validatingDeletes;
    for (let i = 0; i < plugins.length; i++) {
      const pending = (plugins[i] as AdmissionPlugin).validateDelete?.(attributes);
      if (pending) await pending;
    }
  }
}

/**
 * The name an admission refusal gives (admission.NewForbidden's extractResourceName): the object's
 * name, its generateName before a name is generated, else "Unknown".
 */
export function admissionName(obj: KubeObject): string {
  return obj.metadata.name || obj.metadata.generateName || 'Unknown';
}
