import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resourceMetricsText } from './resource-metrics.ts';
import type { Summary } from './stats-summary.ts';

test('/metrics/resource holds the summary in families sorted by name, labels sorted, with the sample time', () => {
  const at = '2026-12-06T09:00:00Z';
  const summary: Summary = {
    node: { nodeName: 'cpu-0', startTime: at, cpu: { time: at, usageNanoCores: 250_000_000, usageCoreNanoSeconds: 2_500_000_000 }, memory: { time: at, workingSetBytes: 157286400 } },
    pods: [{
      podRef: { name: 'web', namespace: 'default', uid: 'u' },
      startTime: at,
      containers: [{ name: 'app', startTime: '2026-12-06T08:59:50Z', cpu: { time: at, usageCoreNanoSeconds: 2_500_000_000 }, memory: { time: at, workingSetBytes: 157286400 } }],
      cpu: { time: at, usageCoreNanoSeconds: 2_500_000_000 },
      memory: { time: at, workingSetBytes: 157286400 },
    }],
  };
  const now = Date.parse(at);
  assert.equal(resourceMetricsText(summary, now), [
    '# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds',
    '# TYPE container_cpu_usage_seconds_total counter',
    `container_cpu_usage_seconds_total{container="app",namespace="default",pod="web"} 2.5 ${now}`,
    '# HELP container_memory_working_set_bytes [STABLE] Current working set of the container in bytes',
    '# TYPE container_memory_working_set_bytes gauge',
    `container_memory_working_set_bytes{container="app",namespace="default",pod="web"} 1.572864e+08 ${now}`,
    '# HELP container_start_time_seconds [STABLE] Start time of the container since unix epoch in seconds',
    '# TYPE container_start_time_seconds gauge',
    'container_start_time_seconds{container="app",namespace="default",pod="web"} 1.79654759e+09',
    '# HELP node_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the node in core-seconds',
    '# TYPE node_cpu_usage_seconds_total counter',
    `node_cpu_usage_seconds_total 2.5 ${now}`,
    '# HELP node_memory_working_set_bytes [STABLE] Current working set of the node in bytes',
    '# TYPE node_memory_working_set_bytes gauge',
    `node_memory_working_set_bytes 1.572864e+08 ${now}`,
    '# HELP pod_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the pod in core-seconds',
    '# TYPE pod_cpu_usage_seconds_total counter',
    `pod_cpu_usage_seconds_total{namespace="default",pod="web"} 2.5 ${now}`,
    '# HELP pod_memory_working_set_bytes [STABLE] Current working set of the pod in bytes',
    '# TYPE pod_memory_working_set_bytes gauge',
    `pod_memory_working_set_bytes{namespace="default",pod="web"} 1.572864e+08 ${now}`,
    '# HELP resource_scrape_error [STABLE] 1 if there was an error while getting container metrics, 0 otherwise',
    '# TYPE resource_scrape_error gauge',
    'resource_scrape_error 0',
    '',
  ].join('\n'));
});
