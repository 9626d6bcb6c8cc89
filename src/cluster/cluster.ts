// Cluster: wires the store, the API server, its HTTP edge and the components, and starts
// them. The embeddable entry point (tests use it in process; `drydock up` wraps it).
//
// Example:
//   await using cluster = await Cluster.start({ config: defaultClusterConfig(), port: 0 });
//   const pods = await cluster.client.list(refs.pods, { namespace: 'default' });
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinDefinitions } from '../api/index.ts';
import type { ResourceDefinition } from '../api/index.ts';
import { ApiServer, builtinAdmissionPlugins, createHttpHandler, createLocalClient } from '../apiserver/index.ts';
import type { OpenApiSource } from '../apiserver/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, Random } from '../core/index.ts';
import { CryptoRandom, RealClock, ScaledClock, VirtualClock } from '../core/index.ts';
import { MemoryStore, SqliteStore } from '../storage/index.ts';
import type { Store } from '../storage/index.ts';
import { bootstrapCluster } from './bootstrap.ts';
import type { ClusterConfig } from './config.ts';
import { parseVersion } from './config.ts';
import { startComponents } from './components.ts';
import type { RunningComponents } from './components.ts';
import { writeKubeconfig } from './kubeconfig.ts';

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
  log?: (line: string) => void;
  openapi?: (definitions: readonly ResourceDefinition[]) => OpenApiSource;
}

export class Cluster {
  readonly config: ClusterConfig;
  readonly server: ApiServer;
  readonly client: Client;
  readonly clock: Clock;
  readonly random: Random;
  readonly token: string;
  readonly store: Store;
  #http: Server | undefined;
  #url = '';
  #components: RunningComponents | undefined;
  #stopped = false;

  private constructor(options: ClusterOptions, store: Store, clock: Clock, random: Random) {
    this.config = options.config;
    this.clock = clock;
    this.random = random;
    this.store = store;
    this.token = options.token ?? random.hex(16);
    const version = parseVersion(options.config.kubernetesVersion) ?? { major: 1, minor: 35, patch: 0 };
    this.server = new ApiServer({
      store,
      clock,
      random,
      definitions: builtinDefinitions(),
      admissionPlugins: builtinAdmissionPlugins(),
      version: { major: String(version.major), minor: String(version.minor), gitVersion: options.config.kubernetesVersion },
    });
    this.client = createLocalClient(this.server);
  }

  static async start(options: ClusterOptions): Promise<Cluster> {
    const clock = options.clock ?? clockFor(options.config.clock);
    const random = options.random ?? new CryptoRandom();
    const store = options.dataDir ? SqliteStore.open(options.dataDir) : new MemoryStore();
    const cluster = new Cluster(options, store, clock, random);
    const log = options.log ?? (() => {});
    try {
      if (options.port !== undefined) await cluster.#listen(options, log);
      await bootstrapCluster(cluster.client);
      if (options.components !== false) {
        cluster.#components = await startComponents({ cluster, client: cluster.client, clock, random, log });
      }
      if (options.kubeconfigPath && cluster.#url) writeKubeconfig(options.kubeconfigPath, cluster.#url, cluster.token);
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  async #listen(options: ClusterOptions, log: (line: string) => void): Promise<void> {
    const handlerOptions: Parameters<typeof createHttpHandler>[0] = { server: this.server, tokens: [this.token], log };
    if (options.openapi) handlerOptions.openapi = options.openapi(this.server.index.all());
    const http = createServer({ keepAlive: true, requestTimeout: 0 }, createHttpHandler(handlerOptions));
    http.keepAliveTimeout = 60_000;
    this.#http = http;
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
    const address = http.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    this.#url = `http://${shownHost}:${address.port}`;
  }

  /** The HTTP URL, when serving. */
  get url(): string {
    return this.#url;
  }

  get components(): RunningComponents | undefined {
    return this.#components;
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
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

function clockFor(text: string): Clock {
  if (text === 'virtual') return new VirtualClock();
  if (text.startsWith('scaled:')) return new ScaledClock(Number(text.slice('scaled:'.length)));
  return new RealClock();
}
