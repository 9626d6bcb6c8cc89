// /metrics in the Prometheus text format, with kube-apiserver's metric names: requests by verb,
// resource and code, their latency, long-running (watch) requests, registered watchers, stored
// objects per resource and storage call latency. A registry per server, never prom-client's global.
// Upstream: apiserver/pkg/endpoints/metrics/metrics.go, apiserver/pkg/storage/etcd3/metrics/metrics.go.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Gauge, Registry } from './prometheus.ts';
import { monotonicMs, queryBool } from '../core/index.ts';
import type { Store } from '../storage/index.ts';
import { LabeledCounter, LatencyHistogram } from './latency-histogram.ts';
import { parseRequestPath } from './request-info.ts';
import { storagePrefix } from './stored-object.ts';

const requestBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const storageBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const requestLabels = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

/** Monotonic seconds for latency histograms: real elapsed time, whatever the cluster's Clock. */
const seconds = (): number => monotonicMs() / 1000;

export class ApiMetrics {
  readonly registry = new Registry();
  readonly #requests: LabeledCounter;
  readonly #duration: LatencyHistogram;
  readonly #longRunning: Gauge<string>;
  readonly #watchers: Gauge<string>;
  readonly #storage: LatencyHistogram;

  /** `resources` lists what apiserver_storage_objects counts, read at each scrape. */
  constructor(options: { resources: () => readonly { group: string; resource: string }[]; store: Store }) {
    const registers = [this.registry];
    this.#requests = new LabeledCounter({ name: 'apiserver_request_total', help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.', labelNames: [...requestLabels, 'code'], registry: this.registry });
    this.#duration = new LatencyHistogram({ name: 'apiserver_request_duration_seconds', help: '[STABLE] Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.', labelNames: requestLabels, buckets: requestBuckets, registry: this.registry });
    this.#longRunning = new Gauge({ name: 'apiserver_longrunning_requests', help: '[STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.', labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], registers });
    this.#watchers = new Gauge({ name: 'apiserver_registered_watchers', help: '[ALPHA] Number of currently registered watchers for a given resources', labelNames: ['group', 'version', 'kind'], registers });
    this.#storage = new LatencyHistogram({ name: 'etcd_request_duration_seconds', help: '[ALPHA] Etcd request latency in seconds for each operation and object type.', labelNames: ['operation', 'type'], buckets: storageBuckets, registry: this.registry });
    const { resources, store } = options;
    new Gauge({
      name: 'apiserver_storage_objects',
      help: '[STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
      labelNames: ['resource'],
      registers,
      async collect() {
        this.reset();
        for (const def of resources()) {
          const resource = def.group ? `${def.resource}.${def.group}` : def.resource;
          try {
            this.set({ resource }, await store.count(storagePrefix(def.group, def.resource, '')));
          } catch {
            this.set({ resource }, -1);
          }
        }
      },
    });
  }

  /** Wraps a request handler: counts and times every resource request when the response ends. */
  instrument(handler: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const labels = this.#labels(req);
      if (!labels) {
        handler(req, res);
        return;
      }
      const start = seconds();
      const [verb, , group = '', version = '', resource = '', subresource = '', scope = ''] = labels;
      const watchLabels = verb === 'WATCH' ? { verb: 'WATCH', group, version, resource, subresource, scope, component: 'apiserver' } : undefined;
      if (watchLabels) {
        this.#longRunning.inc(watchLabels);
        this.#watchers.inc({ group, version, kind: resource });
      }
      // A response emits 'close' once, after 'finish' when it completes and alone when the client
      // went away first: one listener sees both.
      res.on('close', () => {
        if (watchLabels) {
          this.#longRunning.dec(watchLabels);
          this.#watchers.dec({ group, version, kind: resource });
        } else {
          this.#duration.observe(labels, seconds() - start);
        }
        labels.push(String(res.statusCode));
        this.#requests.inc(labels);
      });
      handler(req, res);
    };
  }

  /** Times one storage call (`get`, `list`, `create`, `update`, `delete`) for a key. */
  timeStorage<T>(operation: string, key: string, call: () => Promise<T>): Promise<T> {
    const start = seconds();
    const observe = (): void => this.#storage.observe([operation, storageType(key)], seconds() - start);
    // The store's own promise goes back to the caller: no async frame of ours between every write
    // and its continuation.
    const result = call();
    result.then(observe, observe);
    return result;
  }

  async serve(res: ServerResponse): Promise<void> {
    const body = await this.registry.metrics();
    res.writeHead(200, { 'Content-Type': this.registry.contentType });
    res.end(body);
  }

  /** The request's values of requestLabels, in their order. */
  #labels(req: IncomingMessage): string[] | undefined {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const target = parseRequestPath(q < 0 ? url : url.slice(0, q));
    if (target.kind !== 'resource') return undefined;
    const t = target.target;
    const query = q < 0 ? '' : url.slice(q + 1);
    const method = req.method ?? 'GET';
    let verb = method;
    // The watch parameter as the API server reads it (only 0 and false, any case, are false).
    if (method === 'GET' && t.legacyWatch) verb = 'WATCH';
    else if (method === 'GET' && t.name === '') verb = query.includes('watch=') && queryBool(new URLSearchParams(query), 'watch') ? 'WATCH' : 'LIST';
    const scope = t.name !== '' ? 'resource' : t.namespace !== '' ? 'namespace' : 'cluster';
    return [verb, /(^|&)dryRun=All/.test(query) ? 'All' : '', t.group, t.version, t.resource, t.subresource, scope, 'apiserver'];
  }
}

// Per `/registry/<group>/<resource>` prefix: a storage call names its type without splitting its key.
const storageTypes = new Map<string, string>();

/** `/registry/core/pods/ns/name` -> `pods`; `/registry/apps/deployments/...` -> `deployments.apps`. */
function storageType(key: string): string {
  const groupEnd = key.indexOf('/', 1 + key.indexOf('/', 1));
  const resourceEnd = groupEnd < 0 ? -1 : key.indexOf('/', groupEnd + 1);
  const prefix = resourceEnd < 0 ? key : key.slice(0, resourceEnd);
  let type = storageTypes.get(prefix);
  if (type === undefined) {
    const parts = key.split('/', 4);
    const group = parts[2] ?? '';
    const resource = parts[3] ?? '';
    type = group === 'core' || group === '' ? resource : `${resource}.${group}`;
    // Keys without the usual shape are not remembered: their prefixes are not bounded.
    if (resourceEnd >= 0) storageTypes.set(prefix, type);
  }
  return type;
}

/** A Store whose calls are timed into `etcd_request_duration_seconds`. */
export function instrumentStore(store: Store, metrics: ApiMetrics): Store {
  return {
    get: (key) => metrics.timeStorage('get', key, () => store.get(key)),
    list: (prefix, options) => metrics.timeStorage('list', prefix, () => store.list(prefix, options)),
    count: (prefix) => metrics.timeStorage('listWithCount', prefix, () => store.count(prefix)),
    create: (key, value, onCommit) => metrics.timeStorage('create', key, () => store.create(key, value, onCommit)),
    update: (key, value, rev, onCommit) => metrics.timeStorage('update', key, () => store.update(key, value, rev, onCommit)),
    delete: (key, rev) => metrics.timeStorage('delete', key, () => store.delete(key, rev)),
    watch: (prefix, from, handlers) => store.watch(prefix, from, handlers),
    compact: (revision) => store.compact(revision),
    revision: () => store.revision(),
    compactedRevision: () => store.compactedRevision(),
    close: () => store.close(),
  };
}
