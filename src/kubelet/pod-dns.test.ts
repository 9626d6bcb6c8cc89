// /etc/resolv.conf as a kubeadm node's kubelet and containerd write it for each DNS policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../api/index.ts';
import { podResolvConf } from './pod-dns.ts';

const pod = (spec: Partial<Pod['spec']>, namespace = 'ml'): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });

test('ClusterFirst: the cluster DNS Service, the namespace search path and ndots:5', () => {
  assert.equal(podResolvConf(pod({})), 'search ml.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  assert.equal(podResolvConf(pod({ dnsPolicy: 'ClusterFirstWithHostNet', hostNetwork: true }, 'default')), 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
});

test("dnsConfig appends nameservers and searches (no duplicates) and merges options by name; None takes dnsConfig alone", () => {
  const dnsConfig = { nameservers: ['1.1.1.1', '10.96.0.10'], searches: ['corp.example', 'cluster.local'], options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }] };
  assert.equal(podResolvConf(pod({ dnsConfig })), 'search ml.svc.cluster.local svc.cluster.local cluster.local corp.example\nnameserver 10.96.0.10\nnameserver 1.1.1.1\noptions ndots:2 edns0\n');
  assert.equal(podResolvConf(pod({ dnsPolicy: 'None', dnsConfig: { nameservers: ['8.8.8.8'] } })), 'nameserver 8.8.8.8\n');
  assert.equal(podResolvConf(pod({ dnsConfig: { nameservers: ['1.1.1.1', '2.2.2.2', '3.3.3.3'] } })), 'search ml.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\nnameserver 1.1.1.1\nnameserver 2.2.2.2\noptions ndots:5\n', 'three nameservers at most');
});

test("Default, and ClusterFirst on the host network, take the node's own file, which a simulated node does not have", () => {
  assert.equal(podResolvConf(pod({ dnsPolicy: 'Default' })), undefined);
  assert.equal(podResolvConf(pod({ hostNetwork: true })), undefined);
});
