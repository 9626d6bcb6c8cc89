// metrics.k8s.io/v1beta1 PodMetrics and NodeMetrics: the resource metrics API kubectl top, the HPA
// and the VPA recommender read. Read-only and not stored: a provider (the cluster's metrics server,
// as metrics-server upstream) builds them from the kubelets' usage on each request.
// Upstream: staging/src/k8s.io/metrics/pkg/apis/metrics/v1beta1/types.go, metrics-server pkg/api/{pod,node}.go.
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, ResourceRef } from '../../resource.ts';

/** cpu in nanocores (`1500000n`), memory in Ki (`10240Ki`), as metrics-server writes them. */
export type ResourceUsage = Record<string, string>;

export interface ContainerMetrics {
  name: string;
  usage: ResourceUsage;
}

export interface PodMetrics extends KubeObject {
  apiVersion?: 'metrics.k8s.io/v1beta1';
  kind?: 'PodMetrics';
  metadata: ObjectMeta;
  timestamp: string;
  window: string;
  containers: ContainerMetrics[];
}

export interface NodeMetrics extends KubeObject {
  apiVersion?: 'metrics.k8s.io/v1beta1';
  kind?: 'NodeMetrics';
  metadata: ObjectMeta;
  timestamp: string;
  window: string;
  usage: ResourceUsage;
}

export const metricsGroup = 'metrics.k8s.io';

export const metricsRefs = {
  pods: Object.freeze({ group: metricsGroup, version: 'v1beta1', resource: 'pods' }),
  nodes: Object.freeze({ group: metricsGroup, version: 'v1beta1', resource: 'nodes' }),
} as const satisfies Record<string, ResourceRef>;

/** The two served kinds: get and list only (kubectl top needs exactly these in discovery). */
export const podMetricsDefinition: ResourceDefinition = {
  group: metricsGroup,
  version: 'v1beta1',
  kind: 'PodMetrics',
  resource: 'pods',
  singular: '',
  namespaced: true,
  verbs: ['get', 'list'],
  hasStatus: false,
};

export const nodeMetricsDefinition: ResourceDefinition = {
  group: metricsGroup,
  version: 'v1beta1',
  kind: 'NodeMetrics',
  resource: 'nodes',
  singular: '',
  namespaced: false,
  verbs: ['get', 'list'],
  hasStatus: false,
};

/** `1500000n`: metrics-server's nanocore form of a CPU amount. */
export function nanoCores(milli: number): string {
  return `${Math.round(milli * 1_000_000)}n`;
}

/** `10240Ki`: metrics-server's form of a byte amount. */
export function kibibytes(bytes: number): string {
  return `${Math.round(bytes / 1024)}Ki`;
}
