// `kubectl get cs`: the scheduler and controller manager healthy while they run, etcd-0 always; an
// unknown component is upstream's plain 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ComponentStatus } from '../api/index.ts';
import { ApiError } from '../core/index.ts';
import { componentStatuses } from './component-statuses.ts';

const conditions = (items: readonly ComponentStatus[]): unknown[] => items.map((cs) => [cs.metadata.name, cs.conditions]);

test('ComponentStatus: healthy while the components run; a stopped one fails its probe as an unreachable one does', async () => {
  let running = new Set(['scheduler', 'replicaset-controller']);
  const provider = componentStatuses(() => running);
  assert.deepEqual(conditions((await provider.list('')) as ComponentStatus[]), [
    ['scheduler', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
    ['controller-manager', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
    ['etcd-0', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
  ]);
  running = new Set();
  const scheduler = (await provider.get('', 'scheduler')) as ComponentStatus;
  assert.deepEqual(scheduler.conditions, [{ type: 'Healthy', status: 'False', message: 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused' }]);
  assert.equal(provider.def.table?.cells(scheduler, 0)[1], 'Unhealthy');
  assert.throws(() => provider.get('', 'nope'), (e: unknown) => e instanceof ApiError && e.code === 500 && e.message === 'Component not found: nope' && !('reason' in e.toStatus()));
});
