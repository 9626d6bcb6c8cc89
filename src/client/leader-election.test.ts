// Leader election on a Lease: the first candidate takes it (acquireTime, no transition), renews it
// every retry period; a second waits while it is held and takes it over, one transition more, once
// the holder stops renewing and the lease expires.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { Lease } from '../api/index.ts';
import { ApiServer, builtinAdmissionPlugins, createLocalClient } from '../apiserver/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { LeaderElector } from './leader-election.ts';

test('a candidate takes a free lease and renews it; another takes it over only after it expires', async () => {
  const clock = new VirtualClock(Date.parse('2026-12-04T10:00:00Z'));
  const server = new ApiServer({ store: new MemoryStore(), clock, random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } });
  const led: string[] = [];
  const candidate = (identity: string): LeaderElector => new LeaderElector({ client, clock, log: () => {}, namespace: 'kube-system', name: 'kube-scheduler', identity, onStartedLeading: () => led.push(identity) });
  const lease = async (): Promise<Lease['spec']> => (await client.get<Lease>(refs.leases, 'kube-system', 'kube-scheduler')).spec;

  const first = candidate('host-a_1');
  await first.start();
  assert.deepEqual(await lease(), { holderIdentity: 'host-a_1', leaseDurationSeconds: 15, acquireTime: '2026-12-04T10:00:00.000000Z', renewTime: '2026-12-04T10:00:00.000000Z', leaseTransitions: 0 });
  await clock.advance(4_000);
  assert.equal((await lease())?.renewTime, '2026-12-04T10:00:04.000000Z', 'renewed every 2 s');

  const second = candidate('host-b_2');
  await second.start();
  await clock.advance(6_000);
  assert.equal(second.isLeader, false);
  assert.equal((await lease())?.holderIdentity, 'host-a_1');

  first.stop();
  await clock.advance(16_000);
  const taken = await lease();
  assert.equal(taken?.holderIdentity, 'host-b_2');
  assert.equal(taken?.leaseTransitions, 1);
  assert.equal(second.isLeader, true);
  assert.deepEqual(led, ['host-a_1', 'host-b_2']);
  second.stop();
});
