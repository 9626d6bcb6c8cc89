// metrics.k8s.io/v1beta1 PodMetrics and NodeMetrics: the resource metrics API kubectl top, the HPA
// and the VPA recommender read. Read-only and not stored: a provider (the cluster's metrics server,
// as metrics-server upstream) builds them from the kubelets' usage on each request.
// Upstream: staging/src/k8s.io/metrics/pkg/apis/metrics/v1beta1/types.go, metrics-server pkg/api/{pod,node}.go.
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import { addQuantities, formatQuantity, mustParseQuantity, quantityFromNano, quantityFromValue } from '../../../core/index.ts';
import type { ResourceDefinition, ResourceRef, TableColumnDefinition, TablePrinter } from '../../resource.ts';

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

// metrics-server's own table (its ConvertToTable): the name, each resource it measured (cpu and
// memory, sorted) as a quantity, and the window; a pod's usage is its containers' summed.
const usageColumns: readonly TableColumnDefinition[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
  { name: 'cpu', type: 'string', format: 'quantity', description: '', priority: 0 },
  { name: 'memory', type: 'string', format: 'quantity', description: '', priority: 0 },
  { name: 'Window', type: 'string', format: 'duration', description: '', priority: 0 },
];

const summed = (usages: readonly ResourceUsage[], resource: string): string => {
  const amounts = usages.flatMap((u) => (u[resource] === undefined ? [] : [mustParseQuantity(u[resource])]));
  return amounts.length === 0 ? '0' : formatQuantity(amounts.reduce(addQuantities));
};

// Typed on KubeObject as the definitions are: only the provider's objects reach them.
const podMetricsTable: TablePrinter<KubeObject> = {
  columns: usageColumns,
  cells: (obj) => {
    const m = obj as PodMetrics;
    const usages = m.containers.map((c) => c.usage);
    return [m.metadata.name ?? '', summed(usages, 'cpu'), summed(usages, 'memory'), m.window];
  },
};

const nodeMetricsTable: TablePrinter<KubeObject> = {
  columns: usageColumns,
  cells: (obj) => {
    const m = obj as NodeMetrics;
    return [m.metadata.name ?? '', summed([m.usage], 'cpu'), summed([m.usage], 'memory'), m.window];
  },
};

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
  table: podMetricsTable,
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
  table: nodeMetricsTable,
};

/**
 * A CPU amount as metrics-server writes it: nanocores as a DecimalSI Quantity, which its JSON gives
 * in canonical form (`1523000n`, but `250m` for a round 250 millicores).
 */
export function cpuUsageQuantity(milli: number): string {
  return formatQuantity(quantityFromNano(Math.round(milli * 1_000_000)));
}

/** A memory amount as metrics-server writes it: bytes as a BinarySI Quantity (`153600Ki`, `150Mi`). */
export function memoryUsageQuantity(bytes: number): string {
  return formatQuantity(quantityFromValue(Math.round(bytes), 'BinarySI'));
}
