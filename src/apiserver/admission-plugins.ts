// The built-in admission plugins, in upstream's default order. The registry is this list.
// Upstream: plugin/pkg/admission/{namespace/lifecycle,serviceaccount,defaulttolerationseconds,priority,
// storage/storageclass/setdefault}.
import type { KubeObject } from '../core/index.ts';
import { ApiError, compareQuantities, forbidden, forbiddenField, invalid, namespaceTerminatingCause, notFound, parseQuantity, randomString } from '../core/index.ts';
import { addDefaultServiceAccount, addDefaultTolerations, admitPodPriority, defaultIngressClassAnnotation, ingressClassAnnotation, isServiceIPRecord, mergeTolerations, serviceClusterIPs, newestDefaultStorageClass, prepareService, serviceAllocator, storageClassOf } from '../api/index.ts';
import type { Ingress, IPAddress, PersistentVolumeClaim, Pod, PriorityClassInfo, RuntimeClass, Service, ServiceCIDR } from '../api/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import { admissionName, onlyFor } from './admission.ts';
import { storagePrefix, storedObject } from './stored-object.ts';
import { watchedPerStore } from './admission-request.ts';
import { resourceQuotaAdmission } from './resource-quota-admission.ts';
import { limitRangerAdmission } from './limit-ranger-admission.ts';
import { namespaceNow, serviceAccountNow } from './watched-lookups.ts';
import { rbacEscalation } from './rbac-escalation.ts';
import { certificateAdmission } from './certificate-admission.ts';
import { validatingAdmissionPolicy } from './validating-admission-policy.ts';
import { admissionWebhooks } from './admission-webhooks.ts';
import { podSecurity } from './pod-security/admission.ts';
import { taintNodesByCondition } from './node-taint-admission.ts';
import { podTopologyLabels } from './pod-topology-labels-admission.ts';

const immortalNamespaces = new Set(['default', 'kube-system', 'kube-public']);

const namespaceOf = (attrs: AdmissionAttributes, name: string): KubeObject | undefined | Promise<KubeObject | undefined> => namespaceNow(attrs.storage, name);

/** resource.DRAAdminNamespaceLabelKey: the label a namespace needs for its claims to ask for admin access. */
const draAdminNamespaceLabel = 'resource.kubernetes.io/admin-access';

interface DeviceRequests {
  requests?: { exactly?: { adminAccess?: boolean } }[];
}
interface AllocationStatus {
  allocation?: { devices?: { results?: { adminAccess?: boolean }[] } };
}

/**
 * The field asking for admin access to devices that the namespace must allow, if any: on the create
 * of a ResourceClaim or ResourceClaimTemplate, the first request with it (only `exactly` may ask; the
 * claim's path, spec.devices.requests[i], for a template too, as upstream writes it); on a claim's
 * status update, the first allocation result granting it, unless the old allocation already did
 * (status.allocation is immutable once set).
 */
function adminAccessField(attrs: AdmissionAttributes): string | undefined {
  if (attrs.def.group !== 'resource.k8s.io') return undefined;
  if (attrs.operation === 'CREATE' && !attrs.ctx.subresource) {
    const spec = attrs.object.spec as { devices?: DeviceRequests; spec?: { devices?: DeviceRequests } } | undefined;
    const devices = attrs.def.resource === 'resourceclaims' ? spec?.devices : attrs.def.resource === 'resourceclaimtemplates' ? spec?.spec?.devices : undefined;
    const index = (devices?.requests ?? []).findIndex((r) => r.exactly?.adminAccess === true);
    return index < 0 ? undefined : `spec.devices.requests[${index}].adminAccess`;
  }
  if (attrs.operation !== 'UPDATE' || attrs.ctx.subresource !== 'status' || attrs.def.resource !== 'resourceclaims') return undefined;
  const granted = (o: KubeObject | undefined): number => ((o?.status as AllocationStatus | undefined)?.allocation?.devices?.results ?? []).findIndex((r) => r.adminAccess === true);
  if (granted(attrs.old) >= 0) return undefined;
  const index = granted(attrs.object);
  return index < 0 ? undefined : `status.allocation.devices.results[${index}].adminAccess`;
}

