// The request pipeline through the in-process client: metadata, concurrency, subresources,
// list paging, watch semantics and deletion, as any client sees them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinDefinitions, refs } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { Pod } from '../api/index.ts';
import { ApiError, SeededRandom, VirtualClock } from '../core/index.ts';
import type { ClientWatchEvent } from '../client/index.ts';
import { MemoryStore } from '../storage/index.ts';
import { ApiServer, builtinAdmissionPlugins, createLocalClient } from './index.ts';
import { rejection } from './api-error.test-support.ts';

async function setup(options: { historyLimit?: number } = {}) {
  const clock = new VirtualClock();
  const store = new MemoryStore(options.historyLimit ? { historyLimit: options.historyLimit } : {});
  const server = new ApiServer({ store, clock, random: new SeededRandom(1), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() });
  const client = createLocalClient(server);
  await client.create(refs.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  return { clock, store, server, client };
}

const configMap = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
  data,
});

const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra },
});

describe('create', () => {
  test('sets uid, creationTimestamp, resourceVersion and generation; generateName adds 5 characters', async () => {
    const { client } = await setup();
    const created = await client.create(refs.pods, { ...pod(''), metadata: { generateName: 'web-', namespace: 'default' } });
    assert.match(created.metadata.name ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.match(created.metadata.uid ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(created.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(created.metadata.generation, 1);
    assert.match(created.metadata.resourceVersion ?? '', /^\d+$/);
  });

  test('a generated name that is taken is generated again, and the object is stored under the new one', async () => {
    const { store, clock, client } = await setup();
    const generated = { ...pod(''), metadata: { generateName: 'web-', namespace: 'default' } };
    // Two servers whose randoms run in step generate the same first name.
    const twin = () => createLocalClient(new ApiServer({ store, clock, random: new SeededRandom(5), definitions: builtinDefinitions(), admissionPlugins: builtinAdmissionPlugins() }));
    const first = await twin().create(refs.pods, generated);
    const second = await twin().create(refs.pods, generated);
    assert.notEqual(second.metadata.name, first.metadata.name);
    assert.match(second.metadata.name ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const stored = await client.get(refs.pods, 'default', second.metadata.name ?? '');
    assert.equal(stored.metadata.uid, second.metadata.uid);
    assert.equal(stored.metadata.generateName, 'web-');
  });

  test('a duplicate name is AlreadyExists; a missing namespace is NotFound; a set resourceVersion is a BadRequest', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('a'));
    const dup = await rejection(client.create(refs.configMaps, configMap('a')));
    assert.equal(dup.code, 409);
    assert.equal(dup.message, 'configmaps "a" already exists');
    const missing = await rejection(client.create(refs.configMaps, { ...configMap('b'), metadata: { name: 'b', namespace: 'nope' } }));
    assert.equal(missing.message, 'namespaces "nope" not found');
    const rv = await rejection(client.create(refs.configMaps, { ...configMap('c'), metadata: { name: 'c', namespace: 'default', resourceVersion: '5' } }));
    assert.equal(rv.code, 400);
    assert.equal(rv.message, 'resourceVersion should not be set on objects to be created');
  });

  test('a bad label is reported once, for kinds whose own validation checks metadata too', async () => {
    const { client } = await setup();
    const labelError = `metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;
    const badPod = await rejection(client.create(refs.pods, { ...pod('p'), metadata: { name: 'p', namespace: 'default', labels: { 'bad key!': 'x' } } }));
    assert.equal(badPod.message, `Pod "p" is invalid: ${labelError}`);
    assert.equal(badPod.details?.causes?.length, 1);
    const badMap = await rejection(client.create(refs.configMaps, configMap('m', {}, { 'bad key!': 'x' })));
    assert.equal(badMap.message, `ConfigMap "m" is invalid: ${labelError}`);
    await client.create(refs.configMaps, configMap('n'));
    const badUpdate = await rejection(client.update(refs.configMaps, configMap('n', {}, { 'bad key!': 'x' })));
    assert.equal(badUpdate.message, `ConfigMap "n" is invalid: ${labelError}`);
  });

  test('dry run returns the object and stores nothing', async () => {
    const { client } = await setup();
    const result = await client.create(refs.configMaps, configMap('dry'), { dryRun: true });
    assert.equal(result.metadata.name, 'dry');
    await assert.rejects(client.get(refs.configMaps, 'default', 'dry'), /configmaps "dry" not found/);
  });
});

describe('update', () => {
  test('a stale resourceVersion is a Conflict in upstream words; an update without one wins', async () => {
    const { client } = await setup();
    const first = await client.create(refs.configMaps, configMap('a', { v: '1' }));
    await client.update(refs.configMaps, { ...first, data: { v: '2' } });
    const stale = await rejection(client.update(refs.configMaps, { ...first, data: { v: '3' } }));
    assert.equal(stale.code, 409);
    assert.equal(stale.message, 'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again');
    const { resourceVersion: _rv, ...meta } = first.metadata;
    const forced = await client.update(refs.configMaps, { ...first, metadata: meta, data: { v: '4' } });
    assert.deepEqual(forced.data, { v: '4' });
  });

  test('an update whose body names no object is refused, not written to the URL\'s', async () => {
    const { client, server } = await setup();
    await client.create(refs.configMaps, configMap('a', { v: '1' }));
    const unnamed = await rejection(server.update(refs.configMaps, 'default', 'a', { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, {}));
    assert.deepEqual([unnamed.code, unnamed.message], [400, 'the name of the object (a based on URL) was undeterminable: name must be provided']);
    // The namespace is checked first.
    const elsewhere = await rejection(server.update(refs.configMaps, 'default', 'a', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'kube-system' } }, {}));
    assert.equal(elsewhere.message, 'the namespace of the provided object does not match the namespace sent on the request');
    assert.deepEqual((await client.get(refs.configMaps, 'default', 'a')).data, { v: '1' });
  });

  test('a patch that moves its object to another name or namespace is refused in checkName\'s words', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('a', { v: '1' }));
    const moved = await rejection(client.patch(refs.configMaps, 'default', 'a', 'merge', { metadata: { namespace: 'kube-system' } }));
    assert.deepEqual([moved.code, moved.message], [400, 'the namespace of the object (kube-system) does not match the namespace on the request (default)']);
    const unnamed = await rejection(client.patch(refs.configMaps, 'default', 'a', 'json', [{ op: 'remove', path: '/metadata/name' }]));
    assert.deepEqual([unnamed.code, unnamed.message], [400, 'the name of the object (a based on URL) was undeterminable: name must be provided']);
    assert.deepEqual((await client.get(refs.configMaps, 'default', 'a')).data, { v: '1' });
  });

  test('a no-op update keeps the resourceVersion', async () => {
    const { client } = await setup();
    const first = await client.create(refs.configMaps, configMap('a', { v: '1' }));
    const again = await client.update(refs.configMaps, first);
    assert.equal(again.metadata.resourceVersion, first.metadata.resourceVersion);
  });

  test('generation follows spec changes only; status goes through its subresource', async () => {
    const { client } = await setup();
    const deploy = await client.create(refs.deployments, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    assert.equal(deploy.metadata.generation, 1);
    const withStatus = await client.update(refs.deployments, { ...deploy, status: { replicas: 5 } });
    assert.equal((withStatus.status as { replicas?: number } | undefined)?.replicas, undefined, 'the main resource ignores status');
    const statusBody: KubeObject = { ...withStatus, status: { replicas: 1 }, spec: { ...((withStatus as KubeObject).spec as object), replicas: 9 } };
    const statusWrite = await client.updateStatus(refs.deployments, statusBody);
    assert.equal((statusWrite.status as { replicas: number }).replicas, 1);
    assert.equal((statusWrite.spec as { replicas: number }).replicas, 1, 'the status subresource ignores spec');
    assert.equal(statusWrite.metadata.generation, 1);
    const scaled = await client.patch(refs.deployments, 'default', 'web', 'merge', { spec: { replicas: 3 } });
    assert.equal(scaled.metadata.generation, 2);
  });

  test('the scale subresource speaks autoscaling/v1 Scale', async () => {
    const { client } = await setup();
    await client.create(refs.deployments, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const scale = await client.get(refs.deployments, 'default', 'web', { subresource: 'scale' });
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.deepEqual(scale.spec, { replicas: 2 });
    assert.equal((scale.status as { selector: string }).selector, 'app=web');
    const patched = await client.patch(refs.deployments, 'default', 'web', 'merge', { spec: { replicas: 4 } }, { subresource: 'scale' });
    assert.deepEqual(patched.spec, { replicas: 4 });
    const deploy = await client.get(refs.deployments, 'default', 'web');
    assert.equal((deploy.spec as { replicas: number }).replicas, 4);
  });
});

describe('list', () => {
  test('pages with limit and continue at one resourceVersion, with remainingItemCount', async () => {
    const { client } = await setup();
    for (const name of ['a', 'b', 'c', 'd', 'e']) await client.create(refs.configMaps, configMap(name));
    const first = await client.list(refs.configMaps, { namespace: 'default', limit: 2 });
    assert.deepEqual(first.items.map((i) => i.metadata.name), ['a', 'b']);
    assert.equal(first.metadata.remainingItemCount, 3);
    await client.create(refs.configMaps, configMap('bb'));
    const second = await client.list(refs.configMaps, { namespace: 'default', limit: 2, continue: first.metadata.continue ?? '' });
    assert.deepEqual(second.items.map((i) => i.metadata.name), ['c', 'd'], 'later pages read at the first page revision');
    const third = await client.list(refs.configMaps, { namespace: 'default', limit: 2, continue: second.metadata.continue ?? '' });
    assert.deepEqual(third.items.map((i) => i.metadata.name), ['e']);
    assert.equal(third.metadata.continue, undefined);
    // The token is read first, then any resourceVersion beside it is refused unread (storage.ValidateListOptions).
    const withVersion = await rejection(client.list(refs.configMaps, { namespace: 'default', limit: 2, continue: first.metadata.continue ?? '', resourceVersion: 'abc' }));
    assert.equal(withVersion.message, 'specifying resource version is not allowed when using continue');
    const badToken = await rejection(client.list(refs.configMaps, { namespace: 'default', limit: 2, continue: 'abc', resourceVersion: 'abc' }));
    assert.match(badToken.message, /^invalid continue token: /);
  });

  test('a continue token past the history is 410 with a token that goes on from the same key at the latest revision', async () => {
    const { client, server } = await setup({ historyLimit: 3 });
    for (const name of ['a', 'b', 'c', 'd']) await client.create(refs.configMaps, configMap(name));
    const first = await client.list(refs.configMaps, { namespace: 'default', limit: 2 });
    for (const name of ['e', 'f', 'g', 'h']) await client.create(refs.configMaps, configMap(name));
    const gone = await rejection(server.list(refs.configMaps, 'default', { limit: 2, continue: first.metadata.continue ?? '' }));
    assert.equal(gone.code, 410);
    const token = gone.toStatus().metadata.continue;
    assert.ok(token);
    const rest = await client.list(refs.configMaps, { namespace: 'default', limit: 10, continue: token });
    assert.deepEqual(rest.items.map((i) => i.metadata.name), ['c', 'd', 'e', 'f', 'g', 'h']);
  });

  test('ListOptions that do not go together are a 422 for ListOptions.meta.k8s.io, for a list and for a watch', async () => {
    const { client, server } = await setup();
    const list = await rejection(server.list(refs.configMaps, 'default', { resourceVersionMatch: 'Foo' }));
    assert.equal(list.code, 422);
    assert.equal(list.message, 'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "Foo": supported values: "Exact", "NotOlderThan", ""]');
    const exactZero = await rejection(server.list(refs.configMaps, 'default', { resourceVersion: '0', resourceVersionMatch: 'Exact' }));
    assert.equal(exactZero.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
    const streamingList = await rejection(server.list(refs.configMaps, 'default', { sendInitialEvents: true }));
    assert.equal(streamingList.message, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
    const closed: string[] = [];
    await assert.rejects(server.watch(refs.configMaps, 'default', { sendInitialEvents: true }, { send: () => undefined, close: () => closed.push('closed') }), (error: unknown) => {
      assert.ok(error instanceof ApiError && error.code === 422);
      assert.equal(error.message, 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
      return true;
    });
    await assert.rejects(server.watch(refs.configMaps, 'default', { resourceVersionMatch: 'NotOlderThan' }, { send: () => undefined, close: () => closed.push('closed') }), /resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided/);
    assert.deepEqual(closed, [], 'a refused watch never started');
    // The same options on a list are fine.
    assert.equal((await client.list(refs.configMaps, { namespace: 'default', resourceVersion: '1', resourceVersionMatch: 'NotOlderThan' })).kind, 'ConfigMapList');
  });

  test('label and field selectors; an unknown field label is a BadRequest', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('a', {}, { app: 'web', tier: 'fe' }));
    await client.create(refs.configMaps, configMap('b', {}, { app: 'db' }));
    const byLabel = await client.list(refs.configMaps, { namespace: 'default', labelSelector: 'app in (web),tier' });
    assert.deepEqual(byLabel.items.map((i) => i.metadata.name), ['a']);
    const notEq = await client.list(refs.configMaps, { namespace: 'default', fieldSelector: 'metadata.name!=a' });
    assert.deepEqual(notEq.items.map((i) => i.metadata.name), ['b']);
    const bad = await rejection(client.list(refs.configMaps, { namespace: 'default', fieldSelector: 'spec.foo=x' }));
    assert.equal(bad.code, 400);
    assert.equal(bad.message, 'field label not supported: spec.foo');
  });
});

describe('reads at a resourceVersion', () => {
  test('a paged list naming a revision without a match reads exactly there, as Exact does; without limit it reads the latest', async () => {
    const { client } = await setup();
    const a = await client.create(refs.configMaps, configMap('a'));
    await client.create(refs.configMaps, configMap('b'));
    const rv = a.metadata.resourceVersion ?? '';
    const legacy = await client.list(refs.configMaps, { namespace: 'default', limit: 10, resourceVersion: rv });
    assert.deepEqual(legacy.items.map((i) => i.metadata.name), ['a']);
    assert.equal(legacy.metadata.resourceVersion, rv);
    const exact = await client.list(refs.configMaps, { namespace: 'default', resourceVersion: rv, resourceVersionMatch: 'Exact' });
    assert.deepEqual(exact.items.map((i) => i.metadata.name), ['a']);
    const notOlder = await client.list(refs.configMaps, { namespace: 'default', resourceVersion: rv });
    assert.deepEqual(notOlder.items.map((i) => i.metadata.name), ['a', 'b']);
  });

  test('an Exact revision not reached yet is too large at once, as the etcd store answers its future-revision error', async () => {
    const { client, store } = await setup();
    const future = store.revision() + 5;
    for (const options of [{ resourceVersionMatch: 'Exact' as const }, { limit: 5 }]) {
      const error = await rejection(client.list(refs.configMaps, { namespace: 'default', resourceVersion: String(future), ...options }));
      assert.equal(error.code, 504);
      assert.deepEqual(error.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] });
      assert.equal(error.message, `Timeout: Too large resource version: ${future}, current: ${store.revision()}`);
    }
  });

  test('a list or get not older than a revision not reached waits for it, and after 3 s is 504 Too large resource version', async () => {
    const { client, clock, store, server } = await setup();
    await client.create(refs.configMaps, configMap('a'));
    const current = store.revision();
    const waiting = client.list(refs.configMaps, { namespace: 'default', resourceVersion: String(current + 1) });
    await settle();
    await client.create(refs.configMaps, configMap('b'));
    assert.deepEqual((await waiting).items.map((i) => i.metadata.name), ['a', 'b'], 'the write that reached the revision answered it');

    const tooLarge = String(store.revision() + 100);
    const list = rejection(client.list(refs.configMaps, { namespace: 'default', resourceVersion: tooLarge, resourceVersionMatch: 'NotOlderThan' }));
    const get = rejection(server.get(refs.configMaps, 'default', 'a', '', tooLarge));
    await settle();
    await clock.advance(2_999);
    await clock.advance(1);
    for (const error of [await list, await get]) {
      assert.equal(error.code, 504);
      assert.deepEqual(error.toStatus(), {
        kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Timeout', code: 504,
        message: `Timeout: Too large resource version: ${tooLarge}, current: ${store.revision()}`,
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      });
    }
  });

  test('a watch-list not older than a revision not reached waits for it; past 3 s its one event is the 504', async () => {
    const { client, clock, store } = await setup();
    await client.create(refs.configMaps, configMap('a'));
    const reached = collect(client, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: String(store.revision() + 1) });
    const never = collect(client, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: String(store.revision() + 100) });
    await settle();
    assert.equal(reached.events.length, 0, 'nothing is sent while it waits');
    await client.create(refs.configMaps, configMap('b'));
    await settle();
    assert.deepEqual(reached.events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`), ['ADDED a', 'ADDED b', 'BOOKMARK ']);
    await clock.advance(3_000);
    await settle();
    assert.equal(never.events.length, 1);
    assert.equal(never.events[0]?.type, 'ERROR');
    assert.equal((never.events[0]?.object as unknown as { code: number }).code, 504);
    assert.equal(never.isClosed(), true);
    reached.watch.stop();
  });

  test('a get at a revision reached, or at "0", reads the latest; a resourceVersion that is no number is refused in the versioner\'s words', async () => {
    const { client, server } = await setup();
    const a = await client.create(refs.configMaps, configMap('a'));
    await client.patch(refs.configMaps, 'default', 'a', 'merge', { data: { k: 'v' } });
    for (const rv of ['0', a.metadata.resourceVersion ?? '']) {
      const result = await server.get(refs.configMaps, 'default', 'a', '', rv);
      assert.equal(result.kind === 'stored' ? JSON.parse(result.kv.value).data.k : undefined, 'v');
    }
    const bad = await rejection(server.get(refs.configMaps, 'default', 'a', '', 'abc'));
    assert.equal(bad.code, 500);
    assert.equal(bad.message, 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax');
    // A list words it as ValidateListOptions does, a 400.
    const list = await rejection(client.list(refs.configMaps, { namespace: 'default', resourceVersion: '-1' }));
    assert.deepEqual([list.code, list.message], [400, 'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax']);
  });
});

function collect(client: ReturnType<typeof createLocalClient>, options: Parameters<ReturnType<typeof createLocalClient>['watch']>[1]) {
  const events: ClientWatchEvent[] = [];
  let closed = false;
  const watch = client.watch(refs.configMaps, { namespace: 'default', ...options }, (e) => events.push(e), () => (closed = true));
  return { events, watch, isClosed: () => closed };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('watch', () => {
  test('from a resourceVersion replays history in order, then streams live events', async () => {
    const { client } = await setup();
    const a = await client.create(refs.configMaps, configMap('a'));
    await client.patch(refs.configMaps, 'default', 'a', 'merge', { data: { x: '1' } });
    const w = collect(client, { resourceVersion: a.metadata.resourceVersion ?? '' });
    await settle();
    await client.delete(refs.configMaps, 'default', 'a');
    await settle();
    assert.deepEqual(w.events.map((e) => e.type), ['MODIFIED', 'DELETED']);
    w.watch.stop();
  });

  test('without a resourceVersion it starts with ADDED for every object; sendInitialEvents ends with the bookmark', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('a'));
    await client.create(refs.configMaps, configMap('b'));
    const plain = collect(client, {});
    const streaming = collect(client, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    await settle();
    assert.deepEqual(plain.events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`), ['ADDED a', 'ADDED b']);
    const last = streaming.events.at(-1);
    assert.equal(last?.type, 'BOOKMARK');
    assert.equal(last?.object.metadata.annotations?.['k8s.io/initial-events-end'], 'true');
    plain.watch.stop();
    streaming.watch.stop();
  });

  test('timeoutSeconds ends the watch, with a bookmark 2 s before when asked; a negative one ends it at once, a short one has no bookmark', async () => {
    const { client, clock } = await setup();
    await client.create(refs.configMaps, configMap('a'));
    const rv = (await client.list(refs.configMaps, { namespace: 'default' })).metadata.resourceVersion ?? '';
    const timed = collect(client, { resourceVersion: rv, timeoutSeconds: 5, allowWatchBookmarks: true });
    const short = collect(client, { resourceVersion: rv, timeoutSeconds: 1, allowWatchBookmarks: true });
    const past = collect(client, { resourceVersion: rv, timeoutSeconds: -1, allowWatchBookmarks: true });
    await settle();
    await clock.advance(0);
    await settle();
    assert.deepEqual([past.isClosed(), past.events.length], [true, 0]);
    await clock.advance(1_000);
    await settle();
    assert.deepEqual([short.isClosed(), short.events.length], [true, 0]);
    await clock.advance(1_900);
    assert.equal(timed.events.length, 0);
    await clock.advance(100);
    await settle();
    assert.deepEqual(timed.events.map((e) => e.type), ['BOOKMARK']);
    assert.equal(timed.isClosed(), false);
    await clock.advance(2_000);
    await settle();
    assert.equal(timed.isClosed(), true);
  });

  test('selection turns label changes into ADDED and DELETED', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('a', {}, { app: 'x' }));
    const w = collect(client, { labelSelector: 'app=web' });
    await settle();
    await client.patch(refs.configMaps, 'default', 'a', 'merge', { metadata: { labels: { app: 'web' } } });
    await client.patch(refs.configMaps, 'default', 'a', 'merge', { data: { k: 'v' } });
    await client.patch(refs.configMaps, 'default', 'a', 'merge', { metadata: { labels: { app: 'other' } } });
    await settle();
    assert.deepEqual(w.events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
    w.watch.stop();
  });

  test('a compacted resourceVersion gets an ERROR event with 410 Expired, then the watch closes', async () => {
    const { client } = await setup({ historyLimit: 3 });
    const a = await client.create(refs.configMaps, configMap('a'));
    for (let i = 0; i < 6; i++) await client.patch(refs.configMaps, 'default', 'a', 'merge', { data: { i: String(i) } });
    const w = collect(client, { resourceVersion: a.metadata.resourceVersion ?? '' });
    await settle();
    await settle();
    assert.equal(w.events.length, 1);
    assert.equal(w.events[0]?.type, 'ERROR');
    const status = w.events[0]?.object as unknown as { code: number; reason: string; message: string };
    assert.equal(status.code, 410);
    assert.equal(status.reason, 'Expired');
    assert.match(status.message, /^too old resource version: \d+ \(\d+\)$/);
    assert.equal(w.isClosed(), true);
  });
});

describe('delete', () => {
  test('finalizers keep the object with a deletionTimestamp until the last one is removed', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, { ...configMap('f'), metadata: { name: 'f', namespace: 'default', finalizers: ['example.com/hold'] } });
    const pending = await client.delete(refs.configMaps, 'default', 'f');
    assert.ok(pending.kind !== 'Status' && (pending as KubeObject).metadata.deletionTimestamp);
    const current = await client.get(refs.configMaps, 'default', 'f');
    const added = await rejection(client.update(refs.configMaps, { ...current, metadata: { ...current.metadata, finalizers: ['example.com/hold', 'example.com/new'] } }));
    assert.equal(added.code, 422);
    await client.patch(refs.configMaps, 'default', 'f', 'merge', { metadata: { finalizers: null } });
    await assert.rejects(client.get(refs.configMaps, 'default', 'f'), /not found/);
  });

  test('foreground and orphan propagation add their finalizers', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('fg'));
    await client.delete(refs.configMaps, 'default', 'fg', { propagationPolicy: 'Foreground' });
    assert.deepEqual((await client.get(refs.configMaps, 'default', 'fg')).metadata.finalizers, ['foregroundDeletion']);
    await client.create(refs.configMaps, configMap('or'));
    await client.delete(refs.configMaps, 'default', 'or', { propagationPolicy: 'Orphan' });
    assert.deepEqual((await client.get(refs.configMaps, 'default', 'or')).metadata.finalizers, ['orphan']);
  });

  test('a bound pod is deleted gracefully with its grace period; an unbound one at once', async () => {
    const { client, clock } = await setup();
    await client.create(refs.pods, pod('bound', { nodeName: 'n1', terminationGracePeriodSeconds: 20 }));
    const marked = (await client.delete(refs.pods, 'default', 'bound')) as KubeObject;
    assert.ok(marked.kind !== 'Status');
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 20);
    assert.equal(Date.parse(marked.metadata.deletionTimestamp ?? ''), clock.now() + 20_000 - (clock.now() % 1000));
    await client.delete(refs.pods, 'default', 'bound', { gracePeriodSeconds: 0 });
    await assert.rejects(client.get(refs.pods, 'default', 'bound'), /not found/);
    await client.create(refs.pods, pod('free'));
    await client.delete(refs.pods, 'default', 'free');
    await assert.rejects(client.get(refs.pods, 'default', 'free'), /not found/);
  });

  test('a uid precondition that does not match is a Conflict', async () => {
    const { client } = await setup();
    await client.create(refs.configMaps, configMap('p'));
    const error = await rejection(client.delete(refs.configMaps, 'default', 'p', { preconditions: { uid: 'other' } }));
    assert.equal(error.code, 409);
    assert.match(error.message, /^Precondition failed: UID in precondition: other, UID in object meta: /);
  });

  test('the system namespaces cannot be deleted', async () => {
    const { client } = await setup();
    const error = await rejection(client.delete(refs.namespaces, undefined, 'default'));
    assert.equal(error.code, 403);
  });
});

describe('binding', () => {
  test('binds once, sets PodScheduled, and refuses a second binding', async () => {
    const { client } = await setup();
    await client.create(refs.pods, pod('web'));
    await client.create(refs.pods, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web' }, target: { kind: 'Node', name: 'n1' } }, { namespace: 'default', name: 'web', subresource: 'binding' });
    const bound = await client.get(refs.pods, 'default', 'web');
    assert.equal((bound.spec as { nodeName: string }).nodeName, 'n1');
    const conditions = (bound.status as { conditions: { type: string; status: string }[] }).conditions;
    assert.deepEqual(conditions.find((c) => c.type === 'PodScheduled')?.status, 'True');
    const again = await rejection(client.create(refs.pods, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web' }, target: { kind: 'Node', name: 'n2' } }, { namespace: 'default', name: 'web', subresource: 'binding' }));
    assert.equal(again.code, 409);
    assert.equal(again.message, 'Operation cannot be fulfilled on pods/binding "web": pod web is already assigned to node "n1"');
  });

  test('a pod with scheduling gates cannot be bound; a bound pod loses its nomination', async () => {
    const { client } = await setup();
    const binding = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: 'n1' } }) as KubeObject;
    await client.create(refs.pods, pod('gated', { schedulingGates: [{ name: 'example.com/quota' }] }));
    const gated = await rejection(client.create(refs.pods, binding('gated'), { namespace: 'default', name: 'gated', subresource: 'binding' }));
    assert.deepEqual([gated.code, gated.message], [409, 'Operation cannot be fulfilled on pods/binding "gated": pod gated has non-empty .spec.schedulingGates']);
    assert.equal((await client.get<Pod>(refs.pods, 'default', 'gated')).spec.nodeName, undefined);
    const nominated = await client.create<Pod>(refs.pods, pod('preemptor'));
    await client.updateStatus<Pod>(refs.pods, { ...nominated, status: { ...nominated.status, nominatedNodeName: 'n1' } });
    await client.create(refs.pods, binding('preemptor'), { namespace: 'default', name: 'preemptor', subresource: 'binding' });
    const bound = await client.get<Pod>(refs.pods, 'default', 'preemptor');
    assert.deepEqual([bound.spec.nodeName, bound.status?.nominatedNodeName], ['n1', undefined]);
  });

  test('a Binding or Eviction whose name is not the URL\'s is refused, and the pod stays as it was', async () => {
    const { client } = await setup();
    await client.create(refs.pods, pod('web'));
    for (const [subresource, body, message] of [
      ['binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'other' }, target: { kind: 'Node', name: 'n1' } }, 'name in URL does not match name in Binding object'],
      ['eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: {} }, 'name in URL does not match name in Eviction object'],
    ] as const) {
      const refused = await rejection(client.create(refs.pods, body as KubeObject, { namespace: 'default', name: 'web', subresource }));
      assert.deepEqual([refused.code, refused.message], [400, message]);
    }
    const web = await client.get(refs.pods, 'default', 'web');
    assert.equal((web.spec as { nodeName?: string }).nodeName, undefined);
    assert.equal(web.metadata.deletionTimestamp, undefined);
  });
});

describe('eviction', () => {
  test('a budget its controller has not yet processed refuses with 429 and a 10 s retry, naming the budget', async () => {
    const { client } = await setup();
    const running = await client.create(refs.pods, { ...pod('web'), metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } } });
    await client.updateStatus(refs.pods, { ...running, status: { ...(running.status as object), phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
    await client.create(refs.podDisruptionBudgets, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 0, selector: { matchLabels: { app: 'web' } } } } as KubeObject);
    const refused = await rejection(client.create(refs.pods, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web' } } as KubeObject, { namespace: 'default', name: 'web', subresource: 'eviction' }));
    assert.deepEqual([refused.code, refused.message, refused.details], [429, "Cannot evict pod as it would violate the pod's disruption budget.", { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }], retryAfterSeconds: 10 }]);
  });
});

describe('events.k8s.io/v1', () => {
  test('serves the same objects as core/v1 Events, converted both ways', async () => {
    const { client } = await setup();
    await client.create(refs.events, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'web.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' },
      reason: 'Scheduled',
      message: 'Successfully assigned default/web to cpu-0',
      type: 'Normal',
      source: { component: 'default-scheduler' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:00Z',
      count: 1,
    });
    const viewed = await client.get(refs.eventsV1, 'default', 'web.1');
    assert.equal(viewed.apiVersion, 'events.k8s.io/v1');
    assert.equal((viewed as unknown as { note: string }).note, 'Successfully assigned default/web to cpu-0');
    assert.deepEqual((viewed as unknown as { regarding: { name: string } }).regarding.name, 'web');
    const list = await client.list(refs.eventsV1, { namespace: 'default', fieldSelector: 'reason=Scheduled' });
    assert.deepEqual(list.items.map((e) => e.metadata.name), ['web.1']);
    await client.create(refs.eventsV1, {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'web.2', namespace: 'default' },
      eventTime: '2026-01-01T00:00:01.000000Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      action: 'Started',
      reason: 'Started',
      regarding: { kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' },
      note: 'started',
      type: 'Normal',
    });
    const core = await client.get(refs.events, 'default', 'web.2');
    assert.equal(core.apiVersion, 'v1');
    assert.equal((core as unknown as { message: string }).message, 'started');
    assert.equal((core as unknown as { involvedObject: { name: string } }).involvedObject.name, 'web');
  });
});
