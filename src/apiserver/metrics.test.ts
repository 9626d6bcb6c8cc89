import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryStore } from '../storage/index.ts';
import { ApiMetrics, instrumentStore } from './metrics.ts';

test('requests and storage calls are counted under their kube-apiserver labels', async () => {
  const store = new MemoryStore();
  const metrics = new ApiMetrics({ resources: () => [{ group: '', resource: 'pods' }], store });
  const timed = instrumentStore(store, metrics);
  await timed.create('/registry/core/pods/default/a', '{}');
  await timed.create('/registry/apps/deployments/default/d', '{}');
  await timed.get('/registry/core/pods/default/a');
  await assert.rejects(timed.create('/registry/core/pods/default/a', '{}'));
  const http = createServer(metrics.instrument((req, res) => {
    res.writeHead(req.url?.includes('missing') ? 404 : 200);
    res.end();
  }));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as AddressInfo).port;
  for (const path of ['/api/v1/namespaces/default/pods/a', '/api/v1/namespaces/default/pods/a', '/api/v1/namespaces/default/pods/missing', '/apis/apps/v1/deployments']) {
    await fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.arrayBuffer());
  }
  await new Promise<void>((r) => http.close(() => r()));
  const text = await metrics.registry.metrics();
  const line = (prefix: string): string | undefined => text.split('\n').find((l) => l.startsWith(prefix));
  assert.equal(line('etcd_request_duration_seconds_count{operation="create",type="pods"}'), 'etcd_request_duration_seconds_count{operation="create",type="pods"} 2', 'a failed create is timed too');
  assert.equal(line('etcd_request_duration_seconds_count{operation="create",type="deployments.apps"}'), 'etcd_request_duration_seconds_count{operation="create",type="deployments.apps"} 1');
  assert.equal(line('etcd_request_duration_seconds_count{operation="get",type="pods"}'), 'etcd_request_duration_seconds_count{operation="get",type="pods"} 1');
  const get = 'apiserver_request_total{verb="GET",dry_run="",group="",version="v1",resource="pods",subresource="",scope="resource",component="apiserver"';
  assert.equal(line(`${get},code="200"}`), `${get},code="200"} 2`);
  assert.equal(line(`${get},code="404"}`), `${get},code="404"} 1`);
  assert.ok(line('apiserver_request_total{verb="LIST",dry_run="",group="apps",version="v1",resource="deployments",subresource="",scope="cluster",component="apiserver",code="200"} 1'));
  assert.ok(line('apiserver_request_duration_seconds_count{verb="GET",dry_run="",group="",version="v1",resource="pods",subresource="",scope="resource",component="apiserver"} 3'));
});
