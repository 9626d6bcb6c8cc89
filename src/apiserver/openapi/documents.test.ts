import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../../api/index.ts';
import { buildOpenApi } from './documents.ts';
import { toSwagger2 } from './swagger2.ts';
import { nodeProxyConnect, podExecConnect, podProxyConnect, proxyVerbs } from '../../api/index.ts';
import type { OpenApiSchema } from './schema.ts';

// The registry fills up as kinds land, so the documents are built from definitions shaped like theirs.
const def = (group: string, kind: string, resource: string, extra: Partial<ResourceDefinition> = {}): ResourceDefinition => ({
  group, version: 'v1', kind, resource, singular: kind.toLowerCase(), namespaced: true, hasStatus: true, ...extra,
});
const scale = { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] } as const;
const status = { name: 'status', verbs: ['get', 'patch', 'update'] } as const;
const docs = buildOpenApi([
  def('', 'Pod', 'pods', {
    subresources: [
      status,
      { name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'], connect: podExecConnect },
      { name: 'proxy', kind: 'PodProxyOptions', verbs: proxyVerbs, connect: podProxyConnect },
    ],
  }),
  def('', 'Node', 'nodes', { namespaced: false, subresources: [{ name: 'proxy', kind: 'NodeProxyOptions', verbs: proxyVerbs, connect: nodeProxyConnect }, status] }),
  def('apps', 'Deployment', 'deployments', { subresources: [status, scale] }),
  def('resource.k8s.io', 'DeviceClass', 'deviceclasses', { namespaced: false, hasStatus: false }),
  def('resource.k8s.io', 'ResourceSlice', 'resourceslices', { namespaced: false, hasStatus: false }),
]);
interface Doc {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: { name: string }[]; 'x-kubernetes-action'?: string; 'x-kubernetes-group-version-kind'?: unknown }>>;
  components: { schemas: Record<string, OpenApiSchema> };
}
const coreV1 = JSON.parse(docs.groupVersion('api/v1')!.body.toString()) as Doc;

test('the pod PATCH operation carries fieldValidation and the Pod GVK, as kubectl --validate=strict requires', () => {
  const patch = coreV1.paths['/api/v1/namespaces/{namespace}/pods/{name}']?.['patch'];
  assert.ok(patch);
  assert.equal(patch['x-kubernetes-action'], 'patch');
  assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: '', version: 'v1', kind: 'Pod' });
  assert.deepEqual(patch.parameters?.map((p) => p.name), ['dryRun', 'fieldManager', 'fieldValidation', 'force']);
});

