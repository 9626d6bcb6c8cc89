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
  // A plugin that decides at once returns nothing: only a promise is waited for, and a chain whose
  // plugins all decide at once (most writes: a pod in a plain namespace) returns nothing either, so
  // the write costs no async frame or turn of the microtask queue here. A refusal throws at once.
  mutate(attributes: AdmissionAttributes): Promise<void> | undefined {
    return inTurn(this.#mutating, 0, (p) => p.mutate?.(attributes));
  }
  validate(attributes: AdmissionAttributes): Promise<void> | undefined {
    return inTurn(this.#validating, 0, (p) => p.validate?.(attributes));
  }
  validateDelete(attributes: DeleteAdmissionAttributes): Promise<void> | undefined {
    return inTurn(this.#validatingDeletes, 0, (p) => p.validateDelete?.(attributes));
  }
}

/** Each plugin's step in order from `from`; once one returns a promise, the rest follow it. */
function inTurn(plugins: readonly AdmissionPlugin[], from: number, step: (plugin: AdmissionPlugin) => void | Promise<void>): Promise<void> | undefined {
  // An indexed loop: a for-of allocates an iterator result per plugin.
  for (let i = from; i < plugins.length; i++) {
    const pending = step(plugins[i] as AdmissionPlugin);
    if (pending) return pending.then(() => inTurn(plugins, i + 1, step));
  }
  return undefined;
}

/**
 * The name an admission refusal gives (admission.NewForbidden's extractResourceName): the object's
 * name, its generateName before a name is generated, else "Unknown".
 */
export function admissionName(obj: KubeObject): string {
  return obj.metadata.name || obj.metadata.generateName || 'Unknown';
}
