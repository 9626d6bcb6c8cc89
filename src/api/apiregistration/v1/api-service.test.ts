// APIService validation in upstream's words, its table's Service and Available columns, and the
// strategies: a create resets the status (Local ones read Available), status writes keep the spec.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { APIService } from './api-service.ts';
import { apiServiceDefinition } from './api-service.ts';

const def = apiServiceDefinition;
const ctx = { now: Date.parse('2026-12-04T10:00:00Z') };
const messages = (a: APIService): string[] => (def.validateCreate?.(a, ctx) ?? []).map((e) => formatFieldError(e, { withField: true }));
const apiService = (name: string, spec: Partial<APIService['spec']>): APIService => ({ apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name }, spec: { groupPriorityMinimum: 1000, versionPriority: 15, ...spec } });

test('APIService validation: name version.group, priorities in range, service fields, local ones without TLS settings', () => {
  assert.deepEqual(messages(apiService('v1beta1.metrics.k8s.io', { group: 'metrics.k8s.io', version: 'v1beta1', service: { namespace: 'kube-system', name: 'metrics-server', port: 443 }, insecureSkipTLSVerify: true })), []);
  assert.deepEqual(messages(apiService('v1.', { group: '', version: 'v1' })), []);
  assert.deepEqual(messages(apiService('v1.wrong', { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 0, versionPriority: 2000, insecureSkipTLSVerify: true })), [
    'metadata.name: Invalid value: "v1.wrong": must be `spec.version+"."+spec.group`: "v1alpha1.wardle.example.com"',
    'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
    'spec.versionPriority: Invalid value: 2000: must be positive and less than 1000',
    'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
  ]);
  assert.deepEqual(messages(apiService('v2.', { version: 'v2' })), ['spec.group: Required value: only v1 may have an empty group and it better be legacy kube']);
  assert.deepEqual(messages(apiService('v1.x', { group: 'x', version: 'v1', caBundle: Buffer.from('pem').toString('base64') })), ['spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle']);
  assert.deepEqual(messages(apiService('v1.x', { group: 'x', version: 'v1', service: { port: 443 }, insecureSkipTLSVerify: true, caBundle: Buffer.from('pem').toString('base64') })), [
    'spec.service.namespace: Required value',
    'spec.service.name: Required value',
    'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
  ]);
  assert.deepEqual(def.validateName?.('v1/x', false), [`may not contain '/'`]);
});

test('APIService strategies: a create resets status, status writes keep spec and labels, the table names the service', () => {
  const local = apiService('v1.x', { group: 'x', version: 'v1' });
  local.status = { conditions: [{ type: 'Available', status: 'False', reason: 'Made', message: 'up' }] };
  def.prepareForCreate?.(local, ctx);
  assert.deepEqual(local.status, { conditions: [{ type: 'Available', status: 'True', lastTransitionTime: '2026-12-04T10:00:00Z', reason: 'Local', message: 'Local APIServices are always available' }] });
  const remote = apiService('v1.y', { group: 'y', version: 'v1', service: { namespace: 'ns', name: 'svc' } });
  def.defaults?.(remote);
  def.prepareForCreate?.(remote, ctx);
  assert.deepEqual(remote.status, {});
  assert.equal(remote.spec.service?.port, 443);
  const written: APIService = { ...remote, metadata: { ...remote.metadata, labels: { a: 'b' } }, spec: { ...remote.spec, versionPriority: 1 }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'm' }] } };
  def.prepareForUpdate?.(written, remote, { ...ctx, subresource: 'status' });
  assert.equal(written.spec.versionPriority, 15);
  assert.equal(written.metadata.labels, undefined);
  const cells = (a: APIService): unknown[] => def.table?.cells(a, ctx.now) ?? [];
  assert.deepEqual(cells(written).slice(0, 3), ['v1.y', 'ns/svc', 'False (MissingEndpoints)']);
  assert.deepEqual(cells(local).slice(0, 3), ['v1.x', 'Local', 'True']);
  assert.deepEqual(cells(remote).slice(0, 3), ['v1.y', 'ns/svc', 'Unknown']);
});
