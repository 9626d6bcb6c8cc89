import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom, formatFieldError, parseIP } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { prepareService, serviceAllocator, serviceDefinition as def } from './service.ts';
import type { Service } from './service.ts';

const now = Date.parse('2026-01-01T00:03:00Z');
const ctx = { now };
const msgs = (errs: FieldError[] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));

function svc(spec: Service['spec'] = {}): Service {
  return { metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }], ...spec } };
}

test('service defaults: ClusterIP, None affinity, TCP, targetPort = port, Cluster internal policy', () => {
  const s = svc();
  def.defaults?.(s);
  assert.deepEqual(s.spec, {
    selector: { app: 'web' },
    ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    sessionAffinity: 'None',
    type: 'ClusterIP',
    internalTrafficPolicy: 'Cluster',
  });
  const lb = svc({ type: 'LoadBalancer', sessionAffinity: 'ClientIP' });
  def.defaults?.(lb);
  assert.equal(lb.spec?.externalTrafficPolicy, 'Cluster');
  assert.equal(lb.spec?.allocateLoadBalancerNodePorts, true);
  assert.deepEqual(lb.spec?.sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
});

const ipValue = (ip: string | undefined): bigint => parseIP(ip ?? '', false)?.value ?? -1n;

test('prepareService allocates cluster IPs and node ports from the upper bands, leaving the lower ones to static values', () => {
  const alloc = serviceAllocator({ random: new SeededRandom(7), usedIPs: ['10.96.0.1'] });
  const a = svc({ type: 'NodePort' });
  def.defaults?.(a);
  assert.deepEqual(prepareService(a, undefined, alloc), []);
  const ip = a.spec?.clusterIP ?? '';
  // 10.96.0.0/12: the first 256 addresses after the network's are kept for static cluster IPs.
  assert.ok(ipValue(ip) >= ipValue('10.96.1.1') && ipValue(ip) <= ipValue('10.111.255.254'), ip);
  assert.deepEqual(a.spec?.clusterIPs, [ip]);
  assert.deepEqual(a.spec?.ipFamilies, ['IPv4']);
  assert.equal(a.spec?.ipFamilyPolicy, 'SingleStack');
  // 30000-32767: the first 86 ports are kept for static node ports.
  const port = a.spec?.ports?.[0]?.nodePort ?? 0;
  assert.ok(port >= 30086 && port <= 32767, String(port));

  const taken = svc({ clusterIP: ip });
  def.defaults?.(taken);
  assert.deepEqual(msgs(prepareService(taken, undefined, alloc)), [
    `spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated`,
  ]);
  const dns = svc({ clusterIP: '10.96.0.10' });
  def.defaults?.(dns);
  assert.deepEqual(prepareService(dns, undefined, alloc), []);

  const headless = svc({ clusterIP: 'None', selector: {} });
  def.defaults?.(headless);
  prepareService(headless, undefined, alloc);
  assert.deepEqual([headless.spec?.clusterIPs, headless.spec?.ipFamilyPolicy, headless.spec?.ipFamilies], [['None'], 'RequireDualStack', ['IPv4', 'IPv6']]);

  // An update that leaves clusterIP out keeps the allocated one and its node port.
  const upd = svc({ type: 'NodePort' });
  def.defaults?.(upd);
  assert.deepEqual(prepareService(upd, a, alloc), []);
  assert.equal(upd.spec?.clusterIP, ip);
  assert.equal(upd.spec?.ports?.[0]?.nodePort, port);
});

test('a dynamic allocation takes the lower band only once the upper band is full', () => {
  // A /27: 30 addresses, the first 16 kept for static ones.
  const upper = Array.from({ length: 14 }, (_, i) => `10.0.0.${17 + i}`);
  const alloc = serviceAllocator({ random: new SeededRandom(1), serviceCIDRs: ['10.0.0.0/27'], usedIPs: upper.slice(1) });
  assert.deepEqual(alloc.allocateClusterIP(undefined), { ip: '10.0.0.17' });
  const low = alloc.allocateClusterIP(undefined);
  assert.ok('ip' in low && ipValue(low.ip) >= ipValue('10.0.0.1') && ipValue(low.ip) <= ipValue('10.0.0.16'), JSON.stringify(low));
});

test('service validation messages', () => {
  const noPorts = svc({ ports: [] });
  def.defaults?.(noPorts);
  assert.deepEqual(msgs(def.validateCreate?.(noPorts, ctx)), ['spec.ports: Required value']);
  const twoPorts = svc({ ports: [{ port: 80 }, { port: 0, name: 'b' }], type: 'Bogus' as 'ClusterIP' });
  def.defaults?.(twoPorts);
  assert.deepEqual(msgs(def.validateCreate?.(twoPorts, ctx)), [
    'spec.ports[0].name: Required value',
    'spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    'spec.ports[1].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    'spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
  ]);
  const np = svc({ ports: [{ port: 80, nodePort: 30001 }] });
  def.defaults?.(np);
  assert.deepEqual(msgs(def.validateCreate?.(np, ctx)), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
  const ext = svc({ type: 'ExternalName', ports: [] });
  def.defaults?.(ext);
  assert.deepEqual(msgs(def.validateCreate?.(ext, ctx)), ['spec.externalName: Required value']);
});

test('service cluster IPs may not change once set', () => {
  const old = svc({ clusterIP: '10.96.0.9', clusterIPs: ['10.96.0.9'] });
  old.metadata.resourceVersion = '2';
  def.defaults?.(old);
  const upd = structuredClone(old);
  upd.spec = { ...upd.spec, clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'] };
  assert.deepEqual(msgs(def.validateUpdate?.(upd, old, ctx)), ['spec.clusterIPs[0]: Invalid value: ["10.96.0.10"]: may not change once set']);
});

test('a LoadBalancer turned ClusterIP drops what only the old type needed, and validates', () => {
  const old = svc({ type: 'LoadBalancer', clusterIP: '10.96.0.9', clusterIPs: ['10.96.0.9'], externalTrafficPolicy: 'Local', healthCheckNodePort: 31000, ports: [{ port: 80, nodePort: 30080 }] });
  old.metadata.resourceVersion = '2';
  def.defaults?.(old);
  old.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }] } };
  const upd = structuredClone(old);
  upd.spec = { ...upd.spec, type: 'ClusterIP' };
  def.prepareForUpdate?.(upd, old, ctx);
  assert.deepEqual(msgs(def.validateUpdate?.(upd, old, ctx)), []);
  assert.deepEqual([upd.spec.ports?.[0]?.nodePort, upd.spec.externalTrafficPolicy, upd.spec.healthCheckNodePort, upd.spec.allocateLoadBalancerNodePorts, upd.status?.loadBalancer], [undefined, undefined, undefined, undefined, {}]);
  // A net-new node port is the caller's own: kept, for validation to judge.
  const added = structuredClone(old);
  added.spec = { ...added.spec, type: 'ClusterIP', ports: [{ port: 80, nodePort: 30081 }] };
  def.prepareForUpdate?.(added, old, ctx);
  assert.equal(added.spec?.ports?.[0]?.nodePort, 30081);
});

test('service table cells', () => {
  assert.deepEqual(def.table?.columns.map((c) => `${c.name}${c.priority ? ' p1' : ''}`), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector p1']);
  const s = svc({ type: 'NodePort', clusterIPs: ['10.96.0.2'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] });
  assert.deepEqual(def.table?.cells(s, now), ['web', 'NodePort', '10.96.0.2', '<none>', '80:30080/TCP,53/UDP', '3m', 'app=web']);
  const lb = svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.3'], selector: {} });
  assert.deepEqual(def.table?.cells(lb, now).slice(2, 5), ['10.96.0.3', '<pending>', '80/']);
  lb.status = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } };
  assert.equal(def.table?.cells(lb, now)[3], '203.0.113.7');
  assert.equal(def.table?.cells(lb, now)[6], '<none>');
  assert.deepEqual([def.shortNames, def.categories], [['svc'], ['all']]);
  assert.equal(def.fieldLabels?.['spec.type']?.(s), 'NodePort');
});
