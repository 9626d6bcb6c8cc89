// The Node object a simulated kubelet registers: capacity/allocatable, well-known and GPU feature
// discovery labels, nodeInfo, addresses and the four kubelet-owned conditions. Pure.
// Upstream: pkg/kubelet/kubelet_node_status.go (initialNode), pkg/kubelet/nodestatus/setters.go.
import { poolRuntimeHandlers, runtimeStatus } from './runtime-handlers.ts';
import { isExtendedResourceName } from '../api/index.ts';
import type { Node, NodeCondition } from '../api/index.ts';
import { canonicalizeQuantityText, formatQuantity, formatTime, jsonEqual, lookupTable, parseQuantity, quantityFromNano, quantityNanoValue, quantityValue } from '../core/index.ts';
import type { Quantity } from '../core/index.ts';

/** What a kubelet knows about its pool (mirrors the cluster config's NodePoolConfig). */
/** The port a kubelet serves on (its daemon endpoint). */
export const kubeletPort = 10250;

export interface NodePoolSpec {
  name: string;
  capacity: Readonly<Record<string, string>>;
  kubeletVersion: string;
  labels: Readonly<Record<string, string>>;
  taints: readonly { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
  gpus?: { model: string; count: number; mig: 'none' | 'dynamic' | readonly string[]; expose: 'dra' | 'device-plugin'; migStrategy: 'single' | 'mixed' };
  /** The simulated kubelet's --cpu-manager-policy (default none); static makes Guaranteed cpu resizes Infeasible. */
  cpuManagerPolicy?: 'none' | 'static';
  /** The simulated kubelet's --memory-manager-policy (default None). */
  memoryManagerPolicy?: 'None' | 'Static';
  /** sim (default), or process: containers with a command run as host processes. */
  runtime?: 'sim' | 'process';
}

export const poolLabel = 'drydock.dev/pool';

/** The node's provider ID (the kubelet's --provider-id, its Node's spec.providerID). */
export function nodeProviderID(node: string): string {
  return `drydock://${node}`;
}
export const runtimeVersion = '0.1.0';
export const region = 'drydock';
export const zone = 'drydock-a';

interface GpuModel {
  /** As nvidia-smi names it. */
  productName: string;
  product: string;
  memoryMiB: number;
  family: string;
  migCapable: boolean;
}

// What NVIDIA GPU feature discovery reports per model (nvidia.com/gpu.product, .memory in MiB, .family).
const gpuModels: Record<string, GpuModel> = lookupTable({
  'H100-80GB': { productName: 'NVIDIA H100 80GB HBM3', product: 'NVIDIA-H100-80GB-HBM3', memoryMiB: 81559, family: 'hopper', migCapable: true },
  'H200-141GB': { productName: 'NVIDIA H200', product: 'NVIDIA-H200', memoryMiB: 143771, family: 'hopper', migCapable: true },
  'A100-40GB': { productName: 'NVIDIA A100-SXM4-40GB', product: 'NVIDIA-A100-SXM4-40GB', memoryMiB: 40960, family: 'ampere', migCapable: true },
  'A100-80GB': { productName: 'NVIDIA A100-SXM4-80GB', product: 'NVIDIA-A100-SXM4-80GB', memoryMiB: 81920, family: 'ampere', migCapable: true },
  'B200-180GB': { productName: 'NVIDIA B200', product: 'NVIDIA-B200', memoryMiB: 183359, family: 'blackwell', migCapable: true },
  'L4-24GB': { productName: 'NVIDIA L4', product: 'NVIDIA-L4', memoryMiB: 23034, family: 'ada-lovelace', migCapable: false },
  'L40S-48GB': { productName: 'NVIDIA L40S', product: 'NVIDIA-L40S', memoryMiB: 46068, family: 'ada-lovelace', migCapable: false },
  'T4-16GB': { productName: 'Tesla T4', product: 'Tesla-T4', memoryMiB: 15360, family: 'turing', migCapable: false },
});

/** The model's name as nvidia-smi prints it. */
export function gpuProductName(model: string): string {
  return gpuModels[model]?.productName ?? `NVIDIA ${model}`;
}

/** Deterministic addresses: node k (in config order) gets 10.0.x.y for itself and 10.(128+)/24 for pods. */
export function nodeInternalIP(k: number): string {
  const n = k + 10;
  return `10.${(n >> 16) & 127}.${(n >> 8) & 255}.${n & 255}`;
}
export function nodePodCIDRBase(k: number): string {
  return `10.${128 + ((k >> 8) & 127)}.${k & 255}`;
}

function gpuLabels(gpus: NonNullable<NodePoolSpec['gpus']>): Record<string, string> {
  const model = gpuModels[gpus.model];
  const labels: Record<string, string> = {
    'nvidia.com/gpu.present': 'true',
    'nvidia.com/gpu.product': model?.product ?? `NVIDIA-${gpus.model}`,
    'nvidia.com/gpu.count': String(gpus.count),
  };
  if (model) {
    labels['nvidia.com/gpu.memory'] = String(model.memoryMiB);
    labels['nvidia.com/gpu.family'] = model.family;
  }
  labels['nvidia.com/mig.capable'] = String(model?.migCapable ?? false);
  if (gpus.expose === 'device-plugin' && gpus.mig !== 'none') labels['nvidia.com/mig.strategy'] = gpus.migStrategy;
  return labels;
}

function gpuCapacity(gpus: NonNullable<NodePoolSpec['gpus']>): Record<string, string> {
  if (gpus.expose !== 'device-plugin') return {};
  if (!Array.isArray(gpus.mig) || gpus.mig.length === 0) return { 'nvidia.com/gpu': String(gpus.count) };
  if (gpus.migStrategy === 'single') return { 'nvidia.com/gpu': String(gpus.count * gpus.mig.length) };
  const out: Record<string, string> = {};
  for (const profile of gpus.mig) out[`nvidia.com/mig-${profile}`] = String(Number(out[`nvidia.com/mig-${profile}`] ?? 0) + gpus.count);
  return out;
}

// Allocatable = capacity - reserved - hard eviction thresholds (memory.available<100Mi, nodefs.available<10%),
// each in its capacity's format and written as a Quantity marshals: 64Gi of memory leaves 65436Mi, 500Gi of disk 450Gi.
function allocatableOf(capacity: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(capacity)) out[name] = canonical(text);
  const mem = capacity.memory ? parseQuantity(capacity.memory) : undefined;
  if (mem) out.memory = reduced(mem, 100n * 1024n * 1024n);
  const disk = capacity['ephemeral-storage'] ? parseQuantity(capacity['ephemeral-storage']) : undefined;
  // GetThresholdQuantity: int64(float64(capacity) * 0.1).
  if (disk) out['ephemeral-storage'] = reduced(disk, BigInt(Math.trunc(quantityValue(disk) * 0.1)));
  return out;
}