test('status and subresource paths speak their own kinds', () => {
  assert.ok(coreV1.paths['/api/v1/namespaces/{namespace}/pods/{name}/status']?.['patch']);
  const eviction = coreV1.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction']?.['post'];
  assert.deepEqual(eviction?.['x-kubernetes-group-version-kind'], { group: 'policy', version: 'v1', kind: 'Eviction' });
  const apps = JSON.parse(docs.groupVersion('apis/apps/v1')!.body.toString()) as Doc;
  const scale = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']?.['patch'];
  assert.deepEqual(scale?.['x-kubernetes-group-version-kind'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
  assert.ok(apps.components.schemas['io.k8s.api.autoscaling.v1.Scale']);
});

test('connect subresources are connect operations with their options as query parameters, as upstream publishes them', () => {
  // api/openapi-spec/v3/api__v1_openapi.json: one operation per connect method, no body, a string answer.
  const proxy = coreV1.paths['/api/v1/nodes/{name}/proxy/{path}'];
  assert.deepEqual(Object.keys(proxy ?? {}).sort(), ['delete', 'get', 'head', 'options', 'parameters', 'patch', 'post', 'put']);
  assert.deepEqual(proxy?.['get'], {
    description: 'connect GET requests to proxy of Node',
    operationId: 'connectCoreV1GetNodeProxyWithPath',
    tags: ['core_v1'],
    responses: { '200': { description: 'OK', content: { '*/*': { schema: { type: 'string' } } } }, '401': { description: 'Unauthorized' } },
    'x-kubernetes-action': 'connect',
    'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: 'NodeProxyOptions' },
  });
  assert.deepEqual(proxy?.['parameters'], [
    { name: 'name', in: 'path', description: 'name of the NodeProxyOptions', required: true, schema: { type: 'string', uniqueItems: true } },
    { name: 'path', in: 'path', description: 'path to the resource', required: true, schema: { type: 'string', uniqueItems: true } },
    { name: 'path', in: 'query', description: 'Path is the URL path to use for the current proxy request to node.', schema: { type: 'string', uniqueItems: true } },
  ]);
  const exec = coreV1.paths['/api/v1/namespaces/{namespace}/pods/{name}/exec'];
  assert.deepEqual(Object.keys(exec ?? {}).sort(), ['get', 'parameters', 'post']);
  assert.equal((exec?.['post'] as { operationId?: string } | undefined)?.operationId, 'connectCoreV1PostNamespacedPodExec');
  assert.deepEqual((exec?.['parameters'] as unknown as { name: string }[]).map((p) => p.name), ['command', 'container', 'name', 'namespace', 'stderr', 'stdin', 'stdout', 'tty']);
  assert.ok(coreV1.paths['/api/v1/namespaces/{namespace}/pods/{name}/proxy']?.['head']);
  // Swagger 2.0 says the same with */* both ways, as upstream's swagger.json.
  const v2 = toSwagger2(coreV1 as never) as { paths: Record<string, Record<string, { consumes?: string[]; produces?: string[] }>> };
  const get = v2.paths['/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}']?.['get'];
  assert.deepEqual([get?.consumes, get?.produces], [['*/*'], ['*/*']]);
});

test('the Pod schema has its 1.35 fields with upstream extensions', () => {
  const s = coreV1.components.schemas;
  assert.deepEqual(s['io.k8s.api.core.v1.Pod']?.['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Pod', version: 'v1' }]);
  const container = s['io.k8s.api.core.v1.Container']?.properties ?? {};
  assert.equal(container['resizePolicy']?.['x-kubernetes-list-type'], 'atomic');
  assert.ok(container['restartPolicy']);
  assert.deepEqual(s['io.k8s.api.core.v1.PodSpec']?.properties?.['resourceClaims']?.['x-kubernetes-list-map-keys'], ['name']);
  assert.ok(s['io.k8s.api.core.v1.PodSpec']?.properties?.['workloadRef']);
  assert.ok(s['io.k8s.api.core.v1.ResourceRequirements']?.properties?.['claims']);
  assert.ok(s['io.k8s.api.core.v1.PodStatus']?.properties?.['resize']);
  assert.ok(s['io.k8s.api.core.v1.ContainerStatus']?.properties?.['allocatedResources']);
  assert.deepEqual(s['io.k8s.api.core.v1.PodSpec']?.properties?.['containers'], {
    type: 'array',
    items: { allOf: [{ $ref: '#/components/schemas/io.k8s.api.core.v1.Container' }], default: {} },
    description: 'List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    'x-kubernetes-patch-merge-key': 'name',
    'x-kubernetes-patch-strategy': 'merge',
  });
});

test('a group-version document holds only what its kinds reach', () => {
  const names = Object.keys(coreV1.components.schemas);
  assert.ok(names.includes('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'));
  assert.ok(!names.some((n) => n.startsWith('io.k8s.api.apps.')));
  const resource = JSON.parse(docs.groupVersion('apis/resource.k8s.io/v1')!.body.toString()) as Doc;
  assert.ok(resource.components.schemas['io.k8s.api.resource.v1.DeviceClass']);
  assert.ok(resource.components.schemas['io.k8s.api.core.v1.NodeSelector']);
});

test('the root lists every group-version with the sha512 of its document', () => {
  const root = docs.root();
  const body = docs.groupVersion('apis/apps/v1')!.body;
  const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
  assert.equal(root.paths['apis/apps/v1']?.serverRelativeURL, `/openapi/v3/apis/apps/v1?hash=${hash}`);
  assert.equal(docs.groupVersion('apis/apps/v1')!.etag, `"${hash}"`);
  assert.ok(root.paths['api/v1'] && root.paths['apis/resource.k8s.io/v1']);
  assert.equal(docs.groupVersion('apis/nope/v1'), undefined);
});

test('v2 renders definitions with #/definitions references', () => {
  const v2 = JSON.parse(docs.v2().toString()) as { swagger: string; definitions: Record<string, { properties?: Record<string, { $ref?: string }> }> };
  assert.equal(v2.swagger, '2.0');
  assert.equal(v2.definitions['io.k8s.api.core.v1.Pod']?.properties?.['spec']?.$ref, '#/definitions/io.k8s.api.core.v1.PodSpec');
});

test('a property that refers to another type is served with its description: allOf and default {} in v3, $ref beside it in v2', () => {
  const metadata = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
  // Upstream: api/openapi-spec/v3/api__v1_openapi.json and api/openapi-spec/swagger.json, io.k8s.api.core.v1.Pod.
  assert.equal(
    JSON.stringify(coreV1.components.schemas['io.k8s.api.core.v1.Pod']?.properties?.['metadata']),
    JSON.stringify({ allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {}, description: metadata }),
  );
  const v2 = JSON.parse(docs.v2().toString()) as { definitions: Record<string, { properties?: Record<string, unknown> }> };
  assert.equal(JSON.stringify(v2.definitions['io.k8s.api.core.v1.Pod']?.properties?.['metadata']), JSON.stringify({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', description: metadata }));
  assert.equal(
    JSON.stringify(v2.definitions['io.k8s.api.core.v1.PodSpec']?.properties?.['affinity']),
    JSON.stringify({ $ref: '#/definitions/io.k8s.api.core.v1.Affinity', description: "If specified, the pod's scheduling constraints" }),
  );
});
