// ServiceCIDR and IPAddress: upstream's validation words, the update rules and the tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import { serviceCIDRDefinition } from './service-cidr.ts';
import type { ServiceCIDR } from './service-cidr.ts';
import { ipAddressDefinition, validateIPAddressName } from './ip-address.ts';
import type { IPAddress, ParentReference } from './ip-address.ts';

const ctx = { now: Date.parse('2026-12-05T00:00:10Z') };
const text = (errs: readonly Parameters<typeof formatFieldError>[0][] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const cidr = (...cidrs: string[]): ServiceCIDR => ({ apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', metadata: { name: 'extra', resourceVersion: '3', creationTimestamp: '2026-12-05T00:00:00Z' }, spec: { cidrs } });

test('ServiceCIDR: ranges must be canonical CIDRs, at most one per family', () => {
  const create = (...cidrs: string[]): string[] => text(serviceCIDRDefinition.validateCreate?.(cidr(...cidrs), ctx));
  assert.deepEqual(create('192.168.0.0/24', '2001:db8::/64'), []);
  assert.deepEqual(create(), ['spec.cidrs: Required value: at least one CIDR required']);
  assert.deepEqual(create('10.0.0.1/24'), ['spec.cidrs[0]: Invalid value: "10.0.0.1/24": must not have bits set beyond the prefix length']);
  assert.deepEqual(create('2001:0db8::/64'), ['spec.cidrs[0]: Invalid value: "2001:0db8::/64": must be in canonical form ("2001:db8::/64")']);
  assert.deepEqual(create('foo'), ['spec.cidrs[0]: Invalid value: "foo": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']);
  assert.deepEqual(create('10.0.0.0/24', '10.1.0.0/24'), ['spec.cidrs: Invalid value: networking.ServiceCIDRSpec{CIDRs:[]string{"10.0.0.0/24", "10.1.0.0/24"}}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64']);
});

test('ServiceCIDR: ranges are immutable except a single-stack range gaining its other family; status writes keep the spec', () => {
  const update = (next: ServiceCIDR, old: ServiceCIDR): string[] => text(serviceCIDRDefinition.validateUpdate?.(next, old, ctx));
  assert.deepEqual(update(cidr('10.0.0.0/16'), cidr('10.0.0.0/24')), ['spec.cidrs[0]: Invalid value: "10.0.0.0/16": field is immutable']);
  assert.deepEqual(update(cidr('10.0.0.0/24', 'fd00::/108'), cidr('10.0.0.0/24')), []);
  assert.deepEqual(update(cidr('10.0.0.0/24'), cidr('10.0.0.0/24', 'fd00::/108')), ['spec.cidrs: Invalid value: []string{"10.0.0.0/24"}: field is immutable']);
  const statusWrite = { ...cidr('10.9.0.0/16'), status: { conditions: [] } };
  serviceCIDRDefinition.prepareForUpdate?.(statusWrite, cidr('10.0.0.0/24'), { ...ctx, subresource: 'status' });
  assert.deepEqual(statusWrite.spec, { cidrs: ['10.0.0.0/24'] });
  assert.deepEqual(serviceCIDRDefinition.table?.cells(cidr('192.168.0.0/24', '2001:db8::/64'), ctx.now), ['extra', '192.168.0.0/24,2001:db8::/64', '10s']);
});

test('IPAddress: named by a canonical address, with a parent; the parent never changes; the table', () => {
  assert.deepEqual(validateIPAddressName('10.96.0.10'), []);
  assert.deepEqual(validateIPAddressName('foo'), ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
  assert.deepEqual(validateIPAddressName('010.1.1.1'), ['must not have leading 0s']);
  assert.deepEqual(validateIPAddressName('2001:0db8::1'), ['must be in canonical form ("2001:db8::1")']);
  const ip = (parentRef?: ParentReference): IPAddress => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name: '10.96.0.10', resourceVersion: '5' }, spec: parentRef ? { parentRef } : {} });
  assert.deepEqual(text(ipAddressDefinition.validateCreate?.(ip(), ctx)), ['spec.parentRef: Required value']);
  assert.deepEqual(text(ipAddressDefinition.validateCreate?.(ip({ group: 'Bad_Group', resource: '', name: 'a/b' }), ctx)).map((m) => m.split(':')[0]), ['spec.parentRef.group', 'spec.parentRef.resource', 'spec.parentRef.name']);
  const dns = ip({ group: '', resource: 'services', namespace: 'kube-system', name: 'kube-dns' });
  assert.deepEqual(text(ipAddressDefinition.validateUpdate?.(ip({ resource: 'services', namespace: 'kube-system', name: 'other' }), dns, ctx)), [
    'spec.parentRef: Invalid value: networking.ParentReference{Group:"", Resource:"services", Namespace:"kube-system", Name:"other"}: field is immutable',
  ]);
  assert.deepEqual(ipAddressDefinition.table?.columns.map((c) => c.name), ['Name', 'ParentRef']);
  assert.deepEqual(ipAddressDefinition.table?.cells(dns, ctx.now).slice(0, 2), ['10.96.0.10', 'services/kube-system/kube-dns']);
  assert.equal(ipAddressDefinition.table?.cells(ip({ group: 'gateway.networking.k8s.io', resource: 'Gateways', name: 'gw' }), ctx.now)[1], 'gateways.gateway.networking.k8s.io/gw');
});
