// Discovery documents are encoded once per index generation: the same text while nothing is added or
// removed, a new one as soon as a custom resource is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { builtinDefinitions } from '../api/index.ts';
import type { ResourceDefinition } from '../api/index.ts';
import { ResourceIndex } from './resource-index.ts';
import { encodedAggregatedDiscovery, encodedApiGroupDocument, encodedApiGroupList, encodedResourceList } from './discovery.ts';

const v2 = 'apidiscovery.k8s.io/v2';

function widgets(): ResourceDefinition {
  const configMaps = builtinDefinitions().find((d) => d.group === '' && d.resource === 'configmaps');
  assert.ok(configMaps);
  return { ...configMaps, group: 'example.com', version: 'v1', resource: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] };
}

function aggregatedGroups({ json }: { json: string }): string[] {
  return (JSON.parse(json) as { items: { metadata: { name?: string } }[] }).items.map((i) => i.metadata.name ?? '');
}

test('discovery documents are encoded once while the index is unchanged', () => {
  const index = new ResourceIndex(builtinDefinitions());
  const first = encodedAggregatedDiscovery(index, 'apis', v2, []);
  assert.equal(encodedAggregatedDiscovery(index, 'apis', v2, []), first);
  assert.equal(encodedResourceList(index, '', 'v1'), encodedResourceList(index, '', 'v1'));
  assert.equal(encodedApiGroupList(index, []), encodedApiGroupList(index, []));
});

test('a resource added or removed after a read is in the next documents, and only then', () => {
  const index = new ResourceIndex(builtinDefinitions());
  assert.ok(!aggregatedGroups(encodedAggregatedDiscovery(index, 'apis', v2, [])).includes('example.com'));
  assert.equal(encodedResourceList(index, 'example.com', 'v1'), undefined);
  index.add(widgets());
  assert.ok(aggregatedGroups(encodedAggregatedDiscovery(index, 'apis', v2, [])).includes('example.com'));
  const list = JSON.parse(encodedResourceList(index, 'example.com', 'v1') ?? '{}') as { resources: { name: string; shortNames?: string[] }[] };
  assert.deepEqual(list.resources.map((r) => [r.name, r.shortNames]), [['widgets', ['wd']]]);
  assert.match(encodedApiGroupList(index, []), /"name":"example.com"/);
  index.remove('example.com', 'v1', 'widgets');
  assert.ok(!aggregatedGroups(encodedAggregatedDiscovery(index, 'apis', v2, [])).includes('example.com'));
  assert.equal(encodedApiGroupDocument(index, 'example.com'), undefined);
});

test('the documents of /apis follow the APIServices that send to a Service', () => {
  const index = new ResourceIndex(builtinDefinitions());
  const none = encodedApiGroupList(index, []);
  const remote = [{ group: 'custom.metrics.k8s.io', version: 'v1beta2' }];
  assert.doesNotMatch(none, /custom\.metrics/);
  assert.match(encodedApiGroupList(index, remote), /"name":"custom.metrics.k8s.io"/);
  assert.equal(encodedApiGroupList(index, []), none);
  const stale = JSON.parse(encodedAggregatedDiscovery(index, 'apis', v2, remote).json) as { items: { metadata: { name?: string }; versions: { freshness: string }[] }[] };
  assert.deepEqual(stale.items.find((i) => i.metadata.name === 'custom.metrics.k8s.io')?.versions, [{ version: 'v1beta2', freshness: 'Stale' }]);
});

test('the aggregated discovery ETag is one per list, whatever its version, and changes with its items', () => {
  const index = new ResourceIndex(builtinDefinitions());
  const { etag, json } = encodedAggregatedDiscovery(index, 'apis', v2, []);
  assert.match(etag, /^"[0-9A-F]{128}"$/);
  // Upstream's calculateETag hashes the list as Go encodes it without its TypeMeta.
  const { items } = JSON.parse(json) as { items: unknown[] };
  assert.equal(etag, `"${createHash('sha512').update(JSON.stringify({ metadata: {}, items })).digest('hex').toUpperCase()}"`);
  const beta = encodedAggregatedDiscovery(index, 'apis', 'apidiscovery.k8s.io/v2beta1', []);
  assert.equal(beta.etag, etag);
  assert.match(beta.json, /"apiVersion":"apidiscovery.k8s.io\/v2beta1"/);
  assert.notEqual(encodedAggregatedDiscovery(index, 'api', v2, []).etag, etag);

  index.add(widgets());
  const added = encodedAggregatedDiscovery(index, 'apis', v2, []).etag;
  assert.notEqual(added, etag);
  assert.equal(encodedAggregatedDiscovery(index, 'apis', v2, []).etag, added);
  assert.notEqual(encodedAggregatedDiscovery(index, 'apis', v2, [{ group: 'custom.metrics.k8s.io', version: 'v1beta2' }]).etag, added);
  index.remove('example.com', 'v1', 'widgets');
  assert.equal(encodedAggregatedDiscovery(index, 'apis', v2, []).etag, etag, 'the same items, the same tag');
});
