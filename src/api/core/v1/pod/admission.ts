// Pod mutations upstream performs in admission plugins rather than scheme defaulting; the API server's
// admission chain calls these on pod create (not on subresources).
// Upstream: plugin/pkg/admission/defaulttolerationseconds, plugin/pkg/admission/serviceaccount,
// plugin/pkg/admission/priority.
import type { Container, Pod, PreemptionPolicy, Toleration } from './types.ts';
import type { ProjectedVolumeSource, Volume } from './volume-types.ts';

export const taintNodeNotReady = 'node.kubernetes.io/not-ready';
export const taintNodeUnreachable = 'node.kubernetes.io/unreachable';
export const defaultTolerationSeconds = 300;

function tolerates(tolerations: readonly Toleration[], key: string): boolean {
  return tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
}

/** DefaultTolerationSeconds: tolerate not-ready and unreachable NoExecute taints for 300s unless already tolerated. */
export function addDefaultTolerations(pod: Pod, seconds = defaultTolerationSeconds): void {
  const tolerations = pod.spec.tolerations ?? [];
  const add: Toleration[] = [];
  for (const key of [taintNodeNotReady, taintNodeUnreachable]) {
    if (!tolerates(tolerations, key)) add.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
  }
  if (add.length > 0) pod.spec.tolerations = [...tolerations, ...add];
}

export const serviceAccountTokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * ServiceAccount admission: serviceAccountName defaults to "default". With a `tokenVolumeSuffix` (5 random
 * characters from the caller's Random) it also adds the projected `kube-api-access-<suffix>` volume and
 * mounts it in every container that has no mount at the token path, unless automountServiceAccountToken is false.
 */
export function addDefaultServiceAccount(pod: Pod, opts: { tokenVolumeSuffix?: string; account?: { automountServiceAccountToken?: boolean; imagePullSecrets?: { name?: string }[] } } = {}): void {
  const spec = pod.spec;
  if (!spec.serviceAccountName) spec.serviceAccountName = 'default';
  spec.serviceAccount = spec.serviceAccountName;
  // The account's pull secrets serve a pod that names none.
  const pullSecrets = opts.account?.imagePullSecrets ?? [];
  if (!spec.imagePullSecrets?.length && pullSecrets.length > 0) spec.imagePullSecrets = pullSecrets.map((s) => ({ name: s.name ?? '' }));
  // shouldAutomount: the pod's own setting wins, then the account's.
  const automount = spec.automountServiceAccountToken ?? opts.account?.automountServiceAccountToken ?? true;
  if (opts.tokenVolumeSuffix === undefined || !automount) return;
  // mountServiceAccountToken: a kube-api-access-* volume the pod has is the one mounted; each container
  // that mounts nothing at the token path gets the mount; the volume is added when one needed it.
  const existing = spec.volumes?.find((v) => v.name.startsWith('kube-api-access-'));
  const name = existing?.name ?? `kube-api-access-${opts.tokenVolumeSuffix}`;
  const initMounted = addTokenMount(spec.initContainers ?? [], name);
  const mounted = addTokenMount(spec.containers ?? [], name);
  if (existing || !(initMounted || mounted)) return;
  const volume: Volume = { name, projected: kubeApiAccessSource() };
  spec.volumes = spec.volumes === undefined ? [volume] : [...spec.volumes, volume];
}

/** Mounts volume `name` at the token path in each container that mounts nothing there; whether any did. */
function addTokenMount(containers: readonly Container[], name: string): boolean {
  let added = false;
  for (const c of containers) {
    if (c.volumeMounts?.some((m) => m.mountPath === serviceAccountTokenMountPath)) continue;
    const mount = { name, readOnly: true, mountPath: serviceAccountTokenMountPath };
    c.volumeMounts = c.volumeMounts === undefined ? [mount] : [...c.volumeMounts, mount];
    added = true;
  }
  return added;
}

/**
 * The projected source of kube-api-access-<suffix>: the token, the cluster CA and the namespace. Built
 * from one-level literals: V8 copies a nested literal's boilerplate in a runtime call (~0.8 us a
 * pod create, most of the plugin's time), a flat one inline.
 */
function kubeApiAccessSource(): ProjectedVolumeSource {
  const token = { expirationSeconds: 3607, path: 'token' };
  const caItem = { key: 'ca.crt', path: 'ca.crt' };
  const ca = { name: 'kube-root-ca.crt', items: [caItem] };
  const fieldRef = { apiVersion: 'v1', fieldPath: 'metadata.namespace' };
  const namespaceItem = { path: 'namespace', fieldRef };
  const namespace = { items: [namespaceItem] };
  return { defaultMode: 0o644, sources: [{ serviceAccountToken: token }, { configMap: ca }, { downwardAPI: namespace }] };
}

/** What Priority admission needs of a PriorityClass. */
export interface PriorityClassInfo {
  name: string;
  value: number;
  preemptionPolicy?: PreemptionPolicy;
}

/**
 * Priority admission on a pod's create: priority comes from the named class, else the global default
 * class, else 0; preemptionPolicy from the class (PreemptLowerPriority by default). Returns why the pod
 * is refused (the caller answers 403 with it): an unknown class, or a priority or policy set by hand
 * that differs from what the class gives. Upstream: plugin/pkg/admission/priority/admission.go (admitPod).
 */
export function admitPodPriority(pod: Pod, lookup: (name: string) => PriorityClassInfo | undefined, globalDefault?: PriorityClassInfo): string | undefined {
  const spec = pod.spec;
  let cls: PriorityClassInfo | undefined;
  if (spec.priorityClassName) {
    cls = lookup(spec.priorityClassName);
    if (!cls) return `no PriorityClass with name ${spec.priorityClassName} was found`;
  } else if (globalDefault) {
    cls = globalDefault;
    spec.priorityClassName = globalDefault.name;
  }
  const priority = cls?.value ?? 0;
  if (spec.priority !== undefined && spec.priority !== priority) {
    return `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`;
  }
  spec.priority = priority;
  const policy = cls?.preemptionPolicy ?? 'PreemptLowerPriority';
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
    return `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`;
  }
  spec.preemptionPolicy = policy;
  return undefined;
}
