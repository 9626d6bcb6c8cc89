// ReplicationController: selector and labels defaulted from the template, upstream's validation
// messages and order, a selector that may change, and the replica-count table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { ReplicationController } from './replication-controller.ts';
import { replicationControllerDefinition as def } from './replication-controller.ts';

const ctx = { now: 0 };
const messages = (rc: ReplicationController, old?: ReplicationController): string[] =>
  (old ? def.validateUpdate?.(rc, old, ctx) : def.validateCreate?.(rc, ctx))?.map((e) => formatFieldError(e, { withField: true })) ?? [];

function rc(spec: ReplicationController['spec']): ReplicationController {
  return { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'web', namespace: 'default', resourceVersion: '7' }, spec };
}

test('ReplicationController: the selector and the labels default to the template labels, replicas to 1', () => {
  const obj = rc({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  def.defaults?.(obj);
  assert.deepEqual(obj.spec.selector, { app: 'web' });
  assert.deepEqual(obj.metadata.labels, { app: 'web' });
  assert.equal(obj.spec.replicas, 1);
  assert.equal(obj.spec.template?.spec.restartPolicy, 'Always');
  assert.deepEqual(messages(obj), []);
  const labelled = rc({ selector: { app: 'web' }, template: { metadata: { labels: { app: 'web', tier: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  labelled.metadata.labels = { team: 'ml' };
  def.defaults?.(labelled);
  assert.deepEqual([labelled.spec.selector, labelled.metadata.labels], [{ app: 'web' }, { team: 'ml' }], 'set values stay');
});

test('ReplicationController: validation in upstream words and order', () => {
  const bad = rc({ replicas: -1, minReadySeconds: -2, selector: { app: 'other' }, template: { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'OnFailure', activeDeadlineSeconds: 5, containers: [{ name: 'c', image: 'nginx' }] } } });
  def.defaults?.(bad);
  assert.deepEqual(messages(bad), [
    'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
    'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
  ]);
  const bare = rc({});
  def.defaults?.(bare);
  assert.deepEqual(messages(bare), ['spec.selector: Required value', 'spec.template: Required value']);
});

test('ReplicationController: an update may change the selector; status writes keep the spec; the table', () => {
  const old = rc({ replicas: 2, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web', v: '2' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } });
  def.defaults?.(old);
  const next: ReplicationController = structuredClone(old);
  next.spec.selector = { app: 'web', v: '2' };
  assert.deepEqual(messages(next, old), []);
  const statusWrite: ReplicationController = { ...structuredClone(old), spec: { replicas: 9 }, status: { replicas: 2, readyReplicas: 1 } };
  def.prepareForUpdate?.(statusWrite, old, { ...ctx, subresource: 'status' });
  assert.equal(statusWrite.spec.replicas, 2);
  assert.deepEqual(def.validateStatusUpdate?.({ ...statusWrite, status: { replicas: 1, readyReplicas: 2 } }, old, ctx)?.map((e) => formatFieldError(e, { withField: true })), ['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']);
  assert.deepEqual(def.table?.columns.map((c) => [c.name, c.priority]), [['Name', 0], ['Desired', 0], ['Current', 0], ['Ready', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1]]);
  assert.deepEqual(def.table?.cells({ ...old, status: { replicas: 2, readyReplicas: 1 } }, 0), ['web', 2, 2, 1, '<unknown>', 'c', 'nginx:1.27', 'app=web']);
});
