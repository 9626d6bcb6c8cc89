import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service } from '../api/index.ts';
import type { ClusterDnsView } from './cluster-dns.ts';
import { nslookup } from './nslookup.ts';
import { podResolvConf } from './pod-dns.ts';
import type { Pod } from '../api/index.ts';

const resolvConf = podResolvConf({ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } } as Pod);

function view(services: Service[], slices: EndpointSlice[] = [], namespaces = ['default', 'kube-system']): ClusterDnsView {
  return {
    namespaceExists: (n) => namespaces.includes(n),
    service: (ns, name) => services.find((s) => s.metadata.namespace === ns && s.metadata.name === name),
    endpointSlices: (ns, svc) => slices.filter((s) => s.metadata.namespace === ns && s.metadata.labels?.['kubernetes.io/service-name'] === svc),
    serviceWithIP: (ip) => services.find((s) => s.spec?.clusterIPs?.includes(ip)),
  };
}

const myservice: Service = { metadata: { name: 'myservice', namespace: 'default' }, spec: { clusterIP: '10.96.14.7', clusterIPs: ['10.96.14.7'], ports: [{ port: 80 }] } } as Service;
const headless: Service = { metadata: { name: 'web', namespace: 'default' }, spec: { clusterIP: 'None', clusterIPs: ['None'] } } as Service;
const webSlice: EndpointSlice = {
  metadata: { name: 'web-abcde', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints: [
    { addresses: ['10.128.0.5'], hostname: 'web-0', conditions: { ready: true } },
    { addresses: ['10.128.1.9'], hostname: 'web-1', conditions: { ready: false } },
  ],
};

const run = (args: string[], v: ClusterDnsView) => {
  const r = nslookup(args, resolvConf, v);
  return { out: r.writes.map((w) => `${w.stream === 'stderr' ? '!' : ''}${w.text}`).join(''), status: r.status };
};
const header = 'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n';

test("nslookup of a Service's FQDN: busybox's answer for A, No answer for AAAA, status 0", () => {
  assert.deepEqual(run(['myservice.default.svc.cluster.local'], view([myservice])), {
    out: `${header}Name:\tmyservice.default.svc.cluster.local\nAddress: 10.96.14.7\n\n*** Can't find myservice.default.svc.cluster.local: No answer\n\n`,
    status: 0,
  });
});

test('nslookup of a Service that does not exist (yet): NXDOMAIN for both queries, status 1, as the init-container docs loop waits on', () => {
  assert.deepEqual(run(['myservice.default.svc.cluster.local'], view([])), {
    out: `${header}** server can't find myservice.default.svc.cluster.local: NXDOMAIN\n\n** server can't find myservice.default.svc.cluster.local: NXDOMAIN\n\n`,
    status: 1,
  });
  assert.equal(run(['myservice.nowhere.svc.cluster.local'], view([myservice])).status, 1, 'a namespace that does not exist: NXDOMAIN');
});

test('a name without a dot is tried under each search domain (busybox add_query_with_search): one found, the others NXDOMAIN, status 1', () => {
  const r = run(['myservice'], view([myservice]));
  assert.equal(r.status, 1);
  assert.deepEqual(r.out.split('\n\n'), [
    'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53',
    'Name:\tmyservice.default.svc.cluster.local\nAddress: 10.96.14.7',
    "** server can't find myservice.svc.cluster.local: NXDOMAIN",
    "** server can't find myservice.cluster.local: NXDOMAIN",
    "*** Can't find myservice.default.svc.cluster.local: No answer",
    "** server can't find myservice.svc.cluster.local: NXDOMAIN",
    "** server can't find myservice.cluster.local: NXDOMAIN",
    '',
  ]);
});

test('a headless Service answers its ready endpoints, and <hostname>.<subdomain> one pod; a not-ready one is left out', () => {
  const v = view([headless], [webSlice]);
  assert.equal(run(['web.default.svc.cluster.local'], v).out.split('\n\n')[1], 'Name:\tweb.default.svc.cluster.local\nAddress: 10.128.0.5');
  assert.equal(run(['web-0.web.default.svc.cluster.local'], v).out.split('\n\n')[1], 'Name:\tweb-0.web.default.svc.cluster.local\nAddress: 10.128.0.5');
  assert.equal(run(['web-1.web.default.svc.cluster.local'], v).status, 1, 'web-1 is not ready: NXDOMAIN');
  assert.equal(run(['web.default.svc.cluster.local'], view([headless], [])).status, 1, 'no endpoints: NXDOMAIN');
});

test('pod A records (pods insecure), names outside the cluster (no upstream: SERVFAIL), other servers unreachable, options not simulated', () => {
  assert.equal(run(['10-128-0-5.default.pod.cluster.local'], view([])).out.split('\n\n')[1], 'Name:\t10-128-0-5.default.pod.cluster.local\nAddress: 10.128.0.5');
  assert.deepEqual(run(['example.com'], view([])), { out: `${header}** server can't find example.com: SERVFAIL\n\n** server can't find example.com: SERVFAIL\n\n`, status: 1 });
  assert.deepEqual(run(['myservice', '8.8.8.8'], view([myservice])), { out: '!;; connection timed out; no servers could be reached\n\n', status: 1 });
  assert.deepEqual(run(['-type=srv', 'x'], view([])), { out: '!nslookup: only `nslookup HOST [SERVER]` is simulated\n', status: 1 });
});

test("busybox:1.28's nslookup asks the C library: search domains and ndots, `Address 1: IP NAME` lines, can't resolve on standard error", () => {
  const legacy = (args: string[], v: ClusterDnsView) => {
    const r = nslookup(args, resolvConf, v, 'busybox:1.28');
    return { out: r.writes.map((w) => `${w.stream === 'stderr' ? '!' : ''}${w.text}`).join(''), status: r.status };
  };
  const head = 'Server:    10.96.0.10\nAddress 1: 10.96.0.10\n\n';
  assert.deepEqual(legacy(['myservice.default.svc.cluster.local'], view([myservice])), { out: `${head}Name:      myservice.default.svc.cluster.local\nAddress 1: 10.96.14.7 myservice.default.svc.cluster.local\n`, status: 0 });
  assert.deepEqual(legacy(['myservice.default'], view([myservice])).status, 0, 'fewer dots than ndots: tried under the search domains');
  assert.deepEqual(legacy(['myservice.default.svc.cluster.local'], view([])), { out: `${head}!nslookup: can't resolve 'myservice.default.svc.cluster.local'\n`, status: 1 });
  assert.equal(nslookup(['myservice'], resolvConf, view([myservice]), 'busybox:1.36').status, 1, 'later busybox: its own resolver');
});
