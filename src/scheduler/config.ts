// KubeSchedulerConfiguration (the cluster config's `scheduler` field): profiles, plugin
// enable/disable per extension point with upstream's merge rules, weights and pluginConfig.
// Upstream: pkg/scheduler/apis/config/v1/default_plugins.go (getDefaultPlugins, mergePluginSet),
// pkg/scheduler/framework/runtime/framework.go (expandMultiPointPlugins).
import type { FeatureGates } from '../api/index.ts';
import type { Handle, Plugin, PluginFactory } from './framework.ts';
import type { PointLists, ScorePlugin } from './profile.ts';
import { Profile } from './profile.ts';

export const defaultSchedulerName = 'default-scheduler';

export interface PluginRef {
  name: string;
  weight?: number;
}
export interface PluginSet {
  enabled: PluginRef[];
  disabled: PluginRef[];
}

export const extensionPoints = [
  'multiPoint', 'preEnqueue', 'queueSort', 'preFilter', 'filter', 'postFilter', 'preScore', 'score', 'reserve', 'permit', 'preBind', 'bind', 'postBind',
] as const;
export type ExtensionPoint = (typeof extensionPoints)[number];

export interface ProfileConfig {
  schedulerName: string;
  percentageOfNodesToScore?: number;
  plugins: Partial<Record<ExtensionPoint, PluginSet>>;
  pluginConfig: Map<string, Record<string, unknown>>;
}

export interface SchedulerConfig {
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  profiles: ProfileConfig[];
}

/**
 * The default MultiPoint list (1.35), in order; weights are score weights. Plugins Drydock
 * does not register (NodeVolumeLimits, VolumeZone, ...) are skipped when absent
 * from the registry, as are DynamicResources and GangScheduling until their helpers add them:
 * DynamicResources sits right before DefaultPreemption (its PostFilter should deallocate an idle
 * claim before anything is evicted), GangScheduling (alpha) is appended last.
 */
export const defaultPlugins: readonly PluginRef[] = [
  { name: 'SchedulingGates' },
  { name: 'PrioritySort' },
  { name: 'NodeUnschedulable' },
  { name: 'NodeName' },
  { name: 'TaintToleration', weight: 3 },
  { name: 'NodeAffinity', weight: 2 },
  { name: 'NodePorts' },
  { name: 'NodeResourcesFit', weight: 1 },
  { name: 'VolumeRestrictions' },
  { name: 'NodeVolumeLimits' },
  { name: 'VolumeBinding' },
  { name: 'VolumeZone' },
  { name: 'PodTopologySpread', weight: 2 },
  { name: 'InterPodAffinity', weight: 2 },
  { name: 'DynamicResources' },
  { name: 'DefaultPreemption' },
  { name: 'NodeResourcesBalancedAllocation', weight: 1 },
  { name: 'ImageLocality', weight: 1 },
  { name: 'DefaultBinder' },
  { name: 'GangScheduling' },
];

export class SchedulerConfigError extends Error {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parsePluginList(v: unknown, path: string): PluginRef[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new SchedulerConfigError(`${path}: must be a list`);
  return v.map((p, i) => {
    if (!isRecord(p) || typeof p.name !== 'string' || p.name === '') throw new SchedulerConfigError(`${path}[${i}].name: Required value`);
    const ref: PluginRef = { name: p.name };
    if (p.weight !== undefined) {
      if (typeof p.weight !== 'number' || !Number.isInteger(p.weight) || p.weight < 0) throw new SchedulerConfigError(`${path}[${i}].weight: must be a non-negative integer`);
      ref.weight = p.weight;
    }
    return ref;
  });
}

function parsePercentage(v: unknown, path: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100) throw new SchedulerConfigError(`${path}: Invalid value: ${JSON.stringify(v)}: not in valid range [0-100]`);
  return v;
}

