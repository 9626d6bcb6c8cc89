import assert from 'node:assert/strict';
import { test } from 'node:test';
import { poolRuntimeHandlers, runtimeStatus, sandboxRuntimeFailure } from './runtime-handlers.ts';

const classes: Record<string, { handler: string }> = { nvidia: { handler: 'nvidia' }, gvisor: { handler: 'runsc' }, plain: { handler: 'runc' } };
const lookup = (name: string): { handler: string } | undefined => classes[name];

test('a CPU node has the default runtime and runc; a GPU node also the GPU operator\'s handlers, listed by name', () => {
  assert.deepEqual(poolRuntimeHandlers({}), ['', 'runc']);
  const gpu = poolRuntimeHandlers({ gpus: { model: 'H100-80GB', count: 8, mig: 'none', expose: 'dra', migStrategy: 'single' } });
  assert.deepEqual(runtimeStatus(gpu).runtimeHandlers?.map((h) => h.name), ['', 'nvidia', 'nvidia-cdi', 'nvidia-legacy', 'runc']);
  assert.deepEqual(runtimeStatus(gpu).features, { supplementalGroupsPolicy: true });
});

test('a pod whose RuntimeClass names a handler the node lacks gets containerd\'s refusal; a deleted class the lister\'s NotFound', () => {
  const cpu = poolRuntimeHandlers({});
  assert.equal(sandboxRuntimeFailure(undefined, lookup, cpu), undefined);
  assert.equal(sandboxRuntimeFailure('plain', lookup, cpu), undefined);
  assert.equal(sandboxRuntimeFailure('nvidia', lookup, cpu), 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "nvidia" is configured');
  assert.equal(sandboxRuntimeFailure('gvisor', lookup, cpu), 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "runsc" is configured');
  assert.equal(sandboxRuntimeFailure('gone', lookup, cpu), 'Failed to create pod sandbox: runtimeclass.node.k8s.io "gone" not found');
  assert.equal(sandboxRuntimeFailure('nvidia', lookup, poolRuntimeHandlers({ gpus: { model: 'H100-80GB', count: 1, mig: 'none', expose: 'dra', migStrategy: 'single' } })), undefined);
});
