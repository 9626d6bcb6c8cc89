// The kubelet's /metrics/resource, what metrics-server scrapes: the Summary API's CPU and memory in the
// Prometheus text format, with each sample's time.
// Upstream: pkg/kubelet/metrics/collectors/resource_metrics.go.
import { expositionText } from './metrics-exposition.ts';
import type { Family, Sample } from './metrics-exposition.ts';
import type { PodStats, Summary } from './stats-summary.ts';

const seconds = (coreNanoSeconds: number | undefined): number => (coreNanoSeconds ?? 0) / 1e9;
const containerLabels = (pod: PodStats, container: string): Record<string, string> => ({ container, namespace: pod.podRef.namespace, pod: pod.podRef.name });
const podLabels = (pod: PodStats): Record<string, string> => ({ namespace: pod.podRef.namespace, pod: pod.podRef.name });

function families(summary: Summary, now: number): Family[] {
  const family = (name: string, help: string, type: 'counter' | 'gauge', samples: Sample[]): Family => ({ name, help, stability: 'STABLE', type, samples });
  const containerCpu: Sample[] = [];
  const containerMemory: Sample[] = [];
  const containerStart: Sample[] = [];
  const podCpu: Sample[] = [];
  const podMemory: Sample[] = [];
  for (const pod of summary.pods) {
    for (const c of pod.containers) {
      containerStart.push({ labels: containerLabels(pod, c.name), value: Date.parse(c.startTime) / 1000 });
      containerCpu.push({ labels: containerLabels(pod, c.name), value: seconds(c.cpu?.usageCoreNanoSeconds), timestamp: now });
      containerMemory.push({ labels: containerLabels(pod, c.name), value: c.memory?.workingSetBytes ?? 0, timestamp: now });
    }
    podCpu.push({ labels: podLabels(pod), value: seconds(pod.cpu?.usageCoreNanoSeconds), timestamp: now });
    podMemory.push({ labels: podLabels(pod), value: pod.memory?.workingSetBytes ?? 0, timestamp: now });
  }
  return [
    family('container_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the container in core-seconds', 'counter', containerCpu),
    family('container_memory_working_set_bytes', 'Current working set of the container in bytes', 'gauge', containerMemory),
    family('container_start_time_seconds', 'Start time of the container since unix epoch in seconds', 'gauge', containerStart),
    family('node_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the node in core-seconds', 'counter', [{ labels: {}, value: seconds(summary.node.cpu?.usageCoreNanoSeconds), timestamp: now }]),
    family('node_memory_working_set_bytes', 'Current working set of the node in bytes', 'gauge', [{ labels: {}, value: summary.node.memory?.workingSetBytes ?? 0, timestamp: now }]),
    family('pod_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the pod in core-seconds', 'counter', podCpu),
    family('pod_memory_working_set_bytes', 'Current working set of the pod in bytes', 'gauge', podMemory),
    family('resource_scrape_error', '1 if there was an error while getting container metrics, 0 otherwise', 'gauge', [{ labels: {}, value: 0 }]),
  ];
}

/** The exposition text of the summary at time `now`. */
export function resourceMetricsText(summary: Summary, now: number): string {
  return expositionText(families(summary, now));
}