function reduced(q: Quantity, by: bigint): string {
  const left = quantityNanoValue(q) - by * 1_000_000_000n;
  return formatQuantity(quantityFromNano(left > 0n ? left : 0n, q.format));
}

function canonical(text: string): string {
  return canonicalizeQuantityText(text) ?? text;
}

export type NodeHealth = 'healthy';

/** What the eviction manager reports to the node status setters. */
export interface NodePressure {
  memory: boolean;
}

/** node.status.images: what the Images setter reports. */
export type NodeImages = readonly { names: string[]; sizeBytes: number }[];

/** The node's conditions: the kubelet's own set afresh (transition times kept where the status holds), the others as they were. */
export function nodeConditions(now: number, old: readonly NodeCondition[] | undefined, pressure?: NodePressure): NodeCondition[] {
  const t = formatTime(now);
  const want: [string, string, string, string][] = [
    pressure?.memory
      ? ['MemoryPressure', 'True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available']
      : ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
    ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
  ];
  const owned = want.map(([type, status, reason, message]) => {
    const prev = old?.find((c) => c.type === type);
    const lastTransitionTime = prev && prev.status === status && prev.lastTransitionTime ? prev.lastTransitionTime : t;
    return { type, status, lastHeartbeatTime: t, lastTransitionTime, reason, message } as NodeCondition;
  });
  // The setters change the kubelet's own conditions where they stand and append the missing ones;
  // the rest (node-problem-detector's, a user's) the kubelet's status patch leaves alone.
  const out = (old ?? []).map((c) => owned.find((o) => o.type === c.type) ?? c);
  for (const o of owned) if (!out.includes(o)) out.push(o);
  return out;
}

type NodeStatus = NonNullable<Node['status']>;

/**
 * The status the kubelet's setters make of the node's current one: its capacity entries over the
 * current ones (an extended resource someone else advertised stays), allocatable for every capacity
 * entry less the kubelet's reservations (an extended resource gone from capacity leaves it too), its
 * conditions among the others, its addresses, nodeInfo and images; the rest as it was.
 * Upstream: nodestatus/setters.go (MachineInfo, NodeAddress, the condition setters).
 */
