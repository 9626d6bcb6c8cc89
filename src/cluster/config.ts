// ClusterConfig (drydock.dev/v1alpha1 Cluster): schema, defaults and validation. The field
// names are a contract (DESIGN.md): more may be added, none renamed. Unknown fields and bad
// values are rejected with a message naming the field path.
import { parse as parseYaml } from 'yaml';
import { maxNestingDepth, parseQuantity, yamlTooDeep } from '../core/index.ts';
import { defaultFeatureGates, featureGateNames, isFeatureGate } from '../api/index.ts';
import type { FeatureGate, FeatureGates } from '../api/index.ts';

export interface GpuConfig {
  model: string;
  count: number;
  mig: 'none' | 'dynamic' | string[];
  expose: 'dra' | 'device-plugin';
  migStrategy: 'single' | 'mixed';
  nvlinkDomainSize: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface NodePoolConfig {
  name: string;
  count: number;
  capacity: Record<string, string>;
  kubeletVersion: string;
  runtime: 'sim' | 'process';
  labels: Record<string, string>;
  taints: Taint[];
  gpus?: GpuConfig;
  /** The simulated kubelet's CPU manager policy: none (default) | static (Guaranteed cpu resizes are Infeasible). */
  cpuManagerPolicy?: 'none' | 'static';
  /** The simulated kubelet's memory manager policy: None (default) | Static. */
  memoryManagerPolicy?: 'None' | 'Static';
}

export interface ClusterConfig {
  apiVersion: 'drydock.dev/v1alpha1';
  kind: 'Cluster';
  kubernetesVersion: string;
  nodePools: NodePoolConfig[];
  scheduler: Record<string, unknown>;
  clock: string;
  /** Upstream gate names; every gate Drydock knows is present (unset ones take their default). */
  featureGates: FeatureGates;
}

export class ConfigError extends Error {}

const defaultCapacity = { cpu: '16', memory: '64Gi', pods: '110', 'ephemeral-storage': '500Gi' };

export function defaultClusterConfigText(): string {
  return `apiVersion: drydock.dev/v1alpha1
kind: Cluster
kubernetesVersion: v1.35.0
nodePools:
- name: cpu
  count: 2
  capacity: {cpu: "16", memory: 64Gi}
- name: h100
  count: 2
  capacity: {cpu: "96", memory: 1Ti}
  gpus: {model: H100-80GB, count: 8, mig: dynamic, expose: dra}
`;
}

type Raw = Record<string, unknown>;

function isRecord(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkFields(obj: Raw, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw new ConfigError(`${path ? `${path}.` : ''}${key}: unknown field`);
  }
}

function str(obj: Raw, key: string, path: string, fallback?: string): string {
  const v = obj[key];
  if (v === undefined) {
    if (fallback !== undefined) return fallback;
    throw new ConfigError(`${path}.${key}: required`);
  }
  if (typeof v !== 'string' || v === '') throw new ConfigError(`${path}.${key}: must be a non-empty string`);
  return v;
}

function int(obj: Raw, key: string, path: string, fallback: number, min = 0): number {
  const v = obj[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new ConfigError(`${path}.${key}: must be an integer >= ${min}`);
  return v;
}

const versionPattern = /^v(\d+)\.(\d+)\.(\d+)$/;

export function parseVersion(text: string): { major: number; minor: number; patch: number } | undefined {
  const m = versionPattern.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined;
}

function stringMap(v: unknown, path: string): Record<string, string> {
  if (v === undefined) return {};
  if (!isRecord(v)) throw new ConfigError(`${path}: must be a map of strings`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string' && typeof value !== 'number') throw new ConfigError(`${path}.${k}: must be a string`);
    out[k] = String(value);
  }
  return out;
}

function parseGpus(v: unknown, path: string): GpuConfig {
  if (!isRecord(v)) throw new ConfigError(`${path}: must be a map`);
  checkFields(v, ['model', 'count', 'mig', 'expose', 'migStrategy', 'nvlinkDomainSize'], path);
  const mig = v.mig ?? 'none';
  if (!(mig === 'none' || mig === 'dynamic' || (Array.isArray(mig) && mig.every((p) => typeof p === 'string')))) {
    throw new ConfigError(`${path}.mig: must be none, dynamic or a list of MIG profiles`);
  }
  const expose = v.expose ?? 'dra';
  if (expose !== 'dra' && expose !== 'device-plugin') throw new ConfigError(`${path}.expose: must be dra or device-plugin`);
  const migStrategy = v.migStrategy ?? 'single';
  if (migStrategy !== 'single' && migStrategy !== 'mixed') throw new ConfigError(`${path}.migStrategy: must be single or mixed`);
  const count = int(v, 'count', path, 8, 1);
  return {
    model: str(v, 'model', path),
    count,
    mig: mig as GpuConfig['mig'],
    expose,
    migStrategy,
    nvlinkDomainSize: int(v, 'nvlinkDomainSize', path, count, 1),
  };
}

function parseTaints(v: unknown, path: string): Taint[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new ConfigError(`${path}: must be a list`);
  return v.map((t, i) => {
    const p = `${path}[${i}]`;
    if (!isRecord(t)) throw new ConfigError(`${p}: must be a map`);
    checkFields(t, ['key', 'value', 'effect'], p);
    const effect = str(t, 'effect', p);
    if (effect !== 'NoSchedule' && effect !== 'PreferNoSchedule' && effect !== 'NoExecute') {
      throw new ConfigError(`${p}.effect: must be NoSchedule, PreferNoSchedule or NoExecute`);
    }
    const taint: Taint = { key: str(t, 'key', p), effect };
    if (t.value !== undefined) taint.value = String(t.value);
    return taint;
  });
}

function parsePool(v: unknown, path: string, kubernetesVersion: string): NodePoolConfig {
  if (!isRecord(v)) throw new ConfigError(`${path}: must be a map`);
  checkFields(v, ['name', 'count', 'capacity', 'kubeletVersion', 'runtime', 'labels', 'taints', 'gpus', 'cpuManagerPolicy', 'memoryManagerPolicy'], path);
  const name = str(v, 'name', path);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) throw new ConfigError(`${path}.name: must be a DNS-1123 label`);
  const capacity = { ...defaultCapacity, ...stringMap(v.capacity, `${path}.capacity`) };
  for (const [resource, q] of Object.entries(capacity)) {
    if (!parseQuantity(q)) throw new ConfigError(`${path}.capacity.${resource}: invalid quantity ${JSON.stringify(q)}`);
  }
  const kubeletVersion = str(v, 'kubeletVersion', path, kubernetesVersion);
  if (!parseVersion(kubeletVersion)) throw new ConfigError(`${path}.kubeletVersion: must look like v1.35.0`);
  const runtime = v.runtime ?? 'sim';
  if (runtime !== 'sim' && runtime !== 'process') throw new ConfigError(`${path}.runtime: must be sim or process`);
  const pool: NodePoolConfig = {
    name,
    count: int(v, 'count', path, 1),
    capacity,
    kubeletVersion,
    runtime,
    labels: stringMap(v.labels, `${path}.labels`),
    taints: parseTaints(v.taints, `${path}.taints`),
  };
  if (v.gpus !== undefined) pool.gpus = parseGpus(v.gpus, `${path}.gpus`);
  // Spelled as the kubelet flags spell them: --cpu-manager-policy=static, --memory-manager-policy=Static.
  if (v.cpuManagerPolicy !== undefined) {
    if (v.cpuManagerPolicy !== 'none' && v.cpuManagerPolicy !== 'static') throw new ConfigError(`${path}.cpuManagerPolicy: must be none or static`);
    pool.cpuManagerPolicy = v.cpuManagerPolicy;
  }
  if (v.memoryManagerPolicy !== undefined) {
    if (v.memoryManagerPolicy !== 'None' && v.memoryManagerPolicy !== 'Static') throw new ConfigError(`${path}.memoryManagerPolicy: must be None or Static`);
    pool.memoryManagerPolicy = v.memoryManagerPolicy;
  }
  return pool;
}

// Like kube's --feature-gates (KubeletConfiguration's featureGates map): gate name -> boolean.
function parseFeatureGates(v: unknown): FeatureGates {
  if (v === undefined) return defaultFeatureGates;
  if (!isRecord(v)) throw new ConfigError('featureGates: must be a map of feature gate names to true or false');
  const gates: Record<FeatureGate, boolean> = { ...defaultFeatureGates };
  for (const [name, value] of Object.entries(v)) {
    if (!isFeatureGate(name)) throw new ConfigError(`featureGates.${name}: unrecognized feature gate (known: ${featureGateNames.join(', ')})`);
    if (typeof value !== 'boolean') throw new ConfigError(`featureGates.${name}: must be true or false`);
    gates[name] = value;
  }
  return gates;
}

// NVIDIA's dynamic MIG advertises every placement as a device consuming shared counters, which the
// API server drops and the allocator ignores without DRAPartitionableDevices.
function checkPoolsAgainstGates(pools: readonly NodePoolConfig[], gates: FeatureGates): void {
  if (gates.DRAPartitionableDevices) return;
  pools.forEach((p, i) => {
    if (p.gpus?.mig === 'dynamic' && p.gpus.expose === 'dra') {
      throw new ConfigError(`nodePools[${i}].gpus.mig: dynamic needs the DRAPartitionableDevices feature gate (featureGates.DRAPartitionableDevices is false); use a static MIG list, none, or expose: device-plugin`);
    }
  });
}

export function parseClusterConfig(text: string): ClusterConfig {
  let raw: unknown;
  const deepLine = yamlTooDeep(text);
  if (deepLine !== undefined) throw new ConfigError(`invalid YAML: exceeded max depth of ${maxNestingDepth} at line ${deepLine}`);
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`invalid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  return clusterConfigFrom(raw ?? {});
}

export function clusterConfigFrom(raw: unknown): ClusterConfig {
  if (!isRecord(raw)) throw new ConfigError('config: must be a map');
  checkFields(raw, ['apiVersion', 'kind', 'kubernetesVersion', 'nodePools', 'scheduler', 'clock', 'featureGates'], '');
  const apiVersion = raw.apiVersion ?? 'drydock.dev/v1alpha1';
  if (apiVersion !== 'drydock.dev/v1alpha1') throw new ConfigError('apiVersion: must be drydock.dev/v1alpha1');
  const kind = raw.kind ?? 'Cluster';
  if (kind !== 'Cluster') throw new ConfigError('kind: must be Cluster');
  const kubernetesVersion = str(raw, 'kubernetesVersion', '', 'v1.35.0');
  if (!parseVersion(kubernetesVersion)) throw new ConfigError('kubernetesVersion: must look like v1.35.0');
  const pools = raw.nodePools ?? [];
  if (!Array.isArray(pools)) throw new ConfigError('nodePools: must be a list');
  const nodePools = pools.map((p, i) => parsePool(p, `nodePools[${i}]`, kubernetesVersion));
  const names = new Set<string>();
  nodePools.forEach((p, i) => {
    if (names.has(p.name)) throw new ConfigError(`nodePools[${i}].name: duplicate pool name ${JSON.stringify(p.name)}`);
    names.add(p.name);
  });
  const scheduler = raw.scheduler ?? {};
  if (!isRecord(scheduler)) throw new ConfigError('scheduler: must be a map');
  // One source of truth: the scheduler takes the cluster's gates, as kube-scheduler takes --feature-gates.
  if (scheduler.featureGates !== undefined) throw new ConfigError('scheduler.featureGates: unknown field; set featureGates at the top level of the cluster config');
  const clock = raw.clock ?? 'real';
  if (typeof clock !== 'string' || !/^(real|virtual|scaled:\d+(\.\d+)?)$/.test(clock)) {
    throw new ConfigError('clock: must be real, virtual or scaled:<factor>');
  }
  const featureGates = parseFeatureGates(raw.featureGates);
  checkPoolsAgainstGates(nodePools, featureGates);
  return { apiVersion: 'drydock.dev/v1alpha1', kind: 'Cluster', kubernetesVersion, nodePools, scheduler, clock, featureGates };
}

// The default cluster's YAML, parsed when this module loads: in the startup snapshot that is when the
// build makes it, so `drydock up` without --config never runs the YAML parser, whose code a start
// would compile on first use.
const defaultConfigDocument: unknown = parseYaml(defaultClusterConfigText());

export function defaultClusterConfig(): ClusterConfig {
  // The config shares objects with the document it was read from: each caller gets its own.
  return clusterConfigFrom(structuredClone(defaultConfigDocument));
}
