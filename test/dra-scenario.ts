// Shared by the DRA scenario tests (scheduler plugin, ResourceClaim controller): an in-process
// cluster on a VirtualClock with GPU node pools, and builders for claims, templates, classes and pods.
import { refs } from '../src/api/index.ts';
import type { Event, Pod, resourceV1 } from '../src/api/index.ts';
import { Cluster, parseClusterConfig } from '../src/cluster/index.ts';
import { SeededRandom, VirtualClock } from '../src/core/index.ts';

export interface Scenario {
  cluster: Cluster;
  clock: VirtualClock;
  [Symbol.asyncDispose](): Promise<void>;
}

/** `pools` is the YAML of the nodePools list; `featureGates` and `scheduler` the config's maps (JSON is YAML). */
export async function startDraScenario(pools: string, seed = 7, featureGates: Readonly<Record<string, boolean>> = {}, scheduler: Readonly<Record<string, unknown>> = {}, elapsedMs?: () => number): Promise<Scenario> {
  const clock = new VirtualClock();
  const config = parseClusterConfig(`apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nkubernetesVersion: v1.35.0\nfeatureGates: ${JSON.stringify(featureGates)}\nscheduler: ${JSON.stringify(scheduler)}\nnodePools:\n${pools}`);
  const cluster = await Cluster.start({ config, clock, random: new SeededRandom(seed), components: true, log: () => {}, ...(elapsedMs ? { elapsedMs } : {}) });
  return { cluster, clock, [Symbol.asyncDispose]: () => cluster.stop() };
}

export async function eventually<T>(clock: VirtualClock, check: () => Promise<T | undefined | false>, what: string, stepMs = 100, steps = 600): Promise<T> {
  for (let i = 0; i < steps; i++) {
    const v = await check();
    if (v) return v;
    await clock.advance(stepMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function migClass(profile: string): resourceV1.DeviceClass {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name: `mig-${profile.replace('.', '-')}` },
    spec: { selectors: [{ cel: { expression: `device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig' && device.attributes['gpu.nvidia.com'].profile == '${profile}'` } }] },
  };
}

export function claimSpec(className: string, count = 1, extra: Partial<resourceV1.ExactDeviceRequest> = {}): resourceV1.ResourceClaimSpec {
  return { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: className, count, ...extra } }] } };
}

export function claim(name: string, spec: resourceV1.ResourceClaimSpec): resourceV1.ResourceClaim {
  return { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name, namespace: 'default' }, spec };
}

export function template(name: string, spec: resourceV1.ResourceClaimSpec): resourceV1.ResourceClaimTemplate {
  return { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name, namespace: 'default' }, spec: { spec } };
}

/** A pod whose container uses claim entry `gpu` (from a claim name or a template). */
export function claimPod(name: string, source: { resourceClaimName: string } | { resourceClaimTemplateName: string }, extra: Partial<Pod['spec']> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { resourceClaims: [{ name: 'gpu', ...source }], containers: [{ name: 'c', image: 'nvidia/cuda', resources: { claims: [{ name: 'gpu' }] } }], ...extra },
  };
}

export async function getClaim(s: Scenario, name: string): Promise<resourceV1.ResourceClaim> {
  return s.cluster.client.get<resourceV1.ResourceClaim>(refs.resourceClaims, 'default', name);
}

export async function getPod(s: Scenario, name: string): Promise<Pod> {
  return s.cluster.client.get<Pod>(refs.pods, 'default', name);
}

export async function listClaims(s: Scenario): Promise<resourceV1.ResourceClaim[]> {
  return (await s.cluster.client.list<resourceV1.ResourceClaim>(refs.resourceClaims, { namespace: 'default' })).items;
}

export async function events(s: Scenario, reason: string): Promise<Event[]> {
  return (await s.cluster.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.reason === reason);
}

export async function waitRunning(s: Scenario, name: string): Promise<Pod> {
  return eventually(s.clock, async () => {
    const p = await getPod(s, name);
    return p.status?.phase === 'Running' && p;
  }, `${name} Running`);
}

export async function waitUnschedulable(s: Scenario, name: string): Promise<string> {
  return eventually(s.clock, async () => {
    const c = (await getPod(s, name)).status?.conditions?.find((x) => x.type === 'PodScheduled' && x.status === 'False');
    return c?.message;
  }, `${name} unschedulable`);
}

export const tail = (n: number): string => ` still not schedulable, preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
