// The Docker-link environment variables the kubelet gives every container for Services: the API
// server's `kubernetes` Service in `default` always, the pod's own namespace's Services when
// enableServiceLinks (the default). Pure.
// Upstream: pkg/kubelet/kubelet_pods.go (getServiceEnvVarMap), pkg/kubelet/envvars/envvars.go (FromServices).
import type { Service } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { setOwn } from '../core/index.ts';

/** The master services of the default namespace, whose variables every pod gets. */
const masterServices = new Set(['kubernetes']);

/** Upper case, dashes as underscores (makeEnvVariableName). */
const envName = (name: string): string => name.replaceAll('-', '_').toUpperCase();

const hasClusterIP = (s: DeepReadonly<Service>): boolean => {
  const ip = s.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
};

/** The Services a kubelet knows, as an informer keeps them: the list and the version it is at. */
export interface ServiceSource {
  list(): readonly DeepReadonly<Service>[];
  readonly resourceVersion: string;
}

/**
 * serviceEnvironment per namespace, made again only when the Services change: the containers of a
 * namespace share one read-only object (most add nothing to it), so a pod costs no copy of it.
 */
export class ServiceEnvironments {
  readonly #source: ServiceSource;
  #version: string | undefined;
  readonly #byNamespace = new Map<string, Readonly<Record<string, string>>>();

  constructor(source: ServiceSource) {
    this.#source = source;
  }

  of(namespace: string, enableServiceLinks: boolean): Readonly<Record<string, string>> {
    if (this.#source.resourceVersion !== this.#version) {
      this.#byNamespace.clear();
      this.#version = this.#source.resourceVersion;
    }
    const key = `${enableServiceLinks ? '+' : '-'}${namespace}`;
    let env = this.#byNamespace.get(key);
    if (env === undefined) {
      env = Object.freeze(serviceEnvironment(this.#source.list(), namespace, enableServiceLinks));
      this.#byNamespace.set(key, env);
    }
    return env;
  }
}

/** The variables for the Services a pod in `namespace` sees, by name. */
export function serviceEnvironment(services: readonly DeepReadonly<Service>[], namespace: string, enableServiceLinks: boolean): Record<string, string> {
  const visible = new Map<string, DeepReadonly<Service>>();
  for (const s of services) {
    if (!hasClusterIP(s) || (s.spec?.ports?.length ?? 0) === 0) continue;
    const name = s.metadata.name ?? '';
    const ns = s.metadata.namespace ?? '';
    if (ns === 'default' && masterServices.has(name)) {
      if (!visible.has(name)) visible.set(name, s);
    } else if (ns === namespace && enableServiceLinks) {
      visible.set(name, s);
    }
  }
  const env: Record<string, string> = {};
  for (const s of visible.values()) addServiceVariables(env, s);
  return env;
}

function addServiceVariables(env: Record<string, string>, s: DeepReadonly<Service>): void {
  const prefix = envName(s.metadata.name ?? '');
  const ip = s.spec?.clusterIP ?? '';
  const ports = s.spec?.ports ?? [];
  setOwn(env, `${prefix}_SERVICE_HOST`, ip);
  setOwn(env, `${prefix}_SERVICE_PORT`, String(ports[0]?.port ?? ''));
  for (const p of ports) if (p.name) setOwn(env, `${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port));
  // Docker's link variables; the first port also gets the short name.
  const host = ip.includes(':') ? `[${ip}]` : ip;
  ports.forEach((p, i) => {
    const protocol = (p.protocol ?? 'TCP').toLowerCase();
    const url = `${protocol}://${host}:${p.port}`;
    if (i === 0) setOwn(env, `${prefix}_PORT`, url);
    const portPrefix = `${prefix}_PORT_${p.port}_${protocol.toUpperCase()}`;
    setOwn(env, portPrefix, url);
    setOwn(env, `${portPrefix}_PROTO`, protocol);
    setOwn(env, `${portPrefix}_PORT`, String(p.port));
    setOwn(env, `${portPrefix}_ADDR`, ip);
  });
}