/**
 * AuthorizedForAdmin and AuthorizedForAdminStatus, which upstream's ResourceClaim (and its status) and
 * ResourceClaimTemplate strategies run as part of their validation (DRAAdminAccess, beta and on in
 * 1.35): admin access to devices is allowed only in a namespace labelled for it. With the gate off the
 * fields are dropped before this.
 */
export const draAdminAccess: AdmissionPlugin = {
  name: 'DRAAdminAccess',
  validate: onlyFor(
    (attrs) => adminAccessField(attrs) !== undefined,
    async (attrs) => {
      const path = adminAccessField(attrs) ?? '';
      const ns = await namespaceOf(attrs, attrs.object.metadata.namespace ?? '');
      if (ns?.metadata.labels?.[draAdminNamespaceLabel] === 'true') return;
      throw invalid(attrs.def, attrs.object.metadata.name ?? '', [forbiddenField(path, `admin access to devices requires the \`${draAdminNamespaceLabel}: true\` label on the containing namespace`)]);
    },
  ),
};

/**
 * Refuses writes into missing or terminating namespaces. Events too, as upstream: a recorder drops
 * an event refused with the NamespaceTerminating cause without a word (client-go's recordToSink).
 */
export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  // Upstream's Lifecycle is a mutating plugin (Admit), first in order: a missing or terminating
  // namespace answers before the object is validated. No await when the watched copy has the namespace.
  mutate(attrs) {
    if (!attrs.def.namespaced || attrs.operation !== 'CREATE') return undefined;
    const namespace = attrs.object.metadata.namespace ?? '';
    const ns = namespaceOf(attrs, namespace);
    return ns instanceof Promise ? ns.then((found) => admitInNamespace(attrs, namespace, found)) : admitInNamespace(attrs, namespace, ns);
  },
};

function admitInNamespace(attrs: AdmissionAttributes, namespace: string, ns: KubeObject | undefined): undefined {
  if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
  if (ns.metadata.deletionTimestamp) {
    const error = forbidden({ group: attrs.def.group, resource: attrs.def.resource }, attrs.object.metadata.name ?? '', `unable to create new content in namespace ${namespace} because it is being terminated`);
    // The cause controllers test for (HasStatusCause) to give up on a namespace that is going away.
    const causes = [{ reason: namespaceTerminatingCause, message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }];
    throw new ApiError(error.reason, error.message, { ...error.details, causes });
  }
  return undefined;
}

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
  // No await when the watched copy has the account.
  mutate(attrs) {
    if (!isPodCreate(attrs)) return undefined;
    const name = (attrs.object as unknown as Pod).spec.serviceAccountName || 'default';
    const account = serviceAccountNow(attrs.storage, attrs.object.metadata.namespace ?? '', name);
    return account instanceof Promise ? account.then((found) => admitServiceAccount(attrs, name, found)) : admitServiceAccount(attrs, name, account);
  },
};

function admitServiceAccount(attrs: AdmissionAttributes, name: string, account: KubeObject | undefined): undefined {
  const namespace = attrs.object.metadata.namespace ?? '';
  // A named account must exist. Upstream also waits up to ~1.5 s for `default`, which its controller
  // makes moments after the namespace; here a pod does not wait for it, nor need it (clusters
  // without the controller, a pod created in the same instant as its namespace).
  if (!account && name !== 'default') {
    throw forbidden({ group: '', resource: 'pods' }, admissionName(attrs.object), `error looking up service account ${namespace}/${name}: serviceaccount ${JSON.stringify(name)} not found`);
  }
  addDefaultServiceAccount(attrs.object as unknown as Pod, { tokenVolumeSuffix: randomString(attrs.storage.random, 5), ...(account ? { account: account as { automountServiceAccountToken?: boolean; imagePullSecrets?: { name?: string }[] } } : {}) });
  return undefined;
}

