// The in-process Client: calls the ApiServer pipeline directly, without sockets or JSON
// encoding. Results are the shared decoded objects of the stored values; watch events are
// delivered on a microtask, never inside the writer's call stack.
import type { ResourceRef, UserInfo } from '../api/index.ts';
import type { KubeObject, Status } from '../core/index.ts';
import type {
  Client,
  ClientWatch,
  ClientWatchEvent,
  DeleteOptions,
  DiscoveredResource,
  ListOptions,
  ObjectList,
  PatchOptions,
  PatchType,
  WatchOptions,
  WriteOptions,
} from '../client/index.ts';
import { allVerbs, apiVersionOf } from '../api/index.ts';
import { copyJson, successStatus } from '../core/index.ts';
import { listMetadata, resultObject } from './encode.ts';
import type { ApiServer, ObjectResult } from './server.ts';
import { afterComponentTurn } from './short-turns.ts';
import { storedObject } from './stored-object.ts';
import type { ServerWatchEvent } from './watch.ts';

/**
 * `userAgent` names the caller as HTTP clients do; without a fieldManager, its prefix before
 * the first `/` becomes the manager of the fields a write sets (default `drydock`).
 */
/**
 * `user` is who the writes are made as, as a program's credentials say who it is (the kubelet of a node is
 * `system:node:<name>`): admission (policies, webhooks) sees it. Without one the writes carry no user,
 * as the cluster's own plumbing does.
 */
export function createLocalClient(server: ApiServer, options: { userAgent?: string; user?: UserInfo } = {}): Client {
  return new LocalClient(server, options.userAgent ?? 'drydock/v1.35.0 (in-process)', options.user);
}

class LocalClient implements Client {
  readonly #server: ApiServer;
  readonly #userAgent: string;
  readonly #user: UserInfo | undefined;
  constructor(server: ApiServer, userAgent: string, user: UserInfo | undefined) {
    this.#server = server;
    this.#userAgent = userAgent;
    this.#user = user;
  }