/** Parses the `scheduler` map of the cluster config. Errors name the field path. */
export function parseSchedulerConfig(raw: Readonly<Record<string, unknown>> | undefined): SchedulerConfig {
  const r = raw ?? {};
  const global = parsePercentage(r.percentageOfNodesToScore, 'scheduler.percentageOfNodesToScore');
  const backoff = (k: string, d: number): number => {
    const v = r[k];
    if (v === undefined) return d;
    if (typeof v !== 'number' || v <= 0) throw new SchedulerConfigError(`scheduler.${k}: must be greater than 0`);
    return v;
  };
  // Without profiles: the default one plus `volcano`, which gang-schedules Volcano PodGroups (GangScheduling).
  const rawProfiles = r.profiles ?? [{}, { schedulerName: 'volcano' }];
  if (!Array.isArray(rawProfiles)) throw new SchedulerConfigError('scheduler.profiles: must be a list');
  const names = new Set<string>();
  const profiles = rawProfiles.map((p, i): ProfileConfig => {
    const path = `scheduler.profiles[${i}]`;
    if (!isRecord(p)) throw new SchedulerConfigError(`${path}: must be a map`);
    const schedulerName = p.schedulerName === undefined ? defaultSchedulerName : p.schedulerName;
    if (typeof schedulerName !== 'string' || schedulerName === '') throw new SchedulerConfigError(`${path}.schedulerName: Required value`);
    if (names.has(schedulerName)) throw new SchedulerConfigError(`${path}.schedulerName: Duplicate value: ${JSON.stringify(schedulerName)}`);
    names.add(schedulerName);
    const plugins: Partial<Record<ExtensionPoint, PluginSet>> = {};
    if (p.plugins !== undefined) {
      if (!isRecord(p.plugins)) throw new SchedulerConfigError(`${path}.plugins: must be a map`);
      for (const [point, set] of Object.entries(p.plugins)) {
        if (!(extensionPoints as readonly string[]).includes(point)) throw new SchedulerConfigError(`${path}.plugins.${point}: unknown extension point`);
        const s = isRecord(set) ? set : {};
        plugins[point as ExtensionPoint] = {
          enabled: parsePluginList(s.enabled, `${path}.plugins.${point}.enabled`),
          disabled: parsePluginList(s.disabled, `${path}.plugins.${point}.disabled`),
        };
      }
    }
    const pluginConfig = new Map<string, Record<string, unknown>>();
    if (p.pluginConfig !== undefined) {
      if (!Array.isArray(p.pluginConfig)) throw new SchedulerConfigError(`${path}.pluginConfig: must be a list`);
      p.pluginConfig.forEach((c, j) => {
        if (!isRecord(c) || typeof c.name !== 'string') throw new SchedulerConfigError(`${path}.pluginConfig[${j}].name: Required value`);
        if (pluginConfig.has(c.name)) throw new SchedulerConfigError(`${path}.pluginConfig[${j}]: Duplicate value: ${JSON.stringify(c.name)}`);
        pluginConfig.set(c.name, isRecord(c.args) ? c.args : {});
      });
    }
    const pct = parsePercentage(p.percentageOfNodesToScore, `${path}.percentageOfNodesToScore`);
    return { schedulerName, plugins, pluginConfig, ...(pct !== undefined ? { percentageOfNodesToScore: pct } : {}) };
  });
  return {
    ...(global !== undefined ? { percentageOfNodesToScore: global } : {}),
    podInitialBackoffSeconds: backoff('podInitialBackoffSeconds', 1),
    podMaxBackoffSeconds: backoff('podMaxBackoffSeconds', 10),
    profiles,
  };
}

/** mergePluginSet: defaults minus disabled ("*" disables all), overridden in place, customs appended. */
export function mergePluginSet(defaults: readonly PluginRef[], custom: PluginSet | undefined): PluginRef[] {
  if (!custom) return [...defaults];
  const disabled = new Set(custom.disabled.map((p) => p.name));
  const customByName = new Map(custom.enabled.map((p, i) => [p.name, { p, i }]));
  const replaced = new Set<number>();
  const out: PluginRef[] = [];
  if (!disabled.has('*')) {
    for (const d of defaults) {
      if (disabled.has(d.name)) continue;
      const c = customByName.get(d.name);
      if (c) {
        replaced.add(c.i);
        out.push(c.p);
      } else out.push(d);
    }
  }
  custom.enabled.forEach((p, i) => {
    if (!replaced.has(i)) out.push(p);
  });
  return out;
}

