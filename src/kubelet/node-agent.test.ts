// Node leases as the node lifecycle controller and a user watching kube-node-lease see them: every
// node renews within its 10 s interval (plus upstream's 4% jitter), and nodes that registered together
// do not renew in one burst.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Lease } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

test('nodes registered together renew their leases out of phase, each within 10.4 s', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 20, capacity: { cpu: '4', memory: '8Gi' } }] });
  await using c = await Cluster.start({ config, clock, random: new SeededRandom(5), components: true });
  const renewals = new Map<string, number[]>();
  const list = await c.client.list<Lease>(refs.leases, { namespace: 'kube-node-lease' });
  for (const l of list.items) renewals.set(l.metadata.name ?? '', [Date.parse(l.spec?.renewTime ?? '')]);
  const watch = c.client.watch<Lease>(refs.leases, { namespace: 'kube-node-lease', resourceVersion: list.metadata.resourceVersion ?? '' }, (e) => {
    const lease = e.object as Lease;
    renewals.get(lease.metadata.name ?? '')?.push(Date.parse(lease.spec?.renewTime ?? ''));
  });
  const start = clock.now();
  await clock.advance(45_000);
  watch.stop();

  assert.equal(renewals.size, 20);
  const firstRenewals = new Set<number>();
  for (const [name, times] of renewals) {
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? t));
    assert.ok(times.length >= 5, `${name} renewed ${times.length - 1} times in 45 s`);
    assert.ok(Math.max(...gaps) <= 10_400, `${name}: a gap of ${Math.max(...gaps)} ms between renewals`);
    firstRenewals.add((times[1] ?? 0) - start);
  }
  // Twenty nodes renewing at one instant is what a burst looks like; out of phase, they spread over the interval.
  assert.ok(firstRenewals.size >= 15, `first renewals at only ${firstRenewals.size} distinct times`);
  assert.ok(Math.max(...firstRenewals) - Math.min(...firstRenewals) >= 5_000, 'first renewals spread over at least half the interval');
});
