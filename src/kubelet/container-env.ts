// A container's environment as the kubelet makes it before creating the container: envFrom's config
// maps and secrets in order, then env, each value with $(VAR) references to what came before (or to
// a Service's variable) expanded (resourceFieldRef's a request or limit, the node's allocatable for a
// limit not set), then the Services' variables. A config map, secret or key that is missing and not optional is an error in upstream's
// words, which leaves the container waiting in CreateContainerConfigError. Pure.
// Upstream: pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables), third_party/forked/golang/expansion.
import type { Container, Pod } from '../api/index.ts';
import type { DeepReadonly, KubeObject } from '../core/index.ts';
import { ownValue, setOwn } from '../core/index.ts';
import { containerResourceValue, metadataFieldValue } from './downward-api.ts';
import type { Allocatable } from './downward-api.ts';

type Data = Readonly<Record<string, string>>;

const noVariables: Data = Object.freeze({});

/** The kubelet's caches of config maps and secrets: data by namespace and name. */
export interface EnvSources {
  configMaps: { getByName(namespace: string | undefined, name: string): (KubeObject & { data?: Data }) | undefined };
  secrets: { getByName(namespace: string | undefined, name: string): (KubeObject & { data?: Data }) | undefined };
  /** The Services' link variables a pod's containers get (service-env.ts); none when absent. */
  serviceEnv?: { of(namespace: string, enableServiceLinks: boolean): Readonly<Record<string, string>> };
}

/** What fieldRef may name besides metadata: the pod's addresses, known only to the kubelet. */
export interface PodAddresses {
  podIP: string;
  hostIP: string;
}

/** The environment, possibly shared with other containers: read, never changed. */
export type EnvResult = { ok: true; env: Readonly<Record<string, string>> } | { ok: false; message: string };

export function containerEnvironment(pod: DeepReadonly<Pod>, c: DeepReadonly<Container>, sources: EnvSources, addresses: PodAddresses, allocatable: Allocatable = undefined): EnvResult {
  const namespace = pod.metadata.namespace ?? 'default';
  // The watch-based managers' NotFound names the resource in the singular: `configmap "x" not found`.
  const configMap = (name: string): Data | string => {
    const found = sources.configMaps.getByName(namespace, name);
    return found ? (found.data ?? {}) : `configmap "${name}" not found`;
  };
  const secret = (name: string): Data | string => {
    const found = sources.secrets.getByName(namespace, name);
    return found ? decodeSecretData(found.data) : `secret "${name}" not found`;
  };
  const services = sources.serviceEnv?.of(namespace, pod.spec.enableServiceLinks !== false) ?? noVariables;
  // Nothing of its own (most containers): the namespace's shared Service variables are all of it.
  if ((c.envFrom?.length ?? 0) === 0 && (c.env?.length ?? 0) === 0) return { ok: true, env: services };
  const env: Record<string, string> = {};
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const data = from.configMapRef ? configMap(ref.name ?? '') : secret(ref.name ?? '');
    if (typeof data === 'string') {
      if (ref.optional) continue;
      return { ok: false, message: data };
    }
    for (const [key, value] of Object.entries(data)) setOwn(env, `${from.prefix ?? ''}${key}`, value);
  }
  for (const e of c.env ?? []) {
    const source = e.valueFrom;
    if (!source) {
      setOwn(env, e.name, expandReferences(e.value ?? '', env, services));
      continue;
    }
    const keyRef = source.configMapKeyRef ?? source.secretKeyRef;
    if (keyRef) {
      const kind = source.configMapKeyRef ? 'ConfigMap' : 'Secret';
      const data = source.configMapKeyRef ? configMap(keyRef.name ?? '') : secret(keyRef.name ?? '');
      if (typeof data === 'string') {
        if (keyRef.optional) continue;
        return { ok: false, message: data };
      }
      const value = ownValue(data, keyRef.key);
      if (value === undefined) {
        if (keyRef.optional) continue;
        return { ok: false, message: `couldn't find key ${keyRef.key} in ${kind} ${namespace}/${keyRef.name ?? ''}` };
      }
      setOwn(env, e.name, value);
      continue;
    }
    if (source.resourceFieldRef) {
      const resource = containerResourceValue(source.resourceFieldRef, pod, c, allocatable);
      if ('error' in resource) return { ok: false, message: resource.error };
      setOwn(env, e.name, resource.value);
      continue;
    }
    const field = source.fieldRef ? fieldValue(pod, source.fieldRef.fieldPath, addresses) : undefined;
    if (field !== undefined) setOwn(env, e.name, field);
  }
  // The Services' variables last, unless the container sets one itself.
  for (const [name, value] of Object.entries(services)) if (ownValue(env, name) === undefined) setOwn(env, name, value);
  return { ok: true, env };
}

function decodeSecretData(data: Data | undefined): Data {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data ?? {})) setOwn(out, key, Buffer.from(value, 'base64').toString('utf8'));
  return out;
}

/**
 * The container with $(VAR) in its command and args replaced from its environment, as the kubelet runs it
 * (kubecontainer.ExpandContainerCommandAndArgs): `command: [/bin/echo, "$(LEVEL) $(TYPE)"]` prints the
 * values; a name not defined stays as written, $$ is a literal $. The container itself when none refers.
 */
export function expandCommandAndArgs<C extends DeepReadonly<Container>>(c: C, env: Readonly<Record<string, string>>): C {
  const refers = (list: readonly string[] | undefined): boolean => list?.some((a) => a.includes('$')) ?? false;
  if (!refers(c.command) && !refers(c.args)) return c;
  const expand = (list: readonly string[] | undefined) => list?.map((a) => expandReferences(a, env, noVariables));
  return { ...c, ...(c.command ? { command: expand(c.command) } : {}), ...(c.args ? { args: expand(c.args) } : {}) };
}

/** $(VAR) is VAR's value when VAR is defined (before this one, or a Service's), else left as written; $$ is a literal $. */
function expandReferences(text: string, env: Readonly<Record<string, string>>, services: Readonly<Record<string, string>>): string {
  if (!text.includes('$')) return text;
  return text.replace(/\$\$|\$\(([^)]*)\)/g, (match, name: string | undefined) => (match === '$$' ? '$' : (ownValue(env, name ?? '') ?? ownValue(services, name ?? '') ?? match)));
}

/** The downward API fields an env var may name (podFieldSelectorRuntimeValue). */
function fieldValue(pod: DeepReadonly<Pod>, path: string, addresses: PodAddresses): string | undefined {
  switch (path) {
    case 'spec.nodeName':
      return pod.spec.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec.serviceAccountName ?? '';
    case 'status.hostIP':
    case 'status.hostIPs':
      return addresses.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return addresses.podIP;
    default:
      return metadataFieldValue(pod, path);
  }
}