type PointName = Exclude<ExtensionPoint, 'multiPoint'>;
const implementsPoint: Record<PointName, (p: Plugin) => boolean> = {
  preEnqueue: (p) => !!p.preEnqueue,
  queueSort: (p) => !!p.less,
  preFilter: (p) => !!p.preFilter,
  filter: (p) => !!p.filter,
  postFilter: (p) => !!p.postFilter,
  preScore: (p) => !!p.preScore,
  score: (p) => !!p.score,
  reserve: (p) => !!(p.reserve || p.unreserve),
  permit: (p) => !!p.permit,
  preBind: (p) => !!p.preBind,
  bind: (p) => !!p.bind,
  postBind: (p) => !!p.postBind,
};

/** Instantiates a profile's plugins (each once) and lays them out per extension point. */
export function buildProfile(cfg: ProfileConfig, registry: Readonly<Record<string, PluginFactory>>, handle: Handle, features: FeatureGates): Profile {
  const multi = mergePluginSet(defaultPlugins.filter((p) => p.name in registry), cfg.plugins.multiPoint);
  const instances = new Map<string, Plugin>();
  const instantiate = (name: string): Plugin => {
    let p = instances.get(name);
    if (p) return p;
    const factory = registry[name];
    if (!factory) throw new SchedulerConfigError(`profile ${JSON.stringify(cfg.schedulerName)}: plugin ${JSON.stringify(name)} does not exist`);
    try {
      p = factory(cfg.pluginConfig.get(name) ?? {}, handle, features);
    } catch (error) {
      // A plugin reads its own args (as upstream's args validation does before the profile is built).
      throw new SchedulerConfigError(`profile ${JSON.stringify(cfg.schedulerName)}: plugin ${JSON.stringify(name)} args: ${error instanceof Error ? error.message : String(error)}`);
    }
    instances.set(name, p);
    return p;
  };
  const lists: Partial<Record<PointName, Plugin[]>> = {};
  const weights = new Map<string, number>();
  for (const m of multi) if (m.weight !== undefined) weights.set(m.name, m.weight);
  for (const point of Object.keys(implementsPoint) as PointName[]) {
    const specific = cfg.plugins[point];
    const disabled = new Set((specific?.disabled ?? []).map((p) => p.name));
    const list: Plugin[] = [];
    const seen = new Set<string>();
    if (!disabled.has('*')) {
      for (const m of multi) {
        if (disabled.has(m.name)) continue;
        const p = instantiate(m.name);
        if (!implementsPoint[point](p)) continue;
        list.push(p);
        seen.add(m.name);
      }
    }
    for (const e of specific?.enabled ?? []) {
      if (point === 'score' && e.weight !== undefined) weights.set(e.name, e.weight);
      if (seen.has(e.name)) continue;
      const p = instantiate(e.name);
      if (!implementsPoint[point](p)) throw new SchedulerConfigError(`plugin ${JSON.stringify(e.name)} does not extend ${point} plugin`);
      list.push(p);
      seen.add(e.name);
    }
    lists[point] = list;
  }
  const queueSorts = lists.queueSort ?? [];
  if (queueSorts.length !== 1) throw new SchedulerConfigError(`profile ${JSON.stringify(cfg.schedulerName)}: one queue sort plugin required for profile`);
  if ((lists.bind ?? []).length === 0) throw new SchedulerConfigError(`profile ${JSON.stringify(cfg.schedulerName)}: at least one bind plugin is needed`);
  const score: ScorePlugin[] = (lists.score ?? []).map((p) => ({ plugin: p, weight: weights.get(p.name) || 1 }));
  const points: PointLists = {
    preEnqueue: lists.preEnqueue ?? [],
    queueSort: queueSorts[0],
    preFilter: lists.preFilter ?? [],
    filter: lists.filter ?? [],
    postFilter: lists.postFilter ?? [],
    preScore: lists.preScore ?? [],
    score,
    reserve: lists.reserve ?? [],
    permit: lists.permit ?? [],
    preBind: lists.preBind ?? [],
    bind: lists.bind ?? [],
    postBind: lists.postBind ?? [],
  };
  const profile = new Profile(cfg.schedulerName, instances, points, cfg.percentageOfNodesToScore);
  profile.handle = handle;
  return profile;
}
