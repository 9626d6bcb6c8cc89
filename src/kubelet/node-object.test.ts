// The Node status a simulated kubelet writes, as upstream's setters make it: allocatable as a
// Quantity marshals, extended resources others advertised kept and made allocatable, and a status
// the setters leave as it was counted unchanged (heartbeats aside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../api/index.ts';
import { buildNode, kubeletNodeStatus, nodeStatusChanged } from './node-object.ts';
import type { NodeIdentity } from './node-object.ts';

const identity: NodeIdentity = {
  name: 'cpu-0',
  ordinal: 0,
  pool: { name: 'cpu', capacity: { cpu: '16', memory: '64Gi', pods: '110', 'ephemeral-storage': '500Gi' }, kubeletVersion: 'v1.35.0', labels: {}, taints: [] },
  machineID: '0123456789abcdef0123456789abcdef',
  bootID: 'fedcba9876543210fedcba9876543210',
};
const t0 = Date.parse('2026-12-01T10:00:00Z');

test('allocatable is capacity less the reservations, written as a Quantity marshals', () => {
  const status = buildNode(identity, t0).status;
  assert.deepEqual(status?.allocatable, { cpu: '16', memory: '65436Mi', pods: '110', 'ephemeral-storage': '450Gi' });
});

test('an extended resource someone advertised in capacity becomes allocatable; one withdrawn leaves allocatable', () => {
  const registered = buildNode(identity, t0).status as NonNullable<Node['status']>;
  const advertised = { ...registered, capacity: { ...registered.capacity, 'example.com/dongle': '4' } };
  const next = kubeletNodeStatus(identity, t0 + 10_000, advertised);
  assert.equal(next.capacity?.['example.com/dongle'], '4');
  assert.equal(next.allocatable?.['example.com/dongle'], '4');
  assert.ok(nodeStatusChanged(next, advertised));
  const { 'example.com/dongle': _gone, ...capacity } = next.capacity ?? {};
  const withdrawn = kubeletNodeStatus(identity, t0 + 20_000, { ...next, capacity });
  assert.equal(withdrawn.allocatable?.['example.com/dongle'], undefined);
});

test("the kubelet's own capacity wins over a patched one; fields it does not set are kept", () => {
  const registered = buildNode(identity, t0).status as NonNullable<Node['status']>;
  const patched = { ...registered, capacity: { ...registered.capacity, cpu: '32' }, volumesAttached: [{ name: 'kubernetes.io/csi/x^vol', devicePath: '' }] };
  const next = kubeletNodeStatus(identity, t0 + 10_000, patched);
  assert.equal(next.capacity?.cpu, '16');
  assert.deepEqual(next.volumesAttached, patched.volumesAttached);
});

test('a status the setters leave alone is unchanged, whatever the heartbeats and however a quantity is spelled', () => {
  const registered = buildNode(identity, t0).status as NonNullable<Node['status']>;
  // The server writes nodeInfo.kubeProxyVersion (no omitempty) as "", which the kubelet no longer sets.
  const stored = { ...registered, allocatable: { ...registered.allocatable, memory: '67006464Ki' }, nodeInfo: { ...(registered.nodeInfo as NonNullable<Node['status']>['nodeInfo'] & object), kubeProxyVersion: '' } };
  assert.equal(nodeStatusChanged(kubeletNodeStatus(identity, t0 + 60_000, stored), stored), false);
});
