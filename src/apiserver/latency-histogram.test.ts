import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Histogram, Registry } from 'prom-client';
import { LabeledCounter, LatencyHistogram } from './latency-histogram.ts';

test('a LatencyHistogram renders exactly as prom-client renders the same observations', async () => {
  const buckets = [0.005, 0.025, 0.1, 1];
  const ours = new Registry();
  const theirs = new Registry();
  const fast = new LatencyHistogram({ name: 'etcd_request_duration_seconds', help: 'Etcd request latency.', labelNames: ['operation', 'type'], buckets, registry: ours });
  const reference = new Histogram({ name: 'etcd_request_duration_seconds', help: 'Etcd request latency.', labelNames: ['operation', 'type'], buckets, registers: [theirs] });
  const observations: [string, string, number][] = [['create', 'pods', 0.0001], ['create', 'pods', 0.005], ['get', 'pods', 0.03], ['create', 'deployments.apps', 2.5], ['create', 'pods', 0.7]];
  for (const [operation, type, seconds] of observations) {
    fast.observe([operation, type], seconds);
    reference.observe({ operation, type }, seconds);
  }
  const text = await ours.metrics();
  assert.equal(text, await theirs.metrics());
  assert.match(text, /etcd_request_duration_seconds_bucket\{le="0.005",operation="create",type="pods"\} 2/, 'a value on a bound counts in that bucket');
  assert.match(text, /etcd_request_duration_seconds_count\{operation="create",type="deployments.apps"\} 1/);
  fast.reset();
  assert.doesNotMatch(await ours.metrics(), /_count/);
});

test('a LatencyHistogram of many labels and a LabeledCounter render as prom-client renders them', async () => {
  const ours = new Registry();
  const theirs = new Registry();
  const labelNames = ['verb', 'dry_run', 'group', 'resource', 'scope'];
  const fast = new LatencyHistogram({ name: 'apiserver_request_duration_seconds', help: 'Latency.', labelNames, buckets: [0.005, 0.1], registry: ours });
  const reference = new Histogram({ name: 'apiserver_request_duration_seconds', help: 'Latency.', labelNames, buckets: [0.005, 0.1], registers: [theirs] });
  const counter = new LabeledCounter({ name: 'apiserver_request_total', help: 'Requests.', labelNames: [...labelNames, 'code'], registry: ours });
  const referenceCounter = new Counter({ name: 'apiserver_request_total', help: 'Requests.', labelNames: [...labelNames, 'code'], registers: [theirs] });
  const requests: [string[], string, number][] = [
    [['POST', '', '', 'pods', 'namespace'], '201', 0.002],
    [['GET', '', 'apps', 'deployments', 'resource'], '404', 0.2],
    [['POST', '', '', 'pods', 'namespace'], '201', 0.05],
    // Values a URL can carry: quotes, backslashes, and the empty ones a shorter path leaves.
    [['GET', 'All', 'a"b', 'x\\y', ''], '200', 0.001],
  ];
  for (const [values, code, seconds] of requests) {
    const labels = Object.fromEntries(labelNames.map((name, i) => [name, values[i] ?? '']));
    fast.observe(values, seconds);
    reference.observe(labels, seconds);
    counter.inc([...values, code]);
    referenceCounter.inc({ ...labels, code });
  }
  const text = await ours.metrics();
  assert.equal(text, await theirs.metrics());
  assert.match(text, /apiserver_request_total\{verb="POST",dry_run="",group="",resource="pods",scope="namespace",code="201"\} 2/);
});
