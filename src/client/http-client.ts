// HttpClient: the Client over HTTP, for components and commands that run outside the
// server process (`drydock node ...`, `drydock controllers`), against Drydock or any cluster.
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { defaultTrustedCertificates } from './trusted-certificates.ts';
import type { ResourceRef } from '../api/index.ts';
import type { KubeObject, Status } from '../core/index.ts';
import { ApiError } from '../core/index.ts';
import type { StatusReason } from '../core/index.ts';
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
} from './client.ts';

export interface HttpClientOptions {
  server: string;
  token?: string;
  /** Accept any certificate (kubeconfig insecure-skip-tls-verify). */
  insecure?: boolean;
  /** PEM certificates to trust (kubeconfig certificate-authority-data). */
  ca?: string;
  /** Sent as User-Agent: its part before the first `/` names the field manager of writes (default `drydock/<version>`). */
  userAgent?: string;
}

const defaultUserAgent = 'drydock/v1.35.0';

const patchTypes: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export class HttpClient implements Client {
  readonly #base: URL;
  readonly #token: string | undefined;
  readonly #insecure: boolean;
  readonly #ca: string | undefined;
  readonly #options: HttpClientOptions;

  constructor(options: HttpClientOptions) {
    this.#options = options;
    this.#ca = options.ca;
    this.#base = new URL(options.server);
    this.#token = options.token;
    this.#insecure = options.insecure ?? false;
  }

  withUserAgent(userAgent: string): Client {
    return new HttpClient({ ...this.#options, userAgent });
  }

  #path(ref: ResourceRef, namespace: string | undefined, name?: string, subresource?: string): string {
    const root = ref.group ? `/apis/${ref.group}/${ref.version}` : `/api/${ref.version}`;
    const ns = namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    const tail = name ? `/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}` : '';
    return `${root}${ns}/${ref.resource}${tail}`;
  }

  #send(method: string, path: string, body?: { type: string; text: string }): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const req = this.#open(method, path, body?.type, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body?.text);
    });
  }

  #open(method: string, path: string, contentType: string | undefined, onResponse: (res: IncomingMessage) => void): ReturnType<typeof httpRequest> {
    const url = new URL(path, this.#base);
    const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': this.#options.userAgent ?? defaultUserAgent };
    if (this.#token) headers.Authorization = `Bearer ${this.#token}`;
    if (contentType) headers['Content-Type'] = contentType;
    const ca = this.#ca ?? defaultTrustedCertificates();
    const options = { method, headers, rejectUnauthorized: !this.#insecure, ...(ca ? { ca } : {}) };
    return url.protocol === 'https:' ? httpsRequest(url, options, onResponse) : httpRequest(url, options, onResponse);
  }

  async #json<T>(method: string, path: string, body?: { type: string; text: string }): Promise<T> {
    const { status, text } = await this.#send(method, path, body);
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      throw new ApiError('InternalError', `unexpected response (${status}): ${text.slice(0, 200)}`, undefined, status || 500);
    }
    if (status >= 400) throw errorFrom(value as Status, status);
    return value as T;
  }

  async discover(): Promise<DiscoveredResource[]> {
    const out: DiscoveredResource[] = [];
    const add = (group: string, version: string, list: { resources?: { name: string; kind: string; namespaced: boolean; verbs: string[] }[] }): void => {
      for (const r of list.resources ?? []) if (!r.name.includes('/')) out.push({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs });
    };
    add('', 'v1', await this.#json('GET', '/api/v1'));
    const groups = await this.#json<{ groups: { name: string; preferredVersion: { version: string } }[] }>('GET', '/apis');
    for (const g of groups.groups) add(g.name, g.preferredVersion.version, await this.#json('GET', `/apis/${g.name}/${g.preferredVersion.version}`));
    return out;
  }

  get<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, options?: { subresource?: string }): Promise<T> {
    return this.#json<T>('GET', this.#path(ref, namespace, name, options?.subresource));
  }

  list<T extends KubeObject>(ref: ResourceRef, options: ListOptions = {}): Promise<ObjectList<T>> {
    return this.#json<ObjectList<T>>('GET', `${this.#path(ref, options.namespace)}${query(options)}`);
  }

  watch<T extends KubeObject>(ref: ResourceRef, options: WatchOptions, onEvent: (event: ClientWatchEvent<T>) => void, onClose?: (error?: unknown) => void): ClientWatch {
    let stopped = false;
    let closed = false;
    const close = (error?: unknown): void => {
      if (closed) return;
      closed = true;
      if (!stopped) onClose?.(error);
    };
    const req = this.#open('GET', `${this.#path(ref, options.namespace)}${query({ ...options, watch: true })}`, undefined, (res) => {
      if ((res.statusCode ?? 0) >= 400) {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          try {
            close(errorFrom(JSON.parse(text) as Status, res.statusCode ?? 500));
          } catch {
            close(new Error(`watch failed with ${res.statusCode ?? 0}`));
          }
        });
        return;
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl = buffer.indexOf('\n');
        while (nl >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim() && !stopped) onEvent(JSON.parse(line) as ClientWatchEvent<T>);
          nl = buffer.indexOf('\n');
        }
      });
      res.on('end', () => close());
      res.on('error', (error) => close(error));
    });
    req.on('error', (error) => close(error));
    req.end();
    return {
      stop: () => {
        stopped = true;
        req.destroy();
      },
    };
  }

  create<T extends KubeObject>(ref: ResourceRef, obj: KubeObject, options: WriteOptions & { namespace?: string; name?: string } = {}): Promise<T> {
    const namespace = options.namespace ?? obj.metadata?.namespace;
    const path = options.subresource ? this.#path(ref, namespace, options.name ?? obj.metadata?.name ?? '', options.subresource) : this.#path(ref, namespace);
    return this.#json<T>('POST', `${path}${writeQuery(options)}`, { type: 'application/json', text: JSON.stringify(obj) });
  }

  update<T extends KubeObject>(ref: ResourceRef, obj: T, options: WriteOptions = {}): Promise<T> {
    const path = this.#path(ref, obj.metadata.namespace, obj.metadata.name ?? '', options.subresource);
    return this.#json<T>('PUT', `${path}${writeQuery(options)}`, { type: 'application/json', text: JSON.stringify(obj) });
  }

  updateStatus<T extends KubeObject>(ref: ResourceRef, obj: T, options: WriteOptions = {}): Promise<T> {
    return this.update(ref, obj, { ...options, subresource: 'status' });
  }

  patch<T extends KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, body: unknown, options: PatchOptions = {}): Promise<T> {
    const path = this.#path(ref, namespace, name, options.subresource);
    const extra = options.force !== undefined ? `${writeQuery(options) ? '&' : '?'}force=${String(options.force)}` : '';
    return this.#json<T>('PATCH', `${path}${writeQuery(options)}${extra}`, { type: patchTypes[type], text: JSON.stringify(body) });
  }

  delete(ref: ResourceRef, namespace: string | undefined, name: string, options: DeleteOptions = {}): Promise<KubeObject | Status> {
    const body: Record<string, unknown> = {};
    if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
    if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
    if (options.preconditions) body.preconditions = options.preconditions;
    if (options.dryRun) body.dryRun = ['All'];
    return this.#json('DELETE', this.#path(ref, namespace, name), { type: 'application/json', text: JSON.stringify(body) });
  }
}

