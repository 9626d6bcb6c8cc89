import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CounterVec, HistogramVec, expositionText } from './metrics-exposition.ts';

test('families come out in name order, series by their labels in name order, le last, empty labelled families left out', () => {
  const resizes = new CounterVec(['resource', 'requirement', 'operation']);
  resizes.inc(['memory', 'requests', 'increase']);
  resizes.inc(['cpu', 'limits', 'decrease'], 2);
  resizes.inc(['memory', 'requests', 'increase']);
  const duration = new HistogramVec(['success'], [10, 50]);
  duration.observe(['true'], 0);
  duration.observe(['true'], 50);
  duration.observe(['true'], 51);
  const text = expositionText([
    { name: 'kubelet_pod_resize_duration_milliseconds', help: 'Duration in milliseconds to actuate a pod resize', stability: 'ALPHA', type: 'histogram', buckets: duration.buckets, series: duration.series() },
    { name: 'kubelet_evictions', help: 'Cumulative number of pod evictions by eviction signal', stability: 'ALPHA', type: 'counter', samples: new CounterVec(['eviction_signal']).samples() },
    { name: 'kubelet_container_requested_resizes_total', help: "Number of requested resizes. The 'requirement' label\nrefers to \\ limits", stability: 'ALPHA', type: 'counter', samples: resizes.samples() },
    { name: 'kubelet_running_pods', help: 'Number of pods that have a running pod sandbox', stability: 'ALPHA', type: 'gauge', samples: [{ labels: {}, value: 0 }] },
  ]);
  assert.equal(text, [
    "# HELP kubelet_container_requested_resizes_total [ALPHA] Number of requested resizes. The 'requirement' label\\nrefers to \\\\ limits",
    '# TYPE kubelet_container_requested_resizes_total counter',
    'kubelet_container_requested_resizes_total{operation="decrease",requirement="limits",resource="cpu"} 2',
    'kubelet_container_requested_resizes_total{operation="increase",requirement="requests",resource="memory"} 2',
    '# HELP kubelet_pod_resize_duration_milliseconds [ALPHA] Duration in milliseconds to actuate a pod resize',
    '# TYPE kubelet_pod_resize_duration_milliseconds histogram',
    'kubelet_pod_resize_duration_milliseconds_bucket{success="true",le="10"} 1',
    'kubelet_pod_resize_duration_milliseconds_bucket{success="true",le="50"} 2',
    'kubelet_pod_resize_duration_milliseconds_bucket{success="true",le="+Inf"} 3',
    'kubelet_pod_resize_duration_milliseconds_sum{success="true"} 101',
    'kubelet_pod_resize_duration_milliseconds_count{success="true"} 3',
    '# HELP kubelet_running_pods [ALPHA] Number of pods that have a running pod sandbox',
    '# TYPE kubelet_running_pods gauge',
    'kubelet_running_pods 0',
    '',
  ].join('\n'));
});

test('label values are escaped as the text format requires', () => {
  const c = new CounterVec(['pod']);
  c.inc(['a"b\\c\nd']);
  assert.match(expositionText([{ name: 'x_total', help: 'x', stability: 'BETA', type: 'counter', samples: c.samples() }]), /^x_total\{pod="a\\"b\\\\c\\nd"\} 1$/m);
});
