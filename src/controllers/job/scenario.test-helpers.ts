// Helpers for the Job controller's scenario tests: an in-process cluster on a VirtualClock
// with no nodes, where the test plays the kubelet by writing pod status itself.
import { refs } from '../../api/index.ts';
import type { ContainerStatus, Event, Job, Pod, PodCondition } from '../../api/index.ts';
import { Cluster, defaultClusterConfig } from '../../cluster/index.ts';
import { SeededRandom, VirtualClock, formatTime } from '../../core/index.ts';

export interface Scenario {
  cluster: Cluster;
  clock: VirtualClock;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function startScenario(seed = 7): Promise<Scenario> {
  const clock = new VirtualClock();
  const cluster = await Cluster.start({ config: { ...defaultClusterConfig(), nodePools: [] }, clock, random: new SeededRandom(seed), components: true, log: () => {} });
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

export function job(name: string, spec: Partial<Job['spec']> = {}, template: Partial<Job['spec']['template']['spec']> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }], ...template } },
      ...spec,
    },
  };
}

export async function createJob(s: Scenario, j: Job): Promise<Job> {
  return s.cluster.client.create<Job>(refs.jobs, j, { namespace: 'default' });
}

export async function getJob(s: Scenario, name: string): Promise<Job> {
  return s.cluster.client.get<Job>(refs.jobs, 'default', name);
}

export async function podsOf(s: Scenario, jobName: string, opts: { includeDeleting?: boolean } = {}): Promise<Pod[]> {
  const items = (await s.cluster.client.list<Pod>(refs.pods, { namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${jobName}` })).items;
  const pods = opts.includeDeleting ? items : items.filter((p) => !p.metadata.deletionTimestamp);
  return pods.sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

export async function activePods(s: Scenario, jobName: string): Promise<Pod[]> {
  return (await podsOf(s, jobName)).filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
}

/** Waits for exactly n active pods of the Job and returns them. */
export async function waitForActive(s: Scenario, jobName: string, n: number): Promise<Pod[]> {
  return eventually(s.clock, async () => {
    const pods = await activePods(s, jobName);
    return pods.length === n && pods;
  }, `${n} active pods of ${jobName}`);
}

export async function waitForCondition(s: Scenario, jobName: string, type: string): Promise<Job> {
  return eventually(s.clock, async () => {
    const j = await getJob(s, jobName);
    return (j.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True') && j;
  }, `${type} on ${jobName}`);
}

/** Plays the kubelet: the pod ends with the given phase and main-container exit code. */
export async function finishPod(s: Scenario, pod: Pod, phase: 'Succeeded' | 'Failed', exitCode = phase === 'Succeeded' ? 0 : 1, conditions: PodCondition[] = []): Promise<void> {
  const latest = await s.cluster.client.get<Pod>(refs.pods, 'default', pod.metadata.name ?? '');
  const at = formatTime(s.clock.now());
  const containerStatuses: ContainerStatus[] = latest.spec.containers.map((c) => ({
    name: c.name,
    image: c.image ?? '',
    imageID: '',
    ready: false,
    restartCount: 0,
    state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: at, finishedAt: at } },
  }));
  await s.cluster.client.updateStatus<Pod>(refs.pods, { ...latest, status: { ...latest.status, phase, containerStatuses, conditions: [...(latest.status?.conditions ?? []), ...conditions] } });
}

export async function jobEvents(s: Scenario, jobName: string): Promise<Event[]> {
  const items = (await s.cluster.client.list<Event>(refs.events, { namespace: 'default' })).items;
  return items.filter((e) => e.involvedObject.kind === 'Job' && e.involvedObject.name === jobName).sort((a, b) => (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

export function conditionSummary(j: Job): string[] {
  return (j.status?.conditions ?? []).map((c) => `${c.type}=${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`);
}
