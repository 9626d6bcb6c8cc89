// The built-in admission plugins, in upstream's default order. The registry is this list.
// Upstream: plugin/pkg/admission/{namespace/lifecycle,serviceaccount,defaulttolerationseconds,priority}.
import type { KubeObject } from '../core/index.ts';
import { ApiError, forbidden, notFound, randomString } from '../core/index.ts';
import { addDefaultServiceAccount, addDefaultTolerations, admitPodPriority } from '../api/index.ts';
import type { Pod, PriorityClassInfo } from '../api/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { storedObject } from './stored-object.ts';

const immortalNamespaces = new Set(['default', 'kube-system', 'kube-public']);

async function namespaceOf(attrs: AdmissionAttributes, name: string): Promise<KubeObject | undefined> {
  const storage = attrs.storage;
  const nsDef = storage.findDefinition('', 'v1', 'namespaces');
  if (!nsDef) return undefined;
  const kv = await storage.store.get(storage.key(nsDef, '', name));
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

function isPodCreate(attrs: AdmissionAttributes): boolean {
  return attrs.operation === 'CREATE' && attrs.def.group === '' && attrs.def.resource === 'pods' && !attrs.ctx.subresource;
}

/** Pods without a service account get `default` and the projected kube-api-access volume. */
export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  mutate(attrs) {
    if (!isPodCreate(attrs)) return;
    addDefaultServiceAccount(attrs.object as unknown as Pod, { tokenVolumeSuffix: randomString(attrs.storage.random, 5) });
  },
};

/** Tolerate the not-ready and unreachable NoExecute taints for 300 s unless already tolerated. */
export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  mutate(attrs) {
    if (isPodCreate(attrs)) addDefaultTolerations(attrs.object as unknown as Pod);
  },
};

interface PriorityClassObject extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: PriorityClassInfo['preemptionPolicy'];
}

/** Resolves spec.priorityClassName into spec.priority and preemptionPolicy. */
export const priority: AdmissionPlugin = {
  name: 'Priority',
  async mutate(attrs) {
    if (!isPodCreate(attrs)) return;
    const pcDef = attrs.storage.findDefinition('scheduling.k8s.io', 'v1', 'priorityclasses');
    const classes: PriorityClassInfo[] = [];
    let globalDefault: PriorityClassInfo | undefined;
    if (pcDef) {
      const page = await attrs.storage.store.list(attrs.storage.prefix(pcDef, ''));
      for (const kv of page.items) {
        const pc = storedObject(kv) as PriorityClassObject;
        const info: PriorityClassInfo = { name: pc.metadata.name ?? '', value: pc.value ?? 0 };
        if (pc.preemptionPolicy) info.preemptionPolicy = pc.preemptionPolicy;
        classes.push(info);
        if (pc.globalDefault && (!globalDefault || info.value < globalDefault.value)) globalDefault = info;
      }
    }
    const pod = attrs.object as unknown as Pod;
    if (!admitPodPriority(pod, (name) => classes.find((c) => c.name === name), globalDefault)) {
      throw forbidden({ group: '', resource: 'pods' }, attrs.object.metadata.name ?? '', `no PriorityClass with name ${pod.spec.priorityClassName ?? ''} was found`);
    }
  },
};

export function builtinAdmissionPlugins(extra: readonly AdmissionPlugin[] = []): AdmissionPlugin[] {
  return [namespaceLifecycle, serviceAccount, defaultTolerationSeconds, priority, ...extra];
}
