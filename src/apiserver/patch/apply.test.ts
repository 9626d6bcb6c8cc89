import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PatchMeta } from '../../api/index.ts';
import { emptyObject } from '../../api/index.ts';
import type { JsonObject } from './json-value.ts';
import type { KubeObject } from '../../core/index.ts';
import { applyServerSide } from './apply.ts';
import type { ApplyOptions } from './apply.ts';
import { updateManagedFields } from './managed-fields.ts';

const meta: PatchMeta = {
  fields: {
    metadata: { fields: { labels: { values: {} }, annotations: { values: {} }, finalizers: { strategy: 'merge', listType: 'set' } } },
    spec: {
      fields: {
        template: {
          fields: {
            spec: {
              fields: {
                containers: {
                  strategy: 'merge',
                  mergeKey: 'name',
                  listType: 'map',
                  listMapKeys: ['name'],
                  items: {
                    fields: {
                      ports: { strategy: 'merge', mergeKey: 'containerPort', listType: 'map', listMapKeys: ['containerPort', 'protocol'] },
                      args: { listType: 'atomic' },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

const T0 = '2024-05-01T10:00:00Z';
const T1 = '2024-05-01T11:00:00Z';
const opts = (o: Partial<ApplyOptions> = {}): ApplyOptions => ({ manager: 'kubectl', apiVersion: 'apps/v1', now: T1, meta, force: false, ...o });

function deploy(spec: Record<string, unknown>, labels: Record<string, string> = { app: 'web' }): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels }, spec };
}
const containers = (...cs: Record<string, unknown>[]): Record<string, unknown> => ({ template: { spec: { containers: cs } } });

function applyOk(live: KubeObject | undefined, applied: KubeObject, o: Partial<ApplyOptions> = {}): KubeObject {
  const r = applyServerSide(live, applied, opts(o));
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.object;
}

test('apply to a missing object creates it with one Apply entry', () => {
  const obj = applyOk(undefined, deploy({ replicas: 2, ...containers({ name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }] }) }));
  assert.deepEqual(obj.metadata.managedFields, [
    {
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      time: T1,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:template': {
            'f:spec': {
              'f:containers': {
                'k:{"name":"c"}': {
                  '.': {},
                  'f:image': {},
                  'f:name': {},
                  'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
                },
              },
            },
          },
        },
      },
    },
  ]);
  assert.equal((obj.spec as { replicas: number }).replicas, 2);
});

test('re-apply removes the fields the manager stopped applying', () => {
  const first = applyOk(undefined, deploy({ replicas: 2, ...containers({ name: 'c', image: 'i' }, { name: 'log', image: 'fb' }) }, { app: 'web', tier: 'fe' }));
  const second = applyOk(first, deploy({ ...containers({ name: 'c', image: 'i' }) }));
  assert.deepEqual(second.metadata.labels, { app: 'web' });
  assert.deepEqual(second.spec, { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } });
});

test('a dropped field another manager also owns stays', () => {
  const first = applyOk(undefined, deploy({ replicas: 2 }));
  const shared = applyOk(first, deploy({ replicas: 2 }), { manager: 'other' });
  const dropped = applyOk(shared, deploy({}));
  assert.equal((dropped.spec as { replicas?: number }).replicas, 2);
  assert.deepEqual(dropped.metadata.managedFields?.map((e) => e.manager), ['kubectl', 'other']);
});

function csaOwned(replicas: number): KubeObject {
  const created = deploy({ replicas, ...containers({ name: 'c', image: 'nginx:1' }) });
  return updateManagedFields(undefined, created, { manager: 'kubectl-client-side-apply', apiVersion: 'apps/v1', now: T0, meta });
}

test('conflict with an Update owner names its version', () => {
  const r = applyServerSide(csaOwned(3), deploy({ replicas: 5 }), opts());
  assert.deepEqual(r, {
    ok: false,
    kind: 'conflict',
    message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    conflicts: [{ manager: 'kubectl-client-side-apply', field: '.spec.replicas', message: 'conflict with "kubectl-client-side-apply" using apps/v1' }],
  });
});

test('several conflicts are listed per manager', () => {
  const r = applyServerSide(csaOwned(3), deploy({ replicas: 5, ...containers({ name: 'c', image: 'nginx:2' }) }), opts());
  assert.equal(r.ok, false);
  assert.equal(
    r.ok ? '' : r.message,
    'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="c"].image',
  );
});

test('conflict with an Apply owner has no version', () => {
  const mine = applyOk(undefined, deploy({ replicas: 1 }), { manager: 'helm' });
  const r = applyServerSide(mine, deploy({ replicas: 4 }), opts());
  assert.equal(r.ok ? '' : r.message, 'Apply failed with 1 conflict: conflict with "helm": .spec.replicas');
});

test('applying the same value shares ownership without conflict', () => {
  const obj = applyOk(csaOwned(3), deploy({ replicas: 3 }));
  const owners = obj.metadata.managedFields?.filter((e) => JSON.stringify(e.fieldsV1).includes('f:replicas')).map((e) => e.manager);
  assert.deepEqual(owners, ['kubectl', 'kubectl-client-side-apply']);
});

test('force takes the field from the other manager', () => {
  const obj = applyOk(csaOwned(3), deploy({ replicas: 5 }), { force: true });
  assert.equal((obj.spec as { replicas: number }).replicas, 5);
  const csa = obj.metadata.managedFields?.find((e) => e.manager === 'kubectl-client-side-apply');
  assert.ok(csa && !JSON.stringify(csa.fieldsV1).includes('f:replicas'));
  assert.equal(csa?.time, T0);
});

test('an object that predates field tracking belongs to before-first-apply', () => {
  const r = applyServerSide(deploy({ replicas: 3 }), deploy({ replicas: 1 }), opts());
  assert.equal(r.ok ? '' : r.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
});

test('a no-op apply keeps the live managedFields (timestamps included)', () => {
  const first = applyOk(undefined, deploy({ replicas: 2 }), { now: T0 });
  const again = applyOk(first, deploy({ replicas: 2 }), { now: T1 });
  assert.deepEqual(again.metadata.managedFields, first.metadata.managedFields);
});

test('list-map merge keeps live-only items in place and follows the applied order', () => {
  const live = updateManagedFields(undefined, deploy(containers({ name: 'a' }, { name: 'b' }, { name: 'x' })), { manager: 'ctl', apiVersion: 'apps/v1', now: T0, meta });
  const obj = applyOk(live, deploy(containers({ name: 'b' }, { name: 'c' })), { force: true });
  const names = ((obj.spec as { template: { spec: { containers: { name: string }[] } } }).template.spec.containers).map((c) => c.name);
  assert.deepEqual(names, ['a', 'b', 'x', 'c']);
});

test('an applied list-map element without its key is invalid', () => {
  const r = applyServerSide(undefined, deploy(containers({ image: 'nginx' })), opts());
  assert.deepEqual(r, {
    ok: false,
    kind: 'invalid',
    message: '.spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    conflicts: [],
  });
});

test('ignored fields (status on the main resource) are neither applied nor owned', () => {
  const live = { ...deploy({ replicas: 1 }), status: { replicas: 1 } };
  const obj = applyOk(live as KubeObject, { ...deploy({ replicas: 1 }), status: { replicas: 9 } } as KubeObject, { ignoreFields: [['status']], force: true });
  assert.deepEqual(obj.status, { replicas: 1 });
  assert.ok(!JSON.stringify(obj.metadata.managedFields).includes('f:status'));
});

test('Update entries: create owns everything it set, a later edit takes what it changed', () => {
  const created = updateManagedFields(undefined, deploy({ replicas: 1, ...containers({ name: 'c', image: 'nginx:1' }) }), {
    manager: 'kubectl-create',
    apiVersion: 'apps/v1',
    now: T0,
    meta,
    emptyObject: emptyObject('apps', 'v1', 'Deployment') as JsonObject,
  });
  assert.deepEqual(created.metadata.managedFields, [
    {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: T0,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } },
        },
      },
    },
  ]);
  const edited = structuredClone(created);
  ((edited.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0] as { image: string }).image = 'nginx:2';
  const after = updateManagedFields(created, edited, { manager: 'kubectl-edit', apiVersion: 'apps/v1', now: T1, meta });
  assert.deepEqual(
    after.metadata.managedFields?.map((e) => [e.manager, e.time, JSON.stringify(e.fieldsV1).includes('f:image')]),
    [
      ['kubectl-create', T0, false],
      ['kubectl-edit', T1, true],
    ],
  );
});

test('an update that changes nothing records nothing', () => {
  const created = updateManagedFields(undefined, deploy({ replicas: 1 }), { manager: 'kubectl-create', apiVersion: 'apps/v1', now: T0, meta });
  const same = updateManagedFields(created, structuredClone(created), { manager: 'kubectl-label', apiVersion: 'apps/v1', now: T1, meta });
  assert.deepEqual(same.metadata.managedFields, created.metadata.managedFields);
});
