// A custom resource served at several versions without conversion (strategy None), as Gateway API's
// CRDs are: each version answers with its own apiVersion whichever it was written through, the storage
// version is what is kept, and a deprecated version's requests get its warning.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: routes.net.example.com
spec:
  group: net.example.com
  names: {kind: Route, plural: routes}
  scope: Namespaced
  versions:
  - name: v1alpha2
    served: true
    storage: false
    deprecated: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {host: {type: string}}}}}}
  - name: v1beta1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {host: {type: string}}}}}}
  - name: v1
    served: true
    storage: false
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {host: {type: string}}}
          status:
            type: object
            default: {conditions: [{type: Accepted, status: Unknown, reason: Pending}]}
            properties:
              conditions: {type: array, items: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;

describe('CRD versions', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock();
    await dd.ok(['apply', '-f', dd.writeFile('routes.yaml', crd)]);
    await dd.ok(['wait', '--for=condition=Established', 'crd/routes.net.example.com']);
  });
  after(async () => {
    await dd?.stop();
  });

  test('each version answers with its own apiVersion, whichever version wrote the object', async () => {
    const route = JSON.stringify({ apiVersion: 'net.example.com/v1', kind: 'Route', metadata: { name: 'web' }, spec: { host: 'web.example.com' } });
    assert.equal(await dd.ok(['create', '-f', '-'], { input: route }), 'route.net.example.com/web created\n');
    for (const version of ['v1', 'v1beta1', 'v1alpha2']) {
      const got = JSON.parse(await dd.ok(['get', '--raw', `/apis/net.example.com/${version}/namespaces/default/routes/web`])) as { apiVersion: string; spec: { host: string } };
      assert.deepEqual([got.apiVersion, got.spec.host], [`net.example.com/${version}`, 'web.example.com'], version);
    }
    const list = JSON.parse(await dd.ok(['get', '--raw', '/apis/net.example.com/v1/namespaces/default/routes'])) as { items: { apiVersion: string }[] };
    assert.deepEqual(list.items.map((i) => i.apiVersion), ['net.example.com/v1']);
    assert.equal(await dd.ok(['get', 'routes.v1beta1.net.example.com', 'web', '-o', 'jsonpath={.apiVersion}']), 'net.example.com/v1beta1');
  });

  test("a status default shows on a new object though the create drops the status it was sent", async () => {
    const route = JSON.stringify({ apiVersion: 'net.example.com/v1', kind: 'Route', metadata: { name: 'fresh' }, spec: { host: 'fresh.example.com' }, status: { conditions: [{ type: 'Accepted', status: 'True' }] } });
    await dd.ok(['create', '-f', '-'], { input: route });
    assert.equal(await dd.ok(['get', 'routes.v1.net.example.com', 'fresh', '-o', 'jsonpath={.status.conditions[0].status}/{.status.conditions[0].reason}']), 'Unknown/Pending');
  });

  test("a deprecated version's requests get its warning, naming the newest version to use", async () => {
    const route = JSON.stringify({ apiVersion: 'net.example.com/v1alpha2', kind: 'Route', metadata: { name: 'old' }, spec: { host: 'old.example.com' } });
    const r = await dd.kubectl(['create', '-f', '-'], { input: route });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'Warning: net.example.com/v1alpha2 Route is deprecated; use net.example.com/v1 Route\n');
    const stored = JSON.parse(await dd.ok(['get', '--raw', '/apis/net.example.com/v1/namespaces/default/routes/old'])) as { apiVersion: string };
    assert.equal(stored.apiVersion, 'net.example.com/v1');
  });
});
