// Client: how every component reaches the API. LocalClient (in-process, same request
// pipeline as HTTP) and HttpClient implement it; informers and controllers use only this.
//
// Contract:
// - Every method resolves with the object as the server stored it (or would store it,
//   with dryRun), or rejects with an ApiError carrying the upstream reason and code.
// - Objects returned are the caller's to read; treat them as immutable.
// - watch delivers events in resourceVersion order until stopped, the signal aborts,
//   the server ends the stream, or an ERROR event arrives (then onClose follows).
import type { ResourceRef } from '../api/index.ts';
import type { KubeObject, ListMeta } from '../core/index.ts';
import type { Status } from '../core/index.ts';

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

export interface ObjectList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface ClientWatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  /** For ERROR events the object is a Status. */
  object: T | (Status & KubeObject);
}

export interface ClientWatch {
  stop(): void;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** Write to a subresource: status, binding, eviction, resize, scale. */
  subresource?: string;
}

export interface PatchOptions extends WriteOptions {
  /** Server-side apply: take ownership of conflicting fields. */
  force?: boolean;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

/** One served resource, as discovery lists it. */
export interface DiscoveredResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: readonly string[];
}

export interface Client {
  /**
   * The same connection to the same server, identifying as another program: as with client-go's
   * rest.Config.UserAgent, the part before the first `/` names the field manager of the writes
   * that give no fieldManager (`kube-controller-manager`, `kubelet`, ...).
   */
  withUserAgent(userAgent: string): Client;
  /** The served resources (top-level only, no subresources), as discovery reports them. */
  discover(): Promise<DiscoveredResource[]>;
  get<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, options?: { subresource?: string }): Promise<T>;
  list<T extends KubeObject = KubeObject>(ref: ResourceRef, options?: ListOptions): Promise<ObjectList<T>>;
  watch<T extends KubeObject = KubeObject>(
    ref: ResourceRef,
    options: WatchOptions,
    onEvent: (event: ClientWatchEvent<T>) => void,
    onClose?: (error?: unknown) => void,
  ): ClientWatch;
  /** For subresources that create (binding, eviction), pass the parent's name in `name`. */
  create<T extends KubeObject = KubeObject>(ref: ResourceRef, obj: KubeObject, options?: WriteOptions & { namespace?: string; name?: string }): Promise<T>;
  update<T extends KubeObject = KubeObject>(ref: ResourceRef, obj: T, options?: WriteOptions): Promise<T>;
  /** Shorthand for update with subresource 'status'. */
  updateStatus<T extends KubeObject = KubeObject>(ref: ResourceRef, obj: T, options?: WriteOptions): Promise<T>;
  patch<T extends KubeObject = KubeObject>(
    ref: ResourceRef,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    body: unknown,
    options?: PatchOptions,
  ): Promise<T>;
  /** Resolves with the object when deletion is pending (finalizers, graceful pods), else with a Success Status. */
  delete(ref: ResourceRef, namespace: string | undefined, name: string, options?: DeleteOptions): Promise<KubeObject | Status>;
}

/**
 * A program's User-Agent as client-go's DefaultKubernetesUserAgent spells it:
 * `<program>/<gitVersion> (linux/amd64) kubernetes/<commit>`.
 */
export function kubernetesUserAgent(program: string, gitVersion: string): string {
  return `${program}/${gitVersion} (linux/amd64) kubernetes/0000000`;
}
