// The allocator's IPAddress records as a client sees them around its own Service writes, with no
// repair loop running: written before a create or update is answered, gone when the update or the
// delete that lets the address go is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { IPAddress, Service } from '../api/index.ts';
import { SeededRandom, VirtualClock, isApiError } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { ApiServer, builtinAdmissionPlugins, createLocalClient } from './index.ts';

test("a Service's cluster IP has its IPAddress when the create is answered, and loses it with the delete", async () => {
  const server = new ApiServer({ store: new MemoryStore(), clock: new VirtualClock(), random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const web = await client.create<Service>(refs.services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  const ip = web.spec?.clusterIP ?? '';
  const record = await client.get<IPAddress>(refs.ipAddresses, undefined, ip);
  assert.deepEqual([record.metadata.labels, record.spec?.parentRef], [
    { 'ipaddress.kubernetes.io/ip-family': 'IPv4', 'ipaddress.kubernetes.io/managed-by': 'ipallocator.k8s.io' },
    { group: '', resource: 'services', namespace: 'default', name: 'web' },
  ]);
  assert.equal(record.metadata.managedFields?.[0]?.manager, 'kube-apiserver');
  // Headless Services hold no address.
  await client.create(refs.services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'db', namespace: 'default' }, spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] } });
  assert.deepEqual((await client.list<IPAddress>(refs.ipAddresses)).items.map((i) => i.metadata.name), [ip]);
  await client.delete(refs.services, 'default', 'web');
  const gone = await client.get(refs.ipAddresses, undefined, ip).catch((error: unknown) => error);
  assert.ok(isApiError(gone) && gone.reason === 'NotFound', String(gone));
});

test('an update that lets a cluster IP go releases its IPAddress, and one that takes a new one records it', async () => {
  const server = new ApiServer({ store: new MemoryStore(), clock: new VirtualClock(), random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  const names = async (): Promise<string[]> => (await client.list<IPAddress>(refs.ipAddresses)).items.map((i) => i.metadata.name ?? '');
  const web = await client.create<Service>(refs.services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
  assert.deepEqual(await names(), [web.spec?.clusterIP]);
  await client.patch(refs.services, 'default', 'web', 'merge', { spec: { type: 'ExternalName', externalName: 'web.example.com', clusterIP: null, clusterIPs: null } });
  assert.deepEqual(await names(), [], 'an ExternalName Service holds no address');
  const back = await client.patch<Service>(refs.services, 'default', 'web', 'merge', { spec: { type: 'ClusterIP', externalName: null } });
  assert.deepEqual(await names(), [back.spec?.clusterIP]);
});