export function kubeletNodeStatus(id: NodeIdentity, now: number, current: Node['status'] | undefined, pressure?: NodePressure, images?: NodeImages): NodeStatus {
  const own = buildNode(id, now).status as NodeStatus;
  const capacity: Record<string, string> = { ...current?.capacity, ...own.capacity };
  const allocatable: Record<string, string> = { ...current?.allocatable };
  for (const name of Object.keys(allocatable)) if (capacity[name] === undefined && isExtendedResourceName(name)) delete allocatable[name];
  Object.assign(allocatable, allocatableOf(capacity));
  // The version setter fills in nodeInfo's fields; the ones it leaves (kubeProxyVersion, "" since 1.31) stay.
  const nodeInfo = { ...current?.nodeInfo, ...own.nodeInfo } as NonNullable<NodeStatus['nodeInfo']>;
  return { ...current, ...own, capacity, allocatable, conditions: nodeConditions(now, current?.conditions, pressure), nodeInfo, ...(images?.length ? { images: images.map((i) => ({ names: [...i.names], sizeBytes: i.sizeBytes })) } : {}) };
}

/**
 * nodeStatusHasChanged: whether `next` says anything `current` does not, heartbeats aside and
 * quantities compared as quantities (a text and its canonical form are one value).
 */
export function nodeStatusChanged(next: NodeStatus, current: Node['status'] | undefined): boolean {
  for (const key of Object.keys(next) as (keyof NodeStatus)[]) {
    const a = next[key];
    const b = current?.[key];
    const same = key === 'capacity' || key === 'allocatable' ? sameResources(a as Record<string, string>, b as Record<string, string> | undefined) : key === 'conditions' ? sameConditions(a as NodeCondition[], b as NodeCondition[] | undefined) : jsonEqual(a, b);
    if (!same) return true;
  }
  return false;
}

function sameResources(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>> | undefined): boolean {
  if (b === undefined || Object.keys(a).length !== Object.keys(b).length) return false;
  for (const name of Object.keys(a)) {
    const x = a[name];
    const y = b[name];
    if (x !== y && (x === undefined || y === undefined || canonicalizeQuantityText(x) !== canonicalizeQuantityText(y))) return false;
  }
  return true;
}

function sameConditions(a: readonly NodeCondition[], b: readonly NodeCondition[] | undefined): boolean {
  if (b === undefined || a.length !== b.length) return false;
  return a.every((c, i) => jsonEqual({ ...c, lastHeartbeatTime: undefined }, { ...b[i], lastHeartbeatTime: undefined }));
}

export interface NodeIdentity {
  name: string;
  /** Position of the node in the cluster (pools in config order), for deterministic addresses. */
  ordinal: number;
  pool: NodePoolSpec;
  /** 32 hex digits each, from the injected Random. */
  machineID: string;
  bootID: string;
}

export function buildNode(id: NodeIdentity, now: number): Node {
  const { pool } = id;
  const capacity: Record<string, string> = {};
  for (const [name, text] of Object.entries({ ...pool.capacity, ...(pool.gpus ? gpuCapacity(pool.gpus) : {}) })) capacity[name] = canonical(text);
  const instanceType = pool.gpus ? `drydock.${pool.gpus.model.toLowerCase()}x${pool.gpus.count}` : `drydock.${pool.name}`;
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': id.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': instanceType,
    'topology.kubernetes.io/region': region,
    'topology.kubernetes.io/zone': zone,
    [poolLabel]: pool.name,
    ...(pool.gpus ? gpuLabels(pool.gpus) : {}),
    ...pool.labels,
  };
  const podCIDR = `${nodePodCIDRBase(id.ordinal)}.0/24`;
  const node: Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.name,
      labels,
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR, podCIDRs: [podCIDR], providerID: nodeProviderID(id.name) },
    status: {
      capacity,
      allocatable: allocatableOf(capacity),
      conditions: nodeConditions(now, undefined),
      addresses: [
        { type: 'InternalIP', address: nodeInternalIP(id.ordinal) },
        { type: 'Hostname', address: id.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
      nodeInfo: {
        machineID: id.machineID,
        systemUUID: `${id.machineID.slice(0, 8)}-${id.machineID.slice(8, 12)}-${id.machineID.slice(12, 16)}-${id.machineID.slice(16, 20)}-${id.machineID.slice(20, 32)}`,
        bootID: id.bootID,
        kernelVersion: '6.8.0-drydock',
        osImage: 'Drydock simulated node',
        containerRuntimeVersion: `drydock://${runtimeVersion}`,
        kubeletVersion: pool.kubeletVersion,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
      ...runtimeStatus(poolRuntimeHandlers(pool)),
    },
  };
  if (pool.taints.length) node.spec = { ...node.spec, taints: pool.taints.map((t) => ({ ...t })) };
  return node;
}