function errorFrom(status: Status, code: number): ApiError {
  const reason = (status.reason ?? 'InternalError') as StatusReason;
  return new ApiError(reason, status.message ?? `request failed with ${code}`, status.details, status.code || code);
}

function query(options: WatchOptions & { watch?: boolean }): string {
  const q = new URLSearchParams();
  if (options.labelSelector) q.set('labelSelector', options.labelSelector);
  if (options.fieldSelector) q.set('fieldSelector', options.fieldSelector);
  if (options.limit) q.set('limit', String(options.limit));
  if (options.continue) q.set('continue', options.continue);
  if (options.resourceVersion) q.set('resourceVersion', options.resourceVersion);
  if (options.resourceVersionMatch) q.set('resourceVersionMatch', options.resourceVersionMatch);
  if (options.watch) q.set('watch', 'true');
  if (options.allowWatchBookmarks) q.set('allowWatchBookmarks', 'true');
  if (options.sendInitialEvents !== undefined) q.set('sendInitialEvents', String(options.sendInitialEvents));
  if (options.timeoutSeconds !== undefined) q.set('timeoutSeconds', String(options.timeoutSeconds));
  const text = q.toString();
  return text ? `?${text}` : '';
}

function writeQuery(options: WriteOptions): string {
  const q = new URLSearchParams();
  if (options.dryRun) q.set('dryRun', 'All');
  if (options.fieldManager) q.set('fieldManager', options.fieldManager);
  if (options.fieldValidation) q.set('fieldValidation', options.fieldValidation);
  const text = q.toString();
  return text ? `?${text}` : '';
}