  withUserAgent(userAgent: string): Client {
    return new LocalClient(this.#server, userAgent, this.#user);
  }

  async discover(): Promise<DiscoveredResource[]> {
    return this.#server.index.all().map((def) => ({
      group: def.group,
      version: def.version,
      resource: def.resource,
      kind: def.kind,
      namespaced: def.namespaced,
      verbs: [...(def.verbs ?? allVerbs)],
    }));
  }

  async get<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, options?: { subresource?: string }): Promise<T> {
    return object<T>(await this.#server.get(ref, namespace ?? '', name, options?.subresource ?? ''));
  }

  async list<T extends KubeObject>(ref: ResourceRef, options: ListOptions = {}): Promise<ObjectList<T>> {
    const { def, page } = await this.#server.list(ref, options.namespace ?? '', options);
    return {
      apiVersion: apiVersionOf(def),
      kind: `${def.kind}List`,
      metadata: listMetadata(page),
      items: page.items.map((kv) => storedObject(kv) as T),
    };
  }

  watch<T extends KubeObject>(ref: ResourceRef, options: WatchOptions, onEvent: (event: ClientWatchEvent<T>) => void, onClose?: (error?: unknown) => void): ClientWatch {
    let stopped = false;
    let active: { stop(): void } | undefined;
    let queue: ServerWatchEvent[] = [];
    let scheduled = false;
    let closedByServer = false;
    const flush = (): void => {
      scheduled = false;
      const batch = queue;
      queue = [];
      for (const event of batch) {
        if (stopped) return;
        onEvent(toClientEvent<T>(event));
      }
      if (closedByServer && !stopped) {
        stopped = true;
        onClose?.();
      }
    };
    const schedule = (): void => {
      if (!scheduled) {
        scheduled = true;
        void resolved.then(flush);
      }
    };
    this.#server
      .watch(ref, options.namespace ?? '', options, {
        send: (event) => {
          queue.push(event);
          schedule();
        },
        close: () => {
          closedByServer = true;
          schedule();
        },
      })
      .then(({ watch }) => {
        if (stopped) watch.stop();
        else active = watch;
      })
      .catch((error: unknown) => {
        if (stopped) return;
        stopped = true;
        onClose?.(error);
      });
    return {
      stop: () => {
        if (stopped) return;
        stopped = true;
        active?.stop();
      },
    };
  }

  async create<T extends KubeObject>(ref: ResourceRef, obj: KubeObject, options: WriteOptions & { namespace?: string; name?: string } = {}): Promise<T> {
    const namespace = options.namespace ?? obj.metadata?.namespace ?? '';
    const copy = copyJson(obj);
    return object<T>(await afterComponentTurn(() => this.#server.create(ref, namespace, copy, writeParams(options, { name: options.name ?? obj.metadata?.name ?? '', userAgent: this.#userAgent, user: this.#user }))));
  }

  async update<T extends KubeObject>(ref: ResourceRef, obj: T, options: WriteOptions = {}): Promise<T> {
    // No copy here: the server's update clones the body for each attempt, as it must for retries.
    return object<T>(await afterComponentTurn(() => this.#server.update(ref, obj.metadata.namespace ?? '', obj.metadata.name ?? '', obj as KubeObject, writeParams(options, { userAgent: this.#userAgent, user: this.#user }))));
  }

  updateStatus<T extends KubeObject>(ref: ResourceRef, obj: T, options: WriteOptions = {}): Promise<T> {
    return this.update(ref, obj, { ...options, subresource: 'status' });
  }

  async patch<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, body: unknown, options: PatchOptions = {}): Promise<T> {
    const params = writeParams(options, { userAgent: this.#userAgent, user: this.#user });
    if (options.force !== undefined) params.force = options.force;
    return object<T>(await afterComponentTurn(() => this.#server.patch(ref, namespace ?? '', name, type, body, params)));
  }

  async delete(ref: ResourceRef, namespace: string | undefined, name: string, options: DeleteOptions = {}): Promise<KubeObject | Status> {
    const request = { gracePeriodSeconds: options.gracePeriodSeconds, propagationPolicy: options.propagationPolicy, preconditions: options.preconditions, dryRun: options.dryRun ?? false };
    const outcome = await afterComponentTurn(() => this.#server.delete(ref, namespace ?? '', name, request, this.#user));
    if (outcome.kind === 'pending') return resultObject(outcome.result);
    const def = this.#server.resolve(ref);
    return successStatus({ name, group: def.group, kind: def.resource, uid: outcome.last.metadata.uid ?? '' });
  }
}

function object<T extends KubeObject>(result: ObjectResult): T {
  return resultObject(result) as T;
}

type LocalWriteParams = { dryRun?: boolean; fieldManager?: string; subresource?: string; force?: boolean; name?: string; userAgent?: string; user?: UserInfo };

function writeParams(options: WriteOptions, extra: { name?: string; userAgent?: string; user?: UserInfo | undefined } = {}): LocalWriteParams {
  const params: LocalWriteParams = {};
  if (extra.userAgent !== undefined) params.userAgent = extra.userAgent;
  if (extra.user !== undefined) params.user = extra.user;
  if (options.dryRun !== undefined) params.dryRun = options.dryRun;
  if (options.fieldManager !== undefined) params.fieldManager = options.fieldManager;
  if (options.subresource !== undefined) params.subresource = options.subresource;
  if (extra.name !== undefined) params.name = extra.name;
  return params;
}

/**
 * Schedules each watcher's delivery as a microtask, where queueMicrotask would too, at a third of
 * its cost: Node's queueMicrotask builds an AsyncResource and a bound function for every call and
 * runs the callback in its async scope, and every write queues one per in-process watcher.
 */
const resolved = Promise.resolve();

function toClientEvent<T extends KubeObject>(event: ServerWatchEvent): ClientWatchEvent<T> {
  if (event.type === 'BOOKMARK') return { type: 'BOOKMARK', object: event.object as T };
  if (event.type === 'ERROR') return { type: 'ERROR', object: event.object as Status & KubeObject };
  return { type: event.type, object: storedObject(event.kv) as T };
}
