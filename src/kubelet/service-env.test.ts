import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod, Service, ServicePort } from '../api/index.ts';
import { containerEnvironment } from './container-env.ts';
import { serviceEnvironment, ServiceEnvironments } from './service-env.ts';

const service = (namespace: string, name: string, clusterIP: string, ports: ServicePort[]): Service =>
  ({ apiVersion: 'v1', kind: 'Service', metadata: { namespace, name }, spec: { clusterIP, ports } }) as Service;

const services = [
  service('default', 'kubernetes', '10.96.0.1', [{ name: 'https', port: 443, protocol: 'TCP' }]),
  service('ml', 'vllm-api', '10.96.12.7', [{ name: 'http', port: 8000 }, { name: 'metrics', port: 9090, protocol: 'TCP' }]),
  service('ml', 'vllm-headless', 'None', [{ port: 8000 }]),
  service('other', 'db', '10.96.3.3', [{ port: 5432 }]),
];

test('every pod sees the kubernetes Service; its own namespace\'s with service links, as Docker links name them', () => {
  const env = serviceEnvironment(services, 'ml', true);
  assert.deepEqual(env, {
    KUBERNETES_SERVICE_HOST: '10.96.0.1',
    KUBERNETES_SERVICE_PORT: '443',
    KUBERNETES_SERVICE_PORT_HTTPS: '443',
    KUBERNETES_PORT: 'tcp://10.96.0.1:443',
    KUBERNETES_PORT_443_TCP: 'tcp://10.96.0.1:443',
    KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
    KUBERNETES_PORT_443_TCP_PORT: '443',
    KUBERNETES_PORT_443_TCP_ADDR: '10.96.0.1',
    VLLM_API_SERVICE_HOST: '10.96.12.7',
    VLLM_API_SERVICE_PORT: '8000',
    VLLM_API_SERVICE_PORT_HTTP: '8000',
    VLLM_API_SERVICE_PORT_METRICS: '9090',
    VLLM_API_PORT: 'tcp://10.96.12.7:8000',
    VLLM_API_PORT_8000_TCP: 'tcp://10.96.12.7:8000',
    VLLM_API_PORT_8000_TCP_PROTO: 'tcp',
    VLLM_API_PORT_8000_TCP_PORT: '8000',
    VLLM_API_PORT_8000_TCP_ADDR: '10.96.12.7',
    VLLM_API_PORT_9090_TCP: 'tcp://10.96.12.7:9090',
    VLLM_API_PORT_9090_TCP_PROTO: 'tcp',
    VLLM_API_PORT_9090_TCP_PORT: '9090',
    VLLM_API_PORT_9090_TCP_ADDR: '10.96.12.7',
  });
  assert.deepEqual(Object.keys(serviceEnvironment(services, 'ml', false)).filter((k) => !k.startsWith('KUBERNETES_')), []);
});

test('container env may refer to a Service variable and overrides one it sets itself', () => {
  const pod = { metadata: { name: 'client', namespace: 'ml' }, spec: { containers: [] } } as unknown as Pod;
  const container = { name: 'c', env: [{ name: 'API', value: 'http://$(VLLM_API_SERVICE_HOST):$(VLLM_API_SERVICE_PORT)/v1' }, { name: 'KUBERNETES_SERVICE_PORT', value: '6443' }] };
  const none = { getByName: () => undefined };
  let version = '1';
  const source = { list: () => services, get resourceVersion() { return version; } };
  const sources = { configMaps: none, secrets: none, serviceEnv: new ServiceEnvironments(source) };
  const made = containerEnvironment(pod, container, sources, { podIP: '', hostIP: '' });
  assert.ok(made.ok);
  assert.equal(made.env.API, 'http://10.96.12.7:8000/v1');
  assert.equal(made.env.KUBERNETES_SERVICE_PORT, '6443');
  assert.equal(made.env.KUBERNETES_SERVICE_HOST, '10.96.0.1');
  assert.deepEqual(Object.keys(made.env).slice(0, 2), ['API', 'KUBERNETES_SERVICE_PORT']);
  // A container with no variables of its own gets the namespace's shared object, made again when the Services change.
  const plain = { name: 'p' };
  const first = containerEnvironment(pod, plain, sources, { podIP: '', hostIP: '' });
  const second = containerEnvironment(pod, plain, sources, { podIP: '', hostIP: '' });
  assert.ok(first.ok && second.ok && first.env === second.env && Object.isFrozen(first.env));
  services.pop();
  version = '2';
  const third = containerEnvironment(pod, plain, sources, { podIP: '', hostIP: '' });
  assert.ok(third.ok && third.env !== (first.ok ? first.env : undefined));
});
