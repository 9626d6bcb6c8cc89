// The built-in admission plugins, in upstream's default order. The registry is this list.
// Upstream: plugin/pkg/admission/{namespace/lifecycle,serviceaccount,defaulttolerationseconds,priority}.
import type { KubeObject } from '../core/index.ts';
import { ApiError, forbidden, notFound } from '../core/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { storedObject } from './stored-object.ts';

const immortalNamespaces = new Set(['default', 'kube-system', 'kube-public']);

async function namespaceOf(attrs: AdmissionAttributes, name: string): Promise<KubeObject | undefined> {
  const def = attrs.storage;
  const nsDef = { group: '', version: 'v1', kind: 'Namespace', resource: 'namespaces', singular: 'namespace', namespaced: false, hasStatus: true } as const;
  const kv = await def.store.get(def.key(nsDef, '', name));
  return kv ? storedObject(kv) : undefined;
}

/** Refuses writes into missing or terminating namespaces. */
export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  async validate(attrs) {
    if (!attrs.def.namespaced || attrs.operation !== 'CREATE') return;
    const namespace = attrs.object.metadata.namespace ?? '';
    const ns = await namespaceOf(attrs, namespace);
    if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
    if (ns.metadata.deletionTimestamp && !(attrs.def.group === 'events.k8s.io' || attrs.def.resource === 'events')) {
      throw forbidden({ group: attrs.def.group, resource: attrs.def.resource }, attrs.object.metadata.name ?? '', `unable to create new content in namespace ${namespace} because it is being terminated`);
    }
  },
};

/** Upstream refuses to delete the system namespaces; checked before deletion. */
export function checkNamespaceDeletion(name: string): void {
  if (immortalNamespaces.has(name)) {
    throw new ApiError('Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' });
  }
}

interface PodLike extends KubeObject {
  spec?: { serviceAccountName?: string; serviceAccount?: string };
}

/** Pods without a service account get `default`, as the ServiceAccount plugin does. */
export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  mutate(attrs) {
    if (attrs.operation !== 'CREATE' || attrs.def.group !== '' || attrs.def.resource !== 'pods' || attrs.ctx.subresource) return;
    const pod = attrs.object as PodLike;
    pod.spec ??= {};
    if (!pod.spec.serviceAccountName) pod.spec.serviceAccountName = pod.spec.serviceAccount || 'default';
    pod.spec.serviceAccount = pod.spec.serviceAccountName;
  },
};

export function builtinAdmissionPlugins(extra: readonly AdmissionPlugin[] = []): AdmissionPlugin[] {
  return [namespaceLifecycle, serviceAccount, ...extra];
}
