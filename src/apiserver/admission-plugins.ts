// The built-in admission plugins, in upstream's default order. The registry is this list.
// Upstream: plugin/pkg/admission/{namespace/lifecycle,serviceaccount,defaulttolerationseconds,priority,
// storage/storageclass/setdefault}.
import type { KubeObject } from '../core/index.ts';
import { ApiError, forbidden, invalid, namespaceTerminatingCause, notFound, randomString } from '../core/index.ts';
import { addDefaultServiceAccount, addDefaultTolerations, admitPodPriority, newestDefaultStorageClass, prepareService, sequentialServiceAllocator } from '../api/index.ts';
import type { PersistentVolumeClaim, Pod, PriorityClassInfo, Service } from '../api/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { storedObject } from './stored-object.ts';
import { resourceQuotaAdmission } from './resource-quota-admission.ts';

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
      const error = forbidden({ group: attrs.def.group, resource: attrs.def.resource }, attrs.object.metadata.name ?? '', `unable to create new content in namespace ${namespace} because it is being terminated`);
      // The cause controllers test for (HasStatusCause) to give up on a namespace that is going away.
      const causes = [{ reason: namespaceTerminatingCause, message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }];
      throw new ApiError(error.reason, error.message, { ...error.details, causes });
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

interface ServiceObject extends KubeObject {
  spec?: { clusterIP?: string; clusterIPs?: string[]; ports?: { nodePort?: number }[] };
}

/**
 * Allocates cluster IPs and node ports, as the Service REST storage does upstream, skipping
 * every value a stored Service holds. Errors (an IP out of range or taken) are 422s.
 */
export const serviceAllocation: AdmissionPlugin = {
  name: 'ServiceIPAllocation',
  async mutate(attrs) {
    if (attrs.def.group !== '' || attrs.def.resource !== 'services' || attrs.ctx.subresource) return;
    if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
    const page = await attrs.storage.store.list(attrs.storage.prefix(attrs.def, ''));
    const usedIPs: string[] = [];
    const usedNodePorts: number[] = [];
    for (const kv of page.items) {
      const svc = storedObject(kv) as ServiceObject;
      if (attrs.old && svc.metadata.uid === attrs.old.metadata.uid) continue;
      usedIPs.push(...(svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : [])));
      for (const port of svc.spec?.ports ?? []) if (port.nodePort) usedNodePorts.push(port.nodePort);
    }
    const errors = prepareService(attrs.object as unknown as Service, attrs.old as unknown as Service | undefined, sequentialServiceAllocator({ usedIPs, usedNodePorts }));
    if (errors.length > 0) throw invalid(attrs.def, attrs.object.metadata.name ?? '', errors);
  },
};

/**
 * A claim created without any class (no storageClassName, not even "", and no beta annotation)
 * gets the default StorageClass at once, so it is in the create response and never binds classless.
 * Upstream: plugin/pkg/admission/storage/storageclass/setdefault/admission.go.
 */
export const defaultStorageClass: AdmissionPlugin = {
  name: 'DefaultStorageClass',
  async mutate(attrs) {
    if (attrs.operation !== 'CREATE' || attrs.def.group !== '' || attrs.def.resource !== 'persistentvolumeclaims' || attrs.ctx.subresource) return;
    const claim = attrs.object as unknown as PersistentVolumeClaim;
    if (claim.spec?.storageClassName != null || claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return;
    const storage = attrs.storage;
    const classes = storage.findDefinition('storage.k8s.io', 'v1', 'storageclasses');
    if (!classes) return;
    const { items } = await storage.store.list(storage.prefix(classes, ''));
    const chosen = newestDefaultStorageClass(items.map((kv) => storedObject(kv)));
    if (chosen) claim.spec = { ...claim.spec, storageClassName: chosen.metadata.name ?? '' };
  },
};

/**
 * New claims and volumes carry the protection finalizers the pvc-protection and pv-protection
 * controllers lift once nothing uses them.
 * Upstream: plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go.
 */
export const storageObjectInUseProtection: AdmissionPlugin = {
  name: 'StorageObjectInUseProtection',
  mutate(attrs) {
    if (attrs.operation !== 'CREATE' || attrs.def.group !== '' || attrs.ctx.subresource) return;
    const finalizer = attrs.def.resource === 'persistentvolumeclaims' ? 'kubernetes.io/pvc-protection' : attrs.def.resource === 'persistentvolumes' ? 'kubernetes.io/pv-protection' : undefined;
    if (!finalizer) return;
    const meta = attrs.object.metadata;
    if (!(meta.finalizers ?? []).includes(finalizer)) meta.finalizers = [...(meta.finalizers ?? []), finalizer];
  },
};

export function builtinAdmissionPlugins(extra: readonly AdmissionPlugin[] = []): AdmissionPlugin[] {
  // ResourceQuota validates last, after every mutation, as upstream orders it.
  return [namespaceLifecycle, serviceAccount, defaultTolerationSeconds, defaultStorageClass, storageObjectInUseProtection, priority, serviceAllocation, ...extra, resourceQuotaAdmission];
}
