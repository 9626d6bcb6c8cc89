// The cluster's metrics server: serves metrics.k8s.io/v1beta1 PodMetrics and NodeMetrics from the
// simulated kubelets' usage, as metrics-server does from each kubelet's /metrics/resource. Pods and
// nodes come from informers (an ordinary API client); usage from the node's kubelet at request time.
// Upstream: sigs.k8s.io/metrics-server pkg/api/{pod,node}.go, pkg/storage.
import { cpuUsageQuantity, memoryUsageQuantity, metricsGroup, nodeMetricsDefinition, podMetricsDefinition, refs } from '../api/index.ts';
import type { Node, NodeMetrics, Pod, PodMetrics } from '../api/index.ts';
import type { DelegatedResource } from '../apiserver/index.ts';
import { Informer } from '../client/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, DeepReadonly } from '../core/index.ts';
import { formatTime, notFound } from '../core/index.ts';
import { podUsage } from '../kubelet/index.ts';
import type { ContainerUsage, PodLogs } from '../kubelet/index.ts';

export interface MetricsServerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** node -> kubelet. */
  kubelets: PodLogs;
}

/** metrics-server's --metric-resolution: the window each sample covers. */
export const metricsWindow = '15s';
const byNode = 'nodeName';

export class MetricsServer {
  readonly #o: MetricsServerOptions;
  readonly #pods: Informer<Pod>;
  readonly #nodes: Informer<Node>;

  constructor(options: MetricsServerOptions) {
    this.#o = options;
    this.#pods = new Informer<Pod>({ client: options.client, ref: refs.pods, clock: options.clock, log: options.log });
    this.#pods.addIndex(byNode, (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []));
    this.#nodes = new Informer<Node>({ client: options.client, ref: refs.nodes, clock: options.clock, log: options.log });
  }

  async start(): Promise<void> {
    this.#pods.start();
    this.#nodes.start();
    await Promise.all([this.#pods.waitForSync(), this.#nodes.waitForSync()]);
  }

  stop(): void {
    this.#pods.stop();
    this.#nodes.stop();
  }

  resources(): DelegatedResource[] {
    return [
      {
        def: podMetricsDefinition,
        get: (namespace, name) => {
          const pod = this.#pods.getByName(namespace, name);
          const m = pod && this.#podMetrics(pod);
          // metrics-server names the pod by namespace/name in its NotFound.
          if (!m) throw notFound({ group: metricsGroup, resource: 'podmetrics' }, `${namespace}/${name}`);
          return m;
        },
        list: (namespace) => this.#pods.list().filter((p) => !namespace || p.metadata.namespace === namespace).flatMap((p) => this.#podMetrics(p) ?? []),
      },
      {
        def: nodeMetricsDefinition,
        get: (_ns, name) => {
          const node = this.#nodes.getByName(undefined, name);
          const m = node && this.#nodeMetrics(node);
          if (!m) throw notFound({ group: metricsGroup, resource: 'nodemetrics' }, name);
          return m;
        },
        list: () => this.#nodes.list().flatMap((n) => this.#nodeMetrics(n) ?? []),
      },
    ];
  }

  #usage(pod: DeepReadonly<Pod>): ContainerUsage[] | undefined {
    const node = pod.spec?.nodeName;
    if (!node || pod.status?.phase !== 'Running') return undefined;
    const kubelet = this.#o.kubelets.kubelet(node);
    // A kubelet that is down (drydock node fail) cannot be scraped: its node and pods drop out.
    const usage = kubelet?.serving ? podUsage(kubelet, pod.metadata.namespace ?? '', pod.metadata.name ?? '', this.#o.clock.now()) : undefined;
    return usage && usage.length > 0 ? usage : undefined;
  }

  #podMetrics(pod: DeepReadonly<Pod>): PodMetrics | undefined {
    const usage = this.#usage(pod);
    if (!usage) return undefined;
    const now = this.#o.clock.now();
    return {
      kind: 'PodMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', creationTimestamp: formatTime(now), ...(pod.metadata.labels ? { labels: { ...pod.metadata.labels } } : {}) },
      timestamp: formatTime(now),
      window: metricsWindow,
      containers: usage.map((u) => ({ name: u.name, usage: { cpu: cpuUsageQuantity(u.cpuMilli), memory: memoryUsageQuantity(u.memoryBytes) } })),
    };
  }

  #nodeMetrics(node: DeepReadonly<Node>): NodeMetrics | undefined {
    const name = node.metadata.name ?? '';
    if (!this.#o.kubelets.kubelet(name)?.serving) return undefined;
    let cpu = 0;
    let memory = 0;
    for (const pod of this.#pods.byIndex(byNode, name)) {
      for (const u of this.#usage(pod) ?? []) {
        cpu += u.cpuMilli;
        memory += u.memoryBytes;
      }
    }
    const now = this.#o.clock.now();
    return {
      kind: 'NodeMetrics',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: { name, creationTimestamp: formatTime(now), ...(node.metadata.labels ? { labels: { ...node.metadata.labels } } : {}) },
      timestamp: formatTime(now),
      window: metricsWindow,
      usage: { cpu: cpuUsageQuantity(cpu), memory: memoryUsageQuantity(memory) },
    };
  }
}
