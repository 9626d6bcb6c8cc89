// Cluster: wires the store, the API server, its HTTP edge and the components, and starts
// them. The embeddable entry point (tests use it in process; `drydock up` wraps it).
//
// Example:
//   await using cluster = await Cluster.start({ config: defaultClusterConfig(), port: 0 });
//   const pods = await cluster.client.list(refs.pods, { namespace: 'default' });
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { ResourceDefinition, ResourceRef } from '../api/index.ts';
import { ApiMetrics, ApiServer, CustomResources, EventTtl, createServiceAccountKey, buildOpenApi, contentHash, instrumentStore, builtinAdmissionPlugins, withoutPlugins, checkDecoded, createHttpHandler, createLocalClient, patchMetaFor, unknownFields } from '../apiserver/index.ts';
import type { GroupVersionDocument, GroupVersionDocumentCache, OpenApiDocuments, OpenApiSource, ServedDocument } from '../apiserver/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, KubeObject, Random, Timer } from '../core/index.ts';
import { CryptoRandom, RealClock, ScaledClock, VirtualClock, enableLinearRegExpFallback, monotonicMs } from '../core/index.ts';
import { MemoryStore, SqliteStore } from '../storage/index.ts';
import type { Store } from '../storage/index.ts';
import { bootstrapCluster, gpuRuntimeClasses } from './bootstrap.ts';
import { componentStatuses } from './component-statuses.ts';
import { preinstalledCrds } from './preinstalled-crds.ts';
import type { ClusterConfig } from './config.ts';
import { parseVersion } from './config.ts';
import { startComponents } from './components.ts';
import { PodLogs, podLogRoute, proxyRoute } from '../kubelet/index.ts';
import type { Node } from '../api/index.ts';
import { isNodeUp } from './node-pools.ts';
import type { RunningComponents } from './components.ts';
import { writeKubeconfig } from './kubeconfig.ts';
import { createServingCertificate } from './certificate.ts';
import { servingCipherOptions } from './serving-tls.ts';
import { serveUpgrade } from './upgrade.ts';
import { readIdentity, servingFor, writeIdentity } from './identity.ts';
import type { ClusterIdentity } from './identity.ts';
import { PodWebhooks } from './webhooks.ts';
import { ClientActivity } from './client-activity.ts';

export interface ClusterOptions {
  config: ClusterConfig;
  /** Serve HTTP on this port (0 picks a free one); absent: in-process only. */
  port?: number;
  host?: string;
  kubeconfigPath?: string;
  dataDir?: string;
  clock?: Clock;
  random?: Random;
  token?: string;
  /** Start the scheduler, kubelets and controllers (default true). */
  components?: boolean;
  /** Let node-local drivers (the NVIDIA DRA driver) publish after start rather than before it returns. */
  driversInBackground?: boolean;
  /**
   * Start the controllers that neither the nodes' readiness nor a new pod's admission, scheduling and
   * start need once start has returned, one an event-loop turn (default false: all have started when it
   * returns, as scenario tests on the VirtualClock expect).
   */
  controllersAfterStart?: boolean;
  log?: (line: string) => void;
  /**
   * Admission plugins left out by name, as kube-apiserver's --disable-admission-plugins: upstream's
   * scheduler_perf disables TaintNodesByCondition so that its nodes, made ready by no controller, take pods.
   */
  disableAdmissionPlugins?: readonly string[];
  /**
   * Real elapsed milliseconds on a monotonic clock, for compute budgets (the DRA filterTimeout), not
   * the cluster's time: default core's monotonicMs; a test gives a fake to run out a budget step by step.
   */
  elapsedMs?: () => number;
  openapi?: (definitions: readonly ResourceDefinition[]) => OpenApiSource;
}

export class Cluster {
  readonly config: ClusterConfig;
  readonly driversInBackground: boolean;
  readonly controllersAfterStart: boolean;
  readonly server: ApiServer;
  readonly client: Client;
  readonly clock: Clock;
  readonly random: Random;
  readonly elapsedMs: () => number;
  readonly token: string;
  readonly store: Store;
  /** Serves the CustomResourceDefinitions' kinds. */
  readonly customResources: CustomResources;
  /** The /metrics registry: requests, watches, stored objects, storage latency. */
  readonly metrics: ApiMetrics;
  #http: Server | undefined;
  /** Connections and requests over HTTP: `drydock up` starts some controllers in a quiet moment. */
  readonly clientActivity = new ClientActivity();
  #url = '';
  #caPem = '';
  #signingKeyPem = '';
  readonly #serviceAccountKey: string;
  #components: RunningComponents | undefined;
  #stopped = false;
  /** node -> kubelet, for the pod log and exec routes. */
  readonly podLogs = new PodLogs();
  /** In-process mutating webhooks for pods (the VPA admission controller). */
  readonly podWebhooks = new PodWebhooks();
  #compaction: Timer | undefined;
  readonly #eventTtl: EventTtl;

