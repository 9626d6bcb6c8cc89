// The environment the kubelet makes for a container: envFrom then env, $(VAR) references, secrets
// decoded, and upstream's words for a missing config map, secret or key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, Pod } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { containerEnvironment, expandCommandAndArgs } from './container-env.ts';
import type { EnvSources } from './container-env.ts';

const objects = (items: Record<string, Record<string, string>>) => ({
  getByName: (_namespace: string | undefined, name: string): (KubeObject & { data?: Record<string, string> }) | undefined =>
    items[name] ? { apiVersion: 'v1', kind: 'X', metadata: { name }, data: items[name] } : undefined,
});
const sources: EnvSources = {
  configMaps: objects({ app: { MODE: 'fast', LEVEL: 'debug' } }),
  secrets: objects({ db: { PASSWORD: Buffer.from('s3cret').toString('base64') } }),
};
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ml', uid: 'u-1', labels: { app: 'x' } }, spec: { nodeName: 'cpu-0', containers: [] } } as Pod;
const env = (c: Partial<Container>) => containerEnvironment(pod, { name: 'c', ...c } as Container, sources, { podIP: '10.128.0.2', hostIP: '10.0.0.10' });

test('envFrom in order with its prefix, then env; secrets decoded; $(VAR) expanded from what came before', () => {
  const result = env({
    envFrom: [{ configMapRef: { name: 'app' } }, { prefix: 'DB_', secretRef: { name: 'db' } }],
    env: [
      { name: 'URL', value: 'postgres://u:$(DB_PASSWORD)@db/$(MISSING)' },
      { name: 'ESCAPED', value: '$$(MODE)' },
      { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'app', key: 'MODE' } } },
      { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
      { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    ],
  });
  assert.deepEqual(result, { ok: true, env: { MODE: 'fast', LEVEL: 'fast', DB_PASSWORD: 's3cret', URL: 'postgres://u:s3cret@db/$(MISSING)', ESCAPED: '$(MODE)', POD: 'p', APP: 'x', IP: '10.128.0.2' } });
});

test('a missing reference fails in the kubelet\'s words unless it is optional', () => {
  assert.deepEqual(env({ envFrom: [{ secretRef: { name: 'tls' } }] }), { ok: false, message: 'secret "tls" not found' });
  assert.deepEqual(env({ envFrom: [{ configMapRef: { name: 'nope' } }] }), { ok: false, message: 'configmap "nope" not found' });
  assert.deepEqual(env({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'app', key: 'TIMEOUT' } } }] }), { ok: false, message: "couldn't find key TIMEOUT in ConfigMap ml/app" });
  assert.deepEqual(env({ env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'db', key: 'USER' } } }] }), { ok: false, message: "couldn't find key USER in Secret ml/db" });
  assert.deepEqual(env({ envFrom: [{ secretRef: { name: 'tls', optional: true } }], env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'db', key: 'USER', optional: true } } }] }), { ok: true, env: {} });
});

test('resourceFieldRef: a request or limit over its divisor, rounded up; a limit not set is the node\'s allocatable', () => {
  const resources = { requests: { cpu: '250m', memory: '100Mi' }, limits: { cpu: '1500m' } };
  const made = containerEnvironment(pod, { name: 'c', resources, env: [
    { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '0' } } },
    { name: 'CPU_REQUEST_MILLI', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
    { name: 'CPU_REQUEST', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '0' } } },
    { name: 'MEMORY_MI', valueFrom: { resourceFieldRef: { resource: 'requests.memory', divisor: '1Mi' } } },
    { name: 'MEMORY_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Gi' } } },
    { name: 'STORAGE_REQUEST', valueFrom: { resourceFieldRef: { resource: 'requests.ephemeral-storage', divisor: '0' } } },
  ] } as Container, sources, { podIP: '', hostIP: '' }, { cpu: '7800m', memory: '30Gi' });
  assert.deepEqual(made, { ok: true, env: { CPU_LIMIT: '2', CPU_REQUEST_MILLI: '250', CPU_REQUEST: '1', MEMORY_MI: '100', MEMORY_LIMIT: '30', STORAGE_REQUEST: '0' } });
  const unsupported = containerEnvironment(pod, { name: 'c', env: [{ name: 'GPU', valueFrom: { resourceFieldRef: { resource: 'limits.nvidia.com/gpu' } } }] } as Container, sources, { podIP: '', hostIP: '' });
  assert.deepEqual(unsupported, { ok: false, message: 'unsupported container resource : limits.nvidia.com/gpu' });
});

test('command and args run with $(VAR) replaced from the environment; an unknown name and $(( )) stay, $$ is $', () => {
  const environment = { SPECIAL_LEVEL_KEY: 'very', SPECIAL_TYPE_KEY: 'charm', MESSAGE: 'hello world' };
  // kubernetes.io's "Use ConfigMap-defined environment variables in Pod commands".
  const docs = { name: 'test-container', command: ['/bin/echo', '$(SPECIAL_LEVEL_KEY) $(SPECIAL_TYPE_KEY)'] };
  assert.deepEqual(expandCommandAndArgs(docs, environment).command, ['/bin/echo', 'very charm']);
  const script = { name: 'c', command: ['sh', '-c'], args: ['echo "$(MESSAGE)" $(NOPE) $$HOME; i=$((i+1)); echo $(date)'] };
  assert.deepEqual(expandCommandAndArgs(script, environment).args, ['echo "hello world" $(NOPE) $HOME; i=$((i+1)); echo $(date)']);
  const plain = { name: 'c', command: ['python', 'train.py'] };
  assert.equal(expandCommandAndArgs(plain, environment), plain, 'nothing to replace: the container as it is');
});
