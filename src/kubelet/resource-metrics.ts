// The kubelet's /metrics/resource, what metrics-server scrapes: the Summary API's CPU and memory in the
// Prometheus text format, families in name order, numbers as Go's strconv 'g' writes them.
// Upstream: pkg/kubelet/metrics/collectors/resource_metrics.go, prometheus/common expfmt (text_create.go).
import type { PodStats, Summary } from './stats-summary.ts';

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: { labels: [string, string][]; value: number; timestamp?: number }[];
}

/** strconv.FormatFloat(v, 'g', -1, 64): shortest digits, exponent form below 1e-4 and from 1e6 (two exponent digits at least). */
export function goFloat(v: number): string {
  if (v === 0 || !Number.isFinite(v)) return v === 0 ? '0' : Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  const [mantissa = '', exponent = '0'] = v.toExponential().split('e');
  const exp = Number(exponent);
  if (exp >= -4 && exp < 6) return String(v);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

const escapeLabel = (v: string): string => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const seconds = (coreNanoSeconds: number | undefined): number => (coreNanoSeconds ?? 0) / 1e9;
const containerLabels = (pod: PodStats, container: string): [string, string][] => [['container', container], ['namespace', pod.podRef.namespace], ['pod', pod.podRef.name]];
const podLabels = (pod: PodStats): [string, string][] => [['namespace', pod.podRef.namespace], ['pod', pod.podRef.name]];

function families(summary: Summary, now: number): Family[] {
  const family = (name: string, help: string, type: Family['type']): Family => ({ name, help: `[STABLE] ${help}`, type, samples: [] });
  const containerCpu = family('container_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the container in core-seconds', 'counter');
  const containerMemory = family('container_memory_working_set_bytes', 'Current working set of the container in bytes', 'gauge');
  const containerStart = family('container_start_time_seconds', 'Start time of the container since unix epoch in seconds', 'gauge');
  const nodeCpu = family('node_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the node in core-seconds', 'counter');
  const nodeMemory = family('node_memory_working_set_bytes', 'Current working set of the node in bytes', 'gauge');
  const podCpu = family('pod_cpu_usage_seconds_total', 'Cumulative cpu time consumed by the pod in core-seconds', 'counter');
  const podMemory = family('pod_memory_working_set_bytes', 'Current working set of the pod in bytes', 'gauge');
  const scrapeError = family('resource_scrape_error', '1 if there was an error while getting container metrics, 0 otherwise', 'gauge');
  nodeCpu.samples.push({ labels: [], value: seconds(summary.node.cpu?.usageCoreNanoSeconds), timestamp: now });
  nodeMemory.samples.push({ labels: [], value: summary.node.memory?.workingSetBytes ?? 0, timestamp: now });
  for (const pod of summary.pods) {
    for (const c of pod.containers) {
      containerStart.samples.push({ labels: containerLabels(pod, c.name), value: Date.parse(c.startTime) / 1000 });
      containerCpu.samples.push({ labels: containerLabels(pod, c.name), value: seconds(c.cpu?.usageCoreNanoSeconds), timestamp: now });
      containerMemory.samples.push({ labels: containerLabels(pod, c.name), value: c.memory?.workingSetBytes ?? 0, timestamp: now });
    }
    podCpu.samples.push({ labels: podLabels(pod), value: seconds(pod.cpu?.usageCoreNanoSeconds), timestamp: now });
    podMemory.samples.push({ labels: podLabels(pod), value: pod.memory?.workingSetBytes ?? 0, timestamp: now });
  }
  scrapeError.samples.push({ labels: [], value: 0 });
  return [containerCpu, containerMemory, containerStart, nodeCpu, nodeMemory, podCpu, podMemory, scrapeError];
}

/** The exposition text; a family without samples is left out, as the Go registry gathers none for it. */
export function resourceMetricsText(summary: Summary, now: number): string {
  let out = '';
  for (const f of families(summary, now)) {
    if (f.samples.length === 0) continue;
    out += `# HELP ${f.name} ${f.help}\n# TYPE ${f.name} ${f.type}\n`;
    const rows = f.samples.map((s) => {
      const labels = s.labels.length > 0 ? `{${s.labels.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}` : '';
      return { key: s.labels.map(([, v]) => v).join('\u0000'), line: `${f.name}${labels} ${goFloat(s.value)}${s.timestamp !== undefined ? ` ${s.timestamp}` : ''}\n` };
    });
    rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const r of rows) out += r.line;
  }
  return out;
}
