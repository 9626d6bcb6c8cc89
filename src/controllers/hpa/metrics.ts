// The HPA's metrics client: per-pod resource usage from metrics.k8s.io (summed over a pod's
// containers, or one container's), and the custom/external metrics APIs Drydock does not serve.
// Upstream: pkg/controller/podautoscaler/metrics/client.go (resourceMetricsClient.GetResourceMetric).
import { metricsRefs } from '../../api/index.ts';
import type { PodMetrics } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { parseQuantity, quantityMilliValue } from '../../core/index.ts';
import { parseGoDuration } from '../../core/index.ts';
import type { PodMetricsInfo } from './replica-calculator.ts';

export type MetricsResult = { ok: true; metrics: PodMetricsInfo; timestamp: number } | { ok: false; message: string };

export async function resourceMetrics(client: Client, resource: string, namespace: string, selector: string, container: string): Promise<MetricsResult> {
  let items: PodMetrics[];
  try {
    items = (await client.list<PodMetrics>(metricsRefs.pods, { namespace, labelSelector: selector })).items;
  } catch (error) {
    return { ok: false, message: `unable to fetch metrics from resource metrics API: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (items.length === 0) return { ok: false, message: 'no metrics returned from resource metrics API' };
  const metrics: PodMetricsInfo = new Map();
  for (const m of items) {
    let sum = 0;
    let missing = false;
    let found = false;
    for (const c of m.containers) {
      if (container !== '' && c.name !== container) continue;
      const q = c.usage[resource] === undefined ? undefined : parseQuantity(c.usage[resource]);
      if (!q) {
        missing = true;
        break;
      }
      sum += quantityMilliValue(q);
      found = true;
    }
    if (missing || (container !== '' && !found)) continue;
    metrics.set(m.metadata.name ?? '', { value: sum, timestamp: Date.parse(m.timestamp), windowMs: parseGoDuration(m.window) ?? 0 });
  }
  return { ok: true, metrics, timestamp: Date.parse(items[0]!.timestamp) };
}
