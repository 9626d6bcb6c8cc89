import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Histogram, Registry } from 'prom-client';
import { LatencyHistogram } from './latency-histogram.ts';

test('a LatencyHistogram renders exactly as prom-client renders the same observations', async () => {
  const buckets = [0.005, 0.025, 0.1, 1];
  const ours = new Registry();
  const theirs = new Registry();
  const fast = new LatencyHistogram({ name: 'etcd_request_duration_seconds', help: 'Etcd request latency.', labelNames: ['operation', 'type'], buckets, registry: ours });
  const reference = new Histogram({ name: 'etcd_request_duration_seconds', help: 'Etcd request latency.', labelNames: ['operation', 'type'], buckets, registers: [theirs] });
  const observations: [string, string, number][] = [['create', 'pods', 0.0001], ['create', 'pods', 0.005], ['get', 'pods', 0.03], ['create', 'deployments.apps', 2.5], ['create', 'pods', 0.7]];
  for (const [operation, type, seconds] of observations) {
    fast.observe(operation, type, seconds);
    reference.observe({ operation, type }, seconds);
  }
  const text = await ours.metrics();
  assert.equal(text, await theirs.metrics());
  assert.match(text, /etcd_request_duration_seconds_bucket\{le="0.005",operation="create",type="pods"\} 2/, 'a value on a bound counts in that bucket');
  assert.match(text, /etcd_request_duration_seconds_count\{operation="create",type="deployments.apps"\} 1/);
  fast.reset();
  assert.doesNotMatch(await ours.metrics(), /_count/);
});
