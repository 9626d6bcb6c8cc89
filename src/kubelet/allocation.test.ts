// Table tests of the kubelet's resize policy: admission verdicts and messages, queue order, event text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from '../api/index.ts';
import { compareResizePriority, decideResize, desiredAllocation, resizeEventDetail, resizeNeedsRestart, resizeOperations } from './allocation.ts';

const node = { metadata: { name: 'n' }, status: { allocatable: { cpu: '4', memory: '8Gi' } } } as Node;
const pod = (cpu: string, memory = '1Gi', over: Partial<Pod['spec']> = {}, limits = true): Pod =>
  ({ metadata: { name: 'p', generation: 2 }, spec: { containers: [{ name: 'c', resources: { requests: { cpu, memory }, ...(limits ? { limits: { cpu, memory } } : {}) } }], ...over } }) as Pod;
const alloc = (cpu: string, memory = '1Gi') => desiredAllocation(pod(cpu, memory));

test('decideResize: verdicts and upstream messages', () => {
  const cases: [string, Pod, Record<string, number>, object, string][] = [
    ['fits', pod('2'), { cpu: 1000 }, {}, 'fits'],
    ['deferred on cpu', pod('2'), { cpu: 2500 }, {}, "Deferred: Node didn't have enough resource: cpu, requested: 2000, used: 2500, capacity: 4000"],
    ['deferred on memory', pod('1', '6Gi'), { cpu: 0, memory: 4 * 2 ** 30 }, {}, `Deferred: Node didn't have enough resource: memory, requested: ${6 * 2 ** 30}, used: ${4 * 2 ** 30}, capacity: ${8 * 2 ** 30}`],
    ['infeasible cpu', pod('1000'), {}, {}, "Infeasible: Node didn't have enough capacity: cpu, requested: 1000000, capacity: 4000 (insufficient_node_allocatable)"],
    ['infeasible memory first', pod('1000', '9Gi'), {}, {}, `Infeasible: Node didn't have enough capacity: memory, requested: ${9 * 2 ** 30}, capacity: ${8 * 2 ** 30} (insufficient_node_allocatable)`],
    ['static cpu manager, Guaranteed', pod('2'), {}, { cpuManagerPolicy: 'static' }, 'Infeasible: Resize is infeasible for Guaranteed Pods alongside CPU Manager policy "static" (guaranteed_pod_cpu_manager_static_policy)'],
    ['static cpu manager, Burstable', pod('2', '1Gi', {}, false), {}, { cpuManagerPolicy: 'static' }, 'fits'],
    ['static memory manager, memory change', pod('1', '2Gi'), {}, { memoryManagerPolicy: 'Static' }, 'Infeasible: Resize is infeasible for Guaranteed Pods alongside Memory Manager policy "Static" (guaranteed_pod_memory_manager_static_policy)'],
  ];
  for (const [name, p, used, policy, want] of cases) {
    const v = decideResize(p, alloc('1'), node, policy, used);
    // An infeasible verdict names its kubelet_pod_infeasible_resizes_total reason_detail.
    assert.equal(v.kind === 'fits' ? 'fits' : `${v.kind}: ${v.message}${v.kind === 'Infeasible' ? ` (${v.detail})` : ''}`, want, name);
  }
});

test('resizeOperations: each changed cpu or memory request and limit of a resizable container, memory first', () => {
  const sidecar = (cpu?: string): Partial<Pod['spec']> => ({ initContainers: [{ name: 's', restartPolicy: 'Always', resources: cpu ? { requests: { cpu } } : {} }, { name: 'init', resources: { requests: { cpu: cpu ?? '1' } } }] });
  const ops = (old: Pod, next: Pod): string[] => resizeOperations(old, next).map((o) => `${o.resource} ${o.requirement} ${o.operation}`);
  assert.deepEqual(ops(pod('1', '1Gi'), pod('2', '512Mi')), ['memory requests decrease', 'memory limits decrease', 'cpu requests increase', 'cpu limits increase']);
  assert.deepEqual(ops(pod('1', '1Gi', {}, true), pod('1', '1Gi', {}, false)), ['memory limits remove', 'cpu limits remove']);
  assert.deepEqual(ops(pod('1000m'), pod('1')), []);
  // A sidecar counts, a plain init container does not.
  assert.deepEqual(ops(pod('1', '1Gi', sidecar()), pod('1', '1Gi', sidecar('250m'))), ['cpu requests add']);
});

test('compareResizePriority: non-increasing first, then priority, Guaranteed before Burstable, then oldest', () => {
  const c = (p: Pod, allocated: string, since: number) => ({ pod: p, allocated: alloc(allocated), pendingSince: since });
  assert.ok(compareResizePriority(c(pod('500m'), '1', 9), c(pod('2'), '1', 0)) < 0);
  assert.ok(compareResizePriority(c(pod('2', '1Gi', { priority: 100 }), '1', 9), c(pod('2'), '1', 0)) < 0);
  assert.ok(compareResizePriority(c(pod('2'), '1', 9), c(pod('2', '1Gi', {}, false), '1', 0)) < 0);
  assert.ok(compareResizePriority(c(pod('2'), '1', 0), c(pod('2'), '1', 9)) < 0);
});

test('resizeEventDetail is compact JSON with sorted resources, the generation and the error', () => {
  assert.equal(
    resizeEventDetail(pod('1'), 'boom'),
    '{"containers":[{"name":"c","resources":{"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1","memory":"1Gi"}}}],"generation":2,"error":"boom"}',
  );
});

test('resizeNeedsRestart: only a changed resource whose policy is RestartContainer', () => {
  const c = { name: 'c', resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] } as Pod['spec']['containers'][number];
  const r = (cpu: string, memory: string) => ({ requests: { cpu, memory } });
  assert.deepEqual([resizeNeedsRestart(c, r('1', '1Gi'), r('2', '1Gi')), resizeNeedsRestart(c, r('1', '1Gi'), r('1', '2Gi')), resizeNeedsRestart(c, r('1', '1Gi'), r('1000m', '1Gi'))], [false, true, false]);
});