  private constructor(options: ClusterOptions, store: Store, clock: Clock, random: Random, serviceAccountKey: string) {
    this.config = options.config;
    this.driversInBackground = options.driversInBackground ?? false;
    this.controllersAfterStart = options.controllersAfterStart ?? false;
    this.clock = clock;
    this.random = random;
    this.elapsedMs = options.elapsedMs ?? monotonicMs;
    this.store = store;
    this.token = options.token ?? random.hex(16);
    this.#serviceAccountKey = serviceAccountKey;
    const version = parseVersion(options.config.kubernetesVersion) ?? { major: 1, minor: 35, patch: 0 };
    this.metrics = new ApiMetrics({ resources: () => this.server.index.all(), store });
    this.server = new ApiServer({
      store: instrumentStore(store, this.metrics),
      clock,
      random,
      definitions: builtinDefinitions(),
      admissionPlugins: withoutPlugins(builtinAdmissionPlugins([this.podWebhooks.plugin]), options.disableAdmissionPlugins ?? []),
      serviceAccountKey,
      staticTokens: [this.token],
      version: { major: String(version.major), minor: String(version.minor), gitVersion: options.config.kubernetesVersion },
      featureGates: options.config.featureGates,
      // One source for merge keys: the upstream struct tags the OpenAPI documents carry.
      patchMetaFor: (def) => patchMetaFor(def.group, def.version, def.kind) ?? def.patchMeta,
      unknownFields: (def, obj) => unknownFields(obj, def.group, def.version, def.kind),
      decodeCheck: (def, obj, prune, keep) => this.customResources.decodeCheck(def, obj, prune, keep) ?? checkDecoded(obj, def.group, def.version, def.kind, keep ? { prune, keep } : { prune }),
    });
    this.customResources = new CustomResources(this.server, { metadataMeta: patchMetaFor('', 'v1', 'ConfigMap')?.fields?.metadata, log: options.log });
    this.client = createLocalClient(this.server);
    this.#eventTtl = new EventTtl(store, clock);
    this.server.delegate(componentStatuses(() => new Set(this.#components?.running.map((c) => c.name))));
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    // Users' patterns run on this thread (CRD `pattern`, CEL's matches and find).
    enableLinearRegExpFallback();
    const clock = options.clock ?? clockFor(options.config.clock);
    const random = options.random ?? new CryptoRandom();
    const store = options.dataDir ? SqliteStore.open(options.dataDir) : new MemoryStore();
    const kept = options.dataDir ? readIdentity(options.dataDir) : undefined;
    const token = options.token ?? kept?.token;
    const serviceAccountKey = kept?.serviceAccountKey ?? createServiceAccountKey();
    const cluster = new Cluster(token ? { ...options, token } : options, store, clock, random, serviceAccountKey);
    const log = options.log ?? (() => {});
    try {
      if (options.port !== undefined) await cluster.#listen(options, log, kept);
      await cluster.#eventTtl.start();
      await cluster.customResources.start();
      await bootstrapCluster(cluster.client, options.config.featureGates, [...preinstalledCrds().map((crd): [ResourceRef, KubeObject] => [refs.customResourceDefinitions, crd]), ...gpuRuntimeClasses(options.config)]);
      await cluster.customResources.settled();
      if (options.components !== false) {
        let nodesReady!: { resolve: () => void; reject: (error: unknown) => void };
        const ready = new Promise<void>((resolve, reject) => (nodesReady = { resolve, reject }));
        // Components wait on it when they need to; a failed start is reported by the throw below.
        ready.catch(() => {});
        cluster.#components = await startComponents({ cluster, client: cluster.client, clock, random, log, nodesReady: ready });
        await waitForNodesReady(cluster).then(nodesReady.resolve, (error: unknown) => {
          nodesReady.reject(error);
          throw error;
        });
      }
      if (options.kubeconfigPath && cluster.#url) writeKubeconfig(options.kubeconfigPath, cluster.#url, cluster.token, cluster.#caPem);
      cluster.#scheduleCompaction();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /**
   * The cluster's HTTP request handler: the pipeline `drydock up` serves over TLS, for a server of the
   * caller's (the API benchmarks serve it over plain HTTP beside a bare node:http server).
   */
  httpHandler(options: { log?: (line: string) => void; clientCA?: string; openapi?: ClusterOptions['openapi'] } = {}): ReturnType<typeof createHttpHandler> {
    const handlerOptions: Parameters<typeof createHttpHandler>[0] = { server: this.server, tokens: [this.token], metrics: this.metrics };
    if (options.log) handlerOptions.log = options.log;
    const routeOptions = { client: this.client, clock: this.clock, random: this.random, podLogs: this.podLogs };
    handlerOptions.extraRoutes = [podLogRoute(routeOptions), proxyRoute(routeOptions)];
    handlerOptions.openapi = options.openapi ? options.openapi(this.server.index.all()) : dynamicOpenApi(this.server.index, this.customResources);
    if (options.clientCA) handlerOptions.clientCA = options.clientCA;
    return createHttpHandler(handlerOptions);
  }

  async #listen(options: ClusterOptions, log: (line: string) => void, kept: ClusterIdentity | undefined): Promise<void> {
    const host = options.host ?? '127.0.0.1';
    // Certificates are checked against the wall clock by clients, whatever the cluster's clock.
    const hosts = [...new Set([host, '127.0.0.1', '::1', 'localhost'])];
    const certificate = servingFor(kept, hosts) ?? createServingCertificate({ nowMs: new RealClock().now(), serial: Buffer.from(this.random.hex(8), 'hex'), hosts });
    if (options.dataDir) writeIdentity(options.dataDir, { token: this.token, serving: { ...certificate, hosts }, serviceAccountKey: this.#serviceAccountKey });
    this.#caPem = certificate.certPem;
    this.#signingKeyPem = certificate.keyPem;
    // Client certificates are asked for, not required; the handler trusts one the cluster CA issued (the
    // x509 authenticator; kube-controller-manager signs approved CSRs with the same CA). TLS itself trusts
    // no CA: an empty `ca` keeps Node 20 from building a store (~25 ms of start-up for its root store).
    const handler = this.httpHandler({ log, clientCA: certificate.certPem, ...(options.openapi ? { openapi: options.openapi } : {}) });
    // Headers as long as the API server's Go server reads (MaxHeaderBytes 1 MiB, and 4 KiB it allows
    // beyond): a label selector naming thousands of values is a request line Node's 16 KiB refuses.
    const maxHeaderSize = (1 << 20) + 4096;
    const http = createServer({ cert: certificate.certPem, key: certificate.keyPem, ca: [], requestCert: true, rejectUnauthorized: false, keepAlive: true, requestTimeout: 0, maxHeaderSize, ...servingCipherOptions() }, handler);
    http.keepAliveTimeout = 60_000;
    http.on('connection', this.clientActivity.heard);
    http.on('request', this.clientActivity.heard);
    http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => serveUpgrade(handler, req, socket, head));
    this.#http = http;
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
    const address = http.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    this.#url = `https://${shownHost}:${address.port}`;
  }

  /** The serving certificate clients should trust (PEM), when serving. */
  get certificateAuthority(): string {
    return this.#caPem;
  }

  /**
   * The CA kube-controller-manager signs approved CSRs with, and client certificates are checked
   * against: the serving certificate (a CA) and its key. Absent when the cluster serves no HTTPS.
   */
  get signingAuthority(): { certPem: string; keyPem: string } | undefined {
    return this.#caPem ? { certPem: this.#caPem, keyPem: this.#signingKeyPem } : undefined;
  }

  /** The HTTPS URL, when serving. */
  get url(): string {
    return this.#url;
  }

  get components(): RunningComponents | undefined {
    return this.#components;
  }

  // kube-apiserver asks etcd to compact every 5 minutes; the same keeps the SQLite log from
  // growing without bound. The last 10,000 revisions stay for watches to resume from: upstream
  // compacts to the revision of the previous tick (storage/etcd3/compact.go), but serves a watch
  // from a resourceVersion out of the watch cache, which answers 410 "too old resource version"
  // only once that version has left its event window (watch_cache.go getAllEventsSinceLocked),
  // however old it is; a quiet cluster keeps every version since the cache's list.
  #scheduleCompaction(): void {
    const tick = (): void => {
      if (this.#stopped) return;
      const target = this.store.revision() - 10_000;
      if (target > this.store.compactedRevision()) void this.store.compact(target).catch(() => {});
      this.#compaction = this.clock.after(5 * 60_000, tick);
    };
    this.#compaction = this.clock.after(5 * 60_000, tick);
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#compaction?.cancel();
    this.#eventTtl.stop();
    this.customResources.stop();
    await this.#components?.stop();
    if (this.#http) {
      const http = this.#http;
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    }
    await this.store.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}

/**
 * The served OpenAPI, rebuilt when the served resources change (a CRD is created or deleted); a
 * group-version whose definitions did not change keeps its document, ETag and Last-Modified.
 */
function dynamicOpenApi(index: ApiServer['index'], crds: CustomResources): OpenApiSource {
  let generation = -1;
  let current: OpenApiSource | undefined;
  const built: GroupVersionDocumentCache = new Map();
  const served = new WeakMap<GroupVersionDocument, ServedDocument & { hash: string }>();
  const source = (): OpenApiSource => {
    if (!current || generation !== index.generation) {
      generation = index.generation;
      current = openApiSource(buildOpenApi(index.all(), (def, v2) => crds.openApiSchema(def, v2), built), served);
    }
    return current;
  };
  return { root: () => source().root(), groupVersion: (path) => source().groupVersion(path), v2: () => source().v2(), v2Protobuf: () => source().v2Protobuf() };
}

const wallClock = new RealClock();

function openApiSource(docs: OpenApiDocuments, served: WeakMap<GroupVersionDocument, ServedDocument & { hash: string }>): OpenApiSource {
  // Last-Modified: when a document was built, by the wall clock HTTP caches go by (kube-openapi's timedSpec).
  const lastModified = wallClock.now();
  // kube-openapi's ETag: the body's SHA-512 in upper-case hex, quoted.
  const tagged = (body: Uint8Array, etag = `"${contentHash(body)}"`): ServedDocument => ({ body, etag, lastModified });
  let root: ServedDocument | undefined;
  let v2: ServedDocument | undefined;
  let v2Protobuf: ServedDocument | undefined;
  return {
    root: () => (root ??= tagged(Buffer.from(JSON.stringify(docs.root())))),
    groupVersion: (path) => {
      const doc = docs.groupVersion(path);
      if (!doc) return undefined;
      let document = served.get(doc);
      if (!document) served.set(doc, (document = { ...doc, lastModified: wallClock.now() }));
      return document;
    },
    v2: () => (v2 ??= tagged(docs.v2())),
    // The protobuf goes out under the JSON's tag, as upstream's (its Vary: Accept keeps them apart).
    v2Protobuf: () => (v2Protobuf ??= tagged(docs.v2Protobuf(), (v2 ??= tagged(docs.v2())).etag)),
  };
}

// `drydock up` prints its ready line only once every configured node is up (isNodeUp).
async function waitForNodesReady(cluster: Cluster): Promise<void> {
  const want = new Set(cluster.config.nodePools.flatMap((p) => Array.from({ length: p.count }, (_, i) => `${p.name}-${i}`)));
  if (want.size === 0) return;
  // Watched rather than polled, so the ready line follows the last node's status write at once.
  await new Promise<void>((resolve, reject) => {
    const ready = new Set<string>();
    const timer = cluster.clock.after(30_000, () => {
      watch.stop();
      reject(new Error(`nodes not Ready after 30 s: ${[...want].filter((n) => !ready.has(n)).slice(0, 5).join(', ')}`));
    });
    const watch = cluster.client.watch<Node>(refs.nodes, {}, (event) => {
      const name = event.object.metadata.name ?? '';
      if (!want.has(name)) return;
      if (event.type !== 'DELETED' && isNodeUp(event.object as Node)) ready.add(name);
      else ready.delete(name);
      if (ready.size === want.size) {
        timer.cancel();
        watch.stop();
        resolve();
      }
    }, (error) => {
      timer.cancel();
      if (ready.size < want.size) reject(error instanceof Error ? error : new Error('node watch ended before every node was Ready'));
    });
  });
}


function clockFor(text: string): Clock {
  if (text === 'virtual') return new VirtualClock();
  if (text.startsWith('scaled:')) return new ScaledClock(Number(text.slice('scaled:'.length)));
  return new RealClock();
}