/**
 * Tolerate the not-ready and unreachable NoExecute taints for 300 s unless already tolerated. On
 * updates too, as upstream's handler takes both: a replace whose body dropped them gets them back
 * rather than a refusal for removing tolerations.
 */
export const defaultTolerationSeconds: AdmissionPlugin = {
  name: 'DefaultTolerationSeconds',
  mutate(attrs) {
    if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
    if (attrs.def.resource !== 'pods' || attrs.def.group !== '' || attrs.ctx.subresource) return;
    const pod = attrs.object as unknown as Pod;
    // A patch can leave an update without a spec (`{"spec":null}`); validation refuses it after.
    if (typeof pod.spec === 'object' && pod.spec !== null) addDefaultTolerations(pod);
  },
};

interface PriorityClassObject extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: PriorityClassInfo['preemptionPolicy'];
}

interface PriorityClasses {
  classes: PriorityClassInfo[];
  /** The lowest value, should a race leave two; the first in key order among equals. */
  globalDefault: PriorityClassInfo | undefined;
}

/** The PriorityClasses every pod create reads, kept by a store watch rather than listed and decoded per pod. */
const priorityClassPrefix = storagePrefix('scheduling.k8s.io', 'priorityclasses', '');
const priorityClassesOf = watchedPerStore({ classes: priorityClassPrefix });

/**
 * The PriorityClasses, and the global default among them: at once from the watched copy (memory and
 * sqlite deliver a write's event inside the write, so a class written just before is there), after
 * its first list when it is not synced yet, or listed when the kind is stored under another prefix.
 */
