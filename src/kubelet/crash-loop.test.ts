// Scenario test on the VirtualClock: what a watch of a crash-looping pod sees. After every crash the
// container's Terminated state (reason Error, exit code) comes first; CrashLoopBackOff shows from the
// pod's next sync after the start was refused (the reason cache), and a BackOff event is recorded on
// each refused sync. Upstream: kuberuntime_manager.go (doBackOff), kubelet_pods.go
// (convertToAPIContainerStatuses), pkg/kubelet/reason_cache.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refs } from '../api/index.ts';
import type { Event, Pod } from '../api/index.ts';
import { Cluster, clusterConfigFrom } from '../cluster/index.ts';
import { SeededRandom, VirtualClock } from '../core/index.ts';

test('crash loop: every crash shows Terminated(Error) before CrashLoopBackOff; restarts stay 0/10/20/40 s after each exit; BackOff on each refused sync', async () => {
  const clock = new VirtualClock();
  const config = clusterConfigFrom({ nodePools: [{ name: 'cpu', count: 1, capacity: { cpu: '4', memory: '8Gi' } }] });
  const c = await Cluster.start({ config, clock, random: new SeededRandom(1), components: true });
  try {
    const seen: { at: number; state: string }[] = [];
    const w = c.client.watch<Pod>(refs.pods, { namespace: 'default', fieldSelector: 'metadata.name=crash' }, (e) => {
      if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
      const s = (e.object as Pod).status?.containerStatuses?.[0];
      if (!s) return;
      const t = s.state?.terminated;
      const state = s.state?.running ? `Running ${s.restartCount}` : t ? `Terminated(${t.reason} ${t.exitCode})` : `Waiting(${s.state?.waiting?.reason ?? ''})`;
      if (seen.at(-1)?.state !== state) seen.push({ at: clock.now(), state });
    });
    const t0 = clock.now();
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'crash' }, spec: { nodeName: 'cpu-0', containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'sleep 1; exit 1'] }] } } as Pod;
    const created = await c.client.create<Pod>(refs.pods, pod, { namespace: 'default' });
    await clock.advance(80_000);
    w.stop();
    const states = seen.map((s) => s.state).filter((s) => !s.startsWith('Waiting(ContainerCreating'));
    assert.deepEqual(states, [
      'Running 0',
      'Terminated(Error 1)',
      'Running 1',
      'Terminated(Error 1)',
      'Waiting(CrashLoopBackOff)',
      'Running 2',
      'Terminated(Error 1)',
      'Waiting(CrashLoopBackOff)',
      'Running 3',
      'Terminated(Error 1)',
      'Waiting(CrashLoopBackOff)',
      'Running 4',
      'Terminated(Error 1)',
    ]);
    // Each run lasts 1 s, then the back-off window (0, 10, 20, 40 s) from the exit.
    const runs = seen.filter((s) => s.state.startsWith('Running')).map((s) => Math.round((s.at - t0) / 1000));
    assert.deepEqual(runs.slice(1).map((t, i) => t - (runs[i] ?? 0)), [1, 11, 21, 41]);
    // CrashLoopBackOff shows from the sync after the refusal: 10-15 s after the exit, or when the back-off ends.
    const shown = seen.flatMap((s, i) => (s.state === 'Waiting(CrashLoopBackOff)' ? [Math.round((s.at - (seen[i - 1]?.at ?? 0)) / 1000)] : []));
    assert.equal(shown[0], 10);
    for (const gap of shown.slice(1)) assert.ok(gap >= 10 && gap <= 15, `CrashLoopBackOff ${gap} s after the exit`);
    const p = await c.client.get<Pod>(refs.pods, 'default', 'crash');
    const waiting = p.status?.containerStatuses?.[0]?.state;
    assert.ok(waiting?.terminated, 'the last exit is still in view');
    const backoffs = (await c.client.list<Event>(refs.events, { namespace: 'default' })).items.filter((e) => e.involvedObject.name === 'crash' && e.reason === 'BackOff');
    assert.equal(backoffs[0]?.message, `Back-off restarting failed container app in pod crash_default(${created.metadata.uid})`);
    assert.equal(backoffs[0]?.type, 'Warning');
    // Refused syncs: 1 for the 10 s window, 2 for 20 s, 3 or 4 for 40 s, 1 so far for the next (a
    // loaded machine has been seen to land one of them past the 80 s); one a crash would be 4.
    const count = backoffs.reduce((n, e) => n + (e.count ?? 1), 0);
    assert.ok(count >= 6 && count <= 8, `BackOff count ${count}`);
  } finally {
    await c.stop();
  }
});
