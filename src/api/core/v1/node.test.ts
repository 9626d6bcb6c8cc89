import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { nodeDefinition as def, findNodeRoles } from './node.ts';
import type { Node, NodeCondition } from './node.ts';

const now = Date.parse('2026-01-01T00:00:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const ready = (status: NodeCondition['status']): NodeCondition => ({ type: 'Ready', status });

function node(over: Partial<Node> = {}): Node {
  return {
    metadata: { name: 'cpu-0', creationTimestamp: '2025-12-30T00:00:00Z', labels: { 'node-role.kubernetes.io/control-plane': '' } },
    spec: {},
    status: {
      conditions: [ready('True')],
      addresses: [{ type: 'InternalIP', address: '10.0.0.5' }, { type: 'Hostname', address: 'cpu-0' }],
      nodeInfo: {
        machineID: '', systemUUID: '', bootID: '', kernelVersion: '6.1.0', osImage: 'Drydock', containerRuntimeVersion: 'sim://1.0',
        kubeletVersion: 'v1.35.0', operatingSystem: 'linux', architecture: 'amd64',
      },
    },
    ...over,
  };
}

test('node table: status cell cases', () => {
  const cases: [string, Node, string][] = [
    ['ready', node(), 'Ready'],
    ['cordoned', node({ spec: { unschedulable: true } }), 'Ready,SchedulingDisabled'],
    ['not ready', node({ status: { conditions: [ready('False')] } }), 'NotReady'],
    ['no conditions, cordoned', node({ spec: { unschedulable: true }, status: {} }), 'Unknown,SchedulingDisabled'],
  ];
  for (const [name, n, want] of cases) assert.equal(def.table?.cells(n, now)[1], want, name);
});

test('node table: all cells including wide ones', () => {
  assert.deepEqual(def.table?.columns.map((c) => `${c.name}${c.priority ? ' p1' : ''}`), [
    'Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP p1', 'External-IP p1', 'OS-Image p1', 'Kernel-Version p1', 'Container-Runtime p1',
  ]);
  assert.deepEqual(def.table?.cells(node(), now), ['cpu-0', 'Ready', 'control-plane', '2d', 'v1.35.0', '10.0.0.5', '<none>', 'Drydock', '6.1.0', 'sim://1.0']);
  assert.deepEqual(def.table?.cells({ metadata: { name: 'bare' } }, now), ['bare', 'Unknown', '<none>', '<unknown>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
});

test('node roles come from both label forms, sorted', () => {
  assert.deepEqual(findNodeRoles({ metadata: { labels: { 'kubernetes.io/role': 'worker', 'node-role.kubernetes.io/gpu': '', 'node-role.kubernetes.io/': '' } } }), ['gpu', 'worker']);
});

test('node defaults allocatable to capacity; updates keep the other half', () => {
  const n = node({ status: { capacity: { cpu: '16', memory: '64Gi' } } });
  def.defaults?.(n);
  assert.deepEqual(n.status?.allocatable, { cpu: '16', memory: '64Gi' });
  const old = node({ spec: { unschedulable: false } });
  const upd = node({ spec: { unschedulable: true }, status: { phase: 'Running' } });
  def.prepareForUpdate?.(upd, old, ctx);
  assert.deepEqual(upd.status, old.status);
  assert.equal(upd.spec?.unschedulable, true);
  const st = node({ spec: { unschedulable: true }, status: {} });
  def.prepareForUpdate?.(st, old, { ...ctx, subresource: 'status' });
  assert.deepEqual(st.spec, { unschedulable: false });
});

test('node validation: taints and podCIDR changes', () => {
  const n = node({ spec: { taints: [{ key: 'gpu', effect: 'NoSchedule' }, { key: 'gpu', effect: 'NoSchedule' }, { key: 'x', effect: 'Sometimes' as 'NoSchedule' }] } });
  assert.deepEqual(msgs(def.validateCreate?.(n, ctx)), [
    'spec.taints[1]: Duplicate value: {"key":"gpu","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    'spec.taints[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
  ]);
  const old = node({ metadata: { name: 'cpu-0', resourceVersion: '3' }, spec: { podCIDRs: ['10.244.0.0/24'] } });
  const upd = node({ metadata: { name: 'cpu-0', resourceVersion: '3' }, spec: { podCIDRs: ['10.244.1.0/24'] } });
  assert.deepEqual(msgs(def.validateUpdate?.(upd, old, ctx)), ['spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid']);
});

test('node field label spec.unschedulable', () => {
  assert.equal(def.fieldLabels?.['spec.unschedulable']?.(node()), 'false');
  assert.equal(def.fieldLabels?.['spec.unschedulable']?.(node({ spec: { unschedulable: true } })), 'true');
});

test('a node reads as upstream encodes it: spec, status, the kubelet port and every nodeInfo string, "" when unset', () => {
  const bare: Node = { metadata: { name: 'manual' } };
  def.defaults?.(bare);
  assert.deepEqual(bare.spec, {});
  assert.deepEqual(bare.status, {
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '', operatingSystem: '', architecture: '' },
  });
  const reported = node();
  def.defaults?.(reported);
  assert.equal(reported.status?.nodeInfo?.kubeletVersion, 'v1.35.0');
  assert.equal(reported.status?.nodeInfo?.kubeProxyVersion, '');
});