function priorityClasses(attrs: AdmissionAttributes): PriorityClasses | Promise<PriorityClasses> {
  const pcDef = attrs.storage.findDefinition('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (!pcDef) return summarizePriorityClasses([]);
  const prefix = attrs.storage.prefix(pcDef, '');
  if (prefix !== priorityClassPrefix) return attrs.storage.store.list(prefix).then((page) => summarizePriorityClasses(page.items.map((kv) => storedObject(kv))));
  const watched = priorityClassesOf(attrs.storage.store);
  if (!watched.synced) return watched.ready.then(() => summaryOf(watched.maps.classes));
  return summaryOf(watched.maps.classes);
}

// Per watched copy, the summary last made and the objects it was made from. The copy replaces an
// object when it changes, so the same objects in the same order mean the same summary: a pod create
// reuses it instead of copying the keys, the objects and a class record each.
const summaries = new WeakMap<ReadonlyMap<string, KubeObject>, { objects: readonly KubeObject[]; summary: PriorityClasses }>();

function summaryOf(byKey: ReadonlyMap<string, KubeObject>): PriorityClasses {
  const last = summaries.get(byKey);
  if (last !== undefined && holdsInOrder(byKey, last.objects)) return last.summary;
  const objects = inKeyOrder(byKey);
  const summary = summarizePriorityClasses(objects);
  summaries.set(byKey, { objects, summary });
  return summary;
}

function holdsInOrder(byKey: ReadonlyMap<string, KubeObject>, objects: readonly KubeObject[]): boolean {
  if (byKey.size !== objects.length) return false;
  let i = 0;
  for (const object of byKey.values()) if (object !== objects[i++]) return false;
  return true;
}

/** The objects in key order, as a list returns them: the watched map appends later creations at its end. */
function inKeyOrder(byKey: ReadonlyMap<string, KubeObject>): KubeObject[] {
  const keys = [...byKey.keys()];
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return keys.sort().map((k) => byKey.get(k) as KubeObject);
  return [...byKey.values()];
}

function summarizePriorityClasses(objects: readonly KubeObject[]): PriorityClasses {
  const classes: PriorityClassInfo[] = [];
  let globalDefault: PriorityClassInfo | undefined;
  for (const object of objects) {
    const pc = object as PriorityClassObject;
    const info: PriorityClassInfo = { name: pc.metadata.name ?? '', value: pc.value ?? 0 };
    if (pc.preemptionPolicy) info.preemptionPolicy = pc.preemptionPolicy;
    classes.push(info);
    if (pc.globalDefault && (!globalDefault || info.value < globalDefault.value)) globalDefault = info;
  }
  return { classes, globalDefault };
}

function admitPriority(attrs: AdmissionAttributes, { classes, globalDefault }: PriorityClasses): undefined {
  const refused = admitPodPriority(attrs.object as unknown as Pod, (name) => classes.find((c) => c.name === name), globalDefault);
  if (refused) throw forbidden({ group: '', resource: 'pods' }, admissionName(attrs.object), refused);
  return undefined;
}

const isPriorityClassWrite = (attrs: AdmissionAttributes): boolean =>
  (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') && attrs.def.group === 'scheduling.k8s.io' && attrs.def.resource === 'priorityclasses' && !attrs.ctx.subresource && (attrs.object as PriorityClassObject).globalDefault === true;

/**
 * Priority: resolves a new pod's spec.priorityClassName into spec.priority and preemptionPolicy, and
 * keeps a second PriorityClass from becoming the global default.
 * Upstream: plugin/pkg/admission/priority/admission.go (admitPod, validatePriorityClass).
 */
export const priority: AdmissionPlugin = {
  name: 'Priority',
  // No await once the watched copy is synced: a pod create costs no store call and no microtask turn here.
  mutate(attrs) {
    if (!isPodCreate(attrs)) return undefined;
    const found = priorityClasses(attrs);
    return found instanceof Promise ? found.then((classes) => admitPriority(attrs, classes)) : admitPriority(attrs, found);
  },
  validate: onlyFor(isPriorityClassWrite, async (attrs) => {
    const { globalDefault } = await priorityClasses(attrs);
    if (!globalDefault || (attrs.operation === 'UPDATE' && globalDefault.name === attrs.object.metadata.name)) return;
    throw forbidden({ group: 'scheduling.k8s.io', resource: 'priorityclasses' }, admissionName(attrs.object), `PriorityClass ${globalDefault.name} is already marked as default. Only one default can exist`);
  }),
};

/** Semantic equality of two resource lists (`100m` equals `0.1`), as apiequality.Semantic compares them. */
function sameResources(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  for (const key of keys) {
    const x = a?.[key] === undefined ? undefined : parseQuantity(a[key] as string);
    const y = b?.[key] === undefined ? undefined : parseQuantity(b[key] as string);
    if (x === undefined || y === undefined || x.milli !== y.milli) return false;
  }
  return true;
}

async function runtimeClassOf(attrs: AdmissionAttributes, pod: Pod): Promise<RuntimeClass | undefined> {
  const name = pod.spec.runtimeClassName;
  if (!name) return undefined;
  const runtimeClass = await attrs.storage.lookup('node.k8s.io', 'v1', 'runtimeclasses', '', name);
  if (!runtimeClass) throw forbidden({ group: '', resource: 'pods' }, attrs.object.metadata.name ?? '', `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
  return runtimeClass as unknown as RuntimeClass;
}

const overheadMismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

// A pod naming no RuntimeClass has nothing to take from one, and nothing to check unless it sets an overhead.
const namesRuntimeClass = (attrs: AdmissionAttributes): boolean => isPodCreate(attrs) && !!(attrs.object as unknown as Pod).spec.runtimeClassName;

/**
 * RuntimeClass: a pod naming one takes its overhead (a different one set by hand is refused) and its
 * scheduling constraints (node selector merged, a conflicting value refused; tolerations merged);
 * a name with no RuntimeClass is refused, and so is an overhead without one that defines it.
 * Upstream: plugin/pkg/admission/runtimeclass/admission.go.
 */
export const runtimeClass: AdmissionPlugin = {
  name: 'RuntimeClass',
  mutate: onlyFor(namesRuntimeClass, async (attrs) => {
    const pod = attrs.object as unknown as Pod;
    const rc = await runtimeClassOf(attrs, pod);
    const podFixed = rc?.overhead?.podFixed;
    const deny = (why: string): ApiError => forbidden({ group: '', resource: 'pods' }, attrs.object.metadata.name ?? '', why);
    if (podFixed) {
      if (Object.keys(pod.spec.overhead ?? {}).length > 0 && !sameResources(pod.spec.overhead, podFixed)) throw deny(overheadMismatch);
      pod.spec.overhead = { ...podFixed };
    }
    const scheduling = rc?.scheduling;
    if (!scheduling) return;
    const nodeSelector = { ...pod.spec.nodeSelector };
    for (const [key, value] of Object.entries(scheduling.nodeSelector ?? {})) {
      const existing = nodeSelector[key];
      if (existing !== undefined && existing !== value) throw deny(`conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${existing}`);
      nodeSelector[key] = value;
    }
    if (Object.keys(nodeSelector).length > 0) pod.spec.nodeSelector = nodeSelector;
    if (scheduling.tolerations?.length) pod.spec.tolerations = mergeTolerations(pod.spec.tolerations ?? [], scheduling.tolerations);
  }),
  validate: onlyFor((attrs) => namesRuntimeClass(attrs) || (isPodCreate(attrs) && (attrs.object as unknown as Pod).spec.overhead !== undefined), async (attrs) => {
    const pod = attrs.object as unknown as Pod;
    const rc = await runtimeClassOf(attrs, pod);
    const deny = (why: string): ApiError => forbidden({ group: '', resource: 'pods' }, attrs.object.metadata.name ?? '', why);
    if (rc?.overhead?.podFixed) {
      if (!sameResources(rc.overhead.podFixed, pod.spec.overhead)) throw deny(overheadMismatch);
    } else if (pod.spec.overhead !== undefined) {
      throw deny('pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    }
  }),
};

/**
 * DefaultIngressClass: an Ingress created without a class (no ingressClassName, no legacy annotation)
 * gets the IngressClass marked default, the newest when several are.
 * Upstream: plugin/pkg/admission/network/defaultingressclass/admission.go.
 */
export const defaultIngressClass: AdmissionPlugin = {
  name: 'DefaultIngressClass',
  mutate: onlyFor((attrs) => attrs.operation === 'CREATE' && attrs.def.group === 'networking.k8s.io' && attrs.def.resource === 'ingresses' && !attrs.ctx.subresource, async (attrs) => {
    const ingress = attrs.object as unknown as Ingress;
    if (ingress.spec?.ingressClassName !== undefined || ingress.metadata.annotations?.[ingressClassAnnotation] !== undefined) return;
    const classes = attrs.storage.findDefinition('networking.k8s.io', 'v1', 'ingressclasses');
    if (!classes) return;
    const { items } = await attrs.storage.store.list(attrs.storage.prefix(classes, ''));
    let chosen: KubeObject | undefined;
    for (const kv of items) {
      const ic = storedObject(kv);
      if (ic.metadata.annotations?.[defaultIngressClassAnnotation] !== 'true') continue;
      if (!chosen || (ic.metadata.creationTimestamp ?? '') > (chosen.metadata.creationTimestamp ?? '')) chosen = ic;
    }
    if (chosen) ingress.spec = { ...ingress.spec, ingressClassName: chosen.metadata.name ?? '' };
  }),
};

interface ServiceObject extends KubeObject {
  spec?: { clusterIP?: string; clusterIPs?: string[]; ports?: { nodePort?: number }[] };
}

/**
 * Allocates cluster IPs and node ports, as the Service REST storage does upstream: from the ready
 * ServiceCIDRs, skipping every value a stored Service holds and every address an IPAddress holds
 * for something else. Errors (an IP out of range or taken) are 422s. The IPAddress objects of
 * Services' IPs are written after the Service by the allocator's repair loop (ip-address-repair.ts).
 */
export const serviceAllocation: AdmissionPlugin = {
  name: 'ServiceIPAllocation',
  mutate: onlyFor((attrs) => attrs.def.group === '' && attrs.def.resource === 'services' && !attrs.ctx.subresource && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE'), async (attrs) => {
    const allocated = allocationsOf(attrs.storage.store);
    if (!allocated.synced) await allocated.ready;
    const usedIPs: string[] = [];
    const usedNodePorts: number[] = [];
    for (const svc of allocated.maps.services.values() as IterableIterator<ServiceObject>) {
      if (attrs.old && svc.metadata.uid === attrs.old.metadata.uid) continue;
      usedIPs.push(...serviceClusterIPs(svc));
      for (const port of svc.spec?.ports ?? []) if (port.nodePort) usedNodePorts.push(port.nodePort);
    }
    usedIPs.push(...addressesHeldElsewhere(allocated.maps.ipAddresses.values() as IterableIterator<IPAddress>));
    const serviceCIDRs = await readyServiceCIDRs(attrs.storage);
    const errors = prepareService(attrs.object as unknown as Service, attrs.old as unknown as Service | undefined, serviceAllocator({ random: attrs.storage.random, usedIPs, usedNodePorts, ...(serviceCIDRs ? { serviceCIDRs } : {}) }));
    if (errors.length > 0) throw invalid(attrs.def, attrs.object.metadata.name ?? '', errors);
  }),
};

/**
 * The Services and IPAddresses allocation looks at, kept by a store watch rather than listed and
 * decoded on every Service write, which made creating the n-th Service cost O(n) decodes (2.4 ms
 * each at 3,000 Services).
 */
const allocationsOf = watchedPerStore({ services: storagePrefix('', 'services', ''), ipAddresses: storagePrefix('networking.k8s.io', 'ipaddresses', '') });

/** IPAddresses not the allocator's own records of Services' IPs (those the Services themselves tell). */
function addressesHeldElsewhere(addresses: Iterable<IPAddress>): string[] {
  const held: string[] = [];
  for (const ip of addresses) if (!isServiceIPRecord(ip)) held.push(ip.metadata.name ?? '');
  return held;
}

/**
 * The CIDRs of the ServiceCIDRs that take allocations (not being deleted, Ready or not yet judged),
 * oldest first. Undefined when there are none at all: a bare API server allocates from its own range.
 */
async function readyServiceCIDRs(storage: AdmissionAttributes['storage']): Promise<string[] | undefined> {
  const def = storage.findDefinition('networking.k8s.io', 'v1', 'servicecidrs');
  if (!def) return undefined;
  const { items } = await storage.store.list(storage.prefix(def, ''));
  if (items.length === 0) return undefined;
  const ready = items
    .map((kv) => storedObject(kv) as ServiceCIDR)
    .filter((sc) => !sc.metadata.deletionTimestamp && (sc.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'True') === 'True')
    .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  return ready.flatMap((sc) => sc.spec?.cidrs ?? []);
}

/**
 * A claim created without any class (no storageClassName, not even "", and no beta annotation)
 * gets the default StorageClass at once, so it is in the create response and never binds classless.
 * Upstream: plugin/pkg/admission/storage/storageclass/setdefault/admission.go.
 */
export const defaultStorageClass: AdmissionPlugin = {
  name: 'DefaultStorageClass',
  mutate: onlyFor((attrs) => attrs.operation === 'CREATE' && attrs.def.group === '' && attrs.def.resource === 'persistentvolumeclaims' && !attrs.ctx.subresource, async (attrs) => {
    const claim = attrs.object as unknown as PersistentVolumeClaim;
    if (claim.spec?.storageClassName != null || claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return;
    const storage = attrs.storage;
    const classes = storage.findDefinition('storage.k8s.io', 'v1', 'storageclasses');
    if (!classes) return;
    const { items } = await storage.store.list(storage.prefix(classes, ''));
    const chosen = newestDefaultStorageClass(items.map((kv) => storedObject(kv)));
    if (chosen) claim.spec = { ...claim.spec, storageClassName: chosen.metadata.name ?? '' };
  }),
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

/** The storage a claim asks for, as a quantity (undefined when absent or unparsable). */
const claimRequest = (claim: PersistentVolumeClaim | undefined): ReturnType<typeof parseQuantity> => {
  const text = claim?.spec?.resources?.requests?.['storage'];
  return text === undefined ? undefined : parseQuantity(text);
};

/**
 * PersistentVolumeClaimResize: a claim may grow only once bound, and only when both its old and new
 * class name a StorageClass that allows volume expansion.
 * Upstream: plugin/pkg/admission/storage/persistentvolume/resize/admission.go.
 */
export const persistentVolumeClaimResize: AdmissionPlugin = {
  name: 'PersistentVolumeClaimResize',
  validate: onlyFor(
    (attrs) => {
      if (attrs.operation !== 'UPDATE' || attrs.def.group !== '' || attrs.def.resource !== 'persistentvolumeclaims' || attrs.ctx.subresource) return false;
      const grown = claimRequest(attrs.object as unknown as PersistentVolumeClaim);
      const before = claimRequest(attrs.old as unknown as PersistentVolumeClaim | undefined) ?? parseQuantity('0');
      return grown !== undefined && before !== undefined && compareQuantities(grown, before) > 0;
    },
    async (attrs) => {
      const deny = (why: string): ApiError => forbidden({ group: '', resource: 'persistentvolumeclaims' }, admissionName(attrs.object), why);
      const old = attrs.old as unknown as PersistentVolumeClaim;
      if (old.status?.phase !== 'Bound') throw deny('Only bound persistent volume claims can be expanded');
      const className = storageClassOf(attrs.object as unknown as PersistentVolumeClaim);
      const allowed = className !== '' && className === storageClassOf(old) && (await attrs.storage.lookup('storage.k8s.io', 'v1', 'storageclasses', '', className))?.['allowVolumeExpansion'] === true;
      if (!allowed) throw deny('only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    },
  ),
};

/** `plugins` without those named, as kube-apiserver's --disable-admission-plugins; an unknown name is an error, as upstream's. */
export function withoutPlugins(plugins: readonly AdmissionPlugin[], disabled: readonly string[]): AdmissionPlugin[] {
  const unknown = disabled.filter((name) => !plugins.some((p) => p.name === name));
  if (unknown.length > 0) throw new Error(unknown.map((name) => `disable-admission-plugins plugin "${name}" is unknown`).join('; '));
  return plugins.filter((p) => !disabled.includes(p.name));
}

export function builtinAdmissionPlugins(extra: readonly AdmissionPlugin[] = []): AdmissionPlugin[] {
  // PodSecurity validates after ServiceAccount and before Priority (AllOrderedPlugins). Mutating webhooks
  // mutate last; ValidatingAdmissionPolicy, the validating webhooks and then ResourceQuota validate last,
  // after every mutation, as upstream orders them.
  return [namespaceLifecycle, draAdminAccess, limitRangerAdmission, serviceAccount, taintNodesByCondition, podSecurity, defaultTolerationSeconds, defaultStorageClass, storageObjectInUseProtection, persistentVolumeClaimResize, priority, runtimeClass, defaultIngressClass, podTopologyLabels, serviceAllocation, rbacEscalation, certificateAdmission, ...extra, validatingAdmissionPolicy, admissionWebhooks, resourceQuotaAdmission];
}
