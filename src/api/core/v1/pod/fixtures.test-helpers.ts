// Test fixtures for Pod tests: a small valid pod, defaulted the way the API server would.
import type { Container, Pod, PodSpec } from './types.ts';
import { defaultPod } from './defaults.ts';

export function container(over: Partial<Container> = {}): Container {
  return { name: 'app', image: 'nginx:1.27', ...over };
}

export function pod(spec: Partial<PodSpec> = {}, name = 'web'): Pod {
  const p: Pod = { metadata: { name, namespace: 'default' }, spec: { containers: [container()], ...spec } };
  defaultPod(p);
  return p;
}
