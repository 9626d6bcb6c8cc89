// VolumeBinding's pure half: split a pod's claims, decide per node whether its volumes fit
// (bound volumes' node affinity, static volumes to bind, classes to provision), and build the
// API objects the bind writes. No I/O; the plugin passes the caches in.
// Upstream: pkg/scheduler/framework/plugins/volumebinding/binder.go (GetPodVolumeClaims,
// FindPodVolumes, findMatchingVolumes, checkVolumeProvisions, GetEligibleNodes),
// component-helpers/storage/volume/pv_helpers.go (FindMatchingVolume).
import type { Node, PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../api/index.ts';
import type { DeepReadonly, LabelSelector } from '../../core/index.ts';
import { compareQuantities, labelSelectorFromObject, parseQuantity, quantityFromValue } from '../../core/index.ts';
import { termMatches } from '../../api/index.ts';

export type PV = DeepReadonly<PersistentVolume>;
export type PVC = DeepReadonly<PersistentVolumeClaim>;
type SC = DeepReadonly<StorageClass>;

export const errReasonBindConflict = "node(s) didn't find available persistent volumes to bind";
export const errReasonNodeConflict = 'node(s) had volume node affinity conflict';
export const errReasonNotEnoughSpace = 'node(s) did not have enough free storage';
export const errReasonPVNotExist = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
export const selectedNodeAnnotation = 'volume.kubernetes.io/selected-node';
export const bindCompletedAnnotation = 'pv.kubernetes.io/bind-completed';
const boundByControllerAnnotation = 'pv.kubernetes.io/bound-by-controller';
const betaClassAnnotation = 'volume.beta.kubernetes.io/storage-class';
const notSupportedProvisioner = 'kubernetes.io/no-provisioner';

export interface Caches {
  pv(name: string): PV | undefined;
  /** Volumes of a class, for static binding. */
  pvsOfClass(className: string): readonly PV[];
  storageClass(name: string): SC | undefined;
  /** PVs another pod's reservation already took (assumed bindings). */
  isAssumed(pvName: string, claimKey: string): boolean;
  /** A node another pod's reservation chose for a claim not yet annotated. */
  assumedNode(claimKey: string): string | undefined;
}

export interface PodVolumeClaims {
  bound: PVC[];
  delayBinding: PVC[];
}

export interface PodVolumes {
  staticBindings: { pv: PV; pvc: PVC }[];
  dynamicProvisions: PVC[];
}

export const claimKey = (c: PVC): string => `${c.metadata.namespace ?? ''}/${c.metadata.name ?? ''}`;
export const claimClassName = (c: PVC): string => c.metadata.annotations?.[betaClassAnnotation] ?? c.spec?.storageClassName ?? '';
const volumeClassName = (v: PV): string => v.metadata.annotations?.[betaClassAnnotation] ?? v.spec?.storageClassName ?? '';

export function isFullyBound(c: PVC): boolean {
  return !!c.spec?.volumeName && c.metadata.annotations?.[bindCompletedAnnotation] !== undefined;
}

export function isDelayBinding(c: PVC, caches: Caches): boolean {
  const name = claimClassName(c);
  return name !== '' && caches.storageClass(name)?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** CheckNodeAffinity: a volume without required node affinity fits every node. */
export function volumeFitsNode(pv: PV, node: DeepReadonly<Node>): boolean {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return terms.some((t) => termMatches(t, node));
}

/** GetLocalPersistentVolumeNodeNames: the hostnames a volume's affinity pins it to. */
function pinnedNodes(pv: PV): Set<string> | undefined {
  const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return undefined;
  let result: Set<string> | undefined;
  for (const t of terms) {
    let nodes: Set<string> | undefined;
    for (const e of t.matchExpressions ?? []) {
      if (e.key !== 'kubernetes.io/hostname' || e.operator !== 'In') continue;
      const values = new Set(e.values ?? []);
      nodes = nodes ? new Set([...nodes].filter((n) => values.has(n))) : values;
    }
    if (nodes) result = new Set([...(result ?? []), ...nodes]);
  }
  return result;
}

/** GetEligibleNodes: intersect the pinned nodes of every bound volume (undefined: no restriction). */
export function eligibleNodes(bound: readonly PVC[], caches: Caches): Set<string> | undefined {
  let eligible: Set<string> | undefined;
  for (const c of bound) {
    const pv = caches.pv(c.spec?.volumeName ?? '');
    const pinned = pv ? pinnedNodes(pv) : undefined;
    if (!pinned || pinned.size === 0) continue;
    eligible = eligible ? new Set([...eligible].filter((n) => pinned.has(n))) : pinned;
  }
  return eligible;
}

const zero = quantityFromValue(0);
const storage = (text: string | undefined) => (text !== undefined ? parseQuantity(text) : undefined) ?? zero;

/** FindMatchingVolume on the scheduler path (node given, chosen volumes excluded). */
function findMatchingVolume(claim: PVC, volumes: readonly PV[], node: DeepReadonly<Node>, chosen: ReadonlySet<string>, caches: Caches): PV | undefined {
  const requested = storage(claim.spec?.resources?.requests?.['storage']);
  const selector = claim.spec?.selector ? labelSelectorFromObject(claim.spec.selector as LabelSelector) : undefined;
  const modes = claim.spec?.accessModes ?? [];
  let smallest: PV | undefined;
  for (const pv of volumes) {
    const name = pv.metadata.name ?? '';
    if (chosen.has(name) || caches.isAssumed(name, claimKey(claim))) continue;
    const ref = pv.spec?.claimRef;
    const preBound = !!ref && ref.name === claim.metadata.name && ref.namespace === claim.metadata.namespace && (!ref.uid || ref.uid === claim.metadata.uid);
    if (ref && !preBound) continue;
    const size = storage(pv.spec?.capacity?.['storage']);
    if (compareQuantities(size, requested) < 0) continue;
    if ((claim.spec?.volumeMode ?? 'Filesystem') !== (pv.spec?.volumeMode ?? 'Filesystem')) continue;
    if (pv.metadata.deletionTimestamp) continue;
    const fits = volumeFitsNode(pv, node);
    if (preBound) return fits ? pv : undefined;
    if (pv.status?.phase !== 'Available') continue;
    if (selector && ('error' in selector || !selector.matches(pv.metadata.labels))) continue;
    if (volumeClassName(pv) !== claimClassName(claim)) continue;
    if (!fits) continue;
    const offered = new Set(pv.spec?.accessModes ?? []);
    if (!modes.every((m) => offered.has(m))) continue;
    if (!smallest || compareQuantities(storage(smallest.spec?.capacity?.['storage']), size) > 0) smallest = pv;
  }
  return smallest;
}

/** TopologySelectorTerms: none means any node; otherwise one term must match all its expressions. */
function matchesAllowedTopologies(sc: SC, node: DeepReadonly<Node>): boolean {
  const terms = sc.allowedTopologies ?? [];
  if (terms.length === 0) return true;
  const labels = node.metadata.labels ?? {};
  return terms.some((t) => (t.matchLabelExpressions ?? []).every((e) => labels[e.key] !== undefined && e.values.includes(labels[e.key] ?? '')));
}

/**
 * FindPodVolumes: the reasons this node cannot take the pod's volumes (empty: it fits) and,
 * when it fits, what binding would do there.
 */
export function findPodVolumes(claims: PodVolumeClaims, node: DeepReadonly<Node>, caches: Caches): { reasons: string[]; volumes: PodVolumes } {
  const nodeName = node.metadata.name ?? '';
  let boundSatisfied = true;
  let boundPVsFound = true;
  let unboundSatisfied = true;
  const volumes: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
  for (const c of claims.bound) {
    const pv = caches.pv(c.spec?.volumeName ?? '');
    if (!pv) {
      boundPVsFound = false;
      break;
    }
    if (!volumeFitsNode(pv, node)) {
      boundSatisfied = false;
      break;
    }
  }
  if (boundSatisfied && boundPVsFound && claims.delayBinding.length > 0) {
    const toProvision: PVC[] = [];
    const toMatch: PVC[] = [];
    for (const c of claims.delayBinding) {
      const selected = c.metadata.annotations?.[selectedNodeAnnotation] ?? caches.assumedNode(claimKey(c));
      if (selected === undefined) toMatch.push(c);
      else if (selected !== nodeName) unboundSatisfied = false;
      else toProvision.push(c);
    }
    if (unboundSatisfied) {
      // Smallest requests first, so each gets the smallest volume that fits.
      toMatch.sort((a, b) => compareQuantities(storage(a.spec?.resources?.requests?.['storage']), storage(b.spec?.resources?.requests?.['storage'])));
      const chosen = new Set<string>();
      for (const c of toMatch) {
        const pv = findMatchingVolume(c, caches.pvsOfClass(claimClassName(c)), node, chosen, caches);
        if (pv) {
          chosen.add(pv.metadata.name ?? '');
          volumes.staticBindings.push({ pv, pvc: c });
        } else toProvision.push(c);
      }
      for (const c of toProvision) {
        const sc = caches.storageClass(claimClassName(c));
        if (!sc || !sc.provisioner || sc.provisioner === notSupportedProvisioner || !matchesAllowedTopologies(sc, node)) {
          unboundSatisfied = false;
          break;
        }
        volumes.dynamicProvisions.push(c);
      }
    }
  }
  const reasons: string[] = [];
  if (!boundSatisfied) reasons.push(errReasonNodeConflict);
  if (!unboundSatisfied) reasons.push(errReasonBindConflict);
  if (!boundPVsFound) reasons.push(errReasonPVNotExist);
  return { reasons, volumes };
}

/** GetBindVolumeToClaim: the volume pointed at the claim, marked ours unless pre-bound. */
export function volumeBoundToClaim(pv: PV, c: PVC): PersistentVolume | undefined {
  const ref = pv.spec?.claimRef;
  const preBound = !!ref && ref.name === c.metadata.name && ref.namespace === c.metadata.namespace && (!ref.uid || ref.uid === c.metadata.uid);
  const refChanged = !ref || ref.name !== c.metadata.name || ref.namespace !== c.metadata.namespace || ref.uid !== c.metadata.uid;
  const mark = !preBound && pv.metadata.annotations?.[boundByControllerAnnotation] === undefined;
  if (!refChanged && !mark) return undefined;
  const next = structuredClone(pv) as PersistentVolume;
  next.spec ??= {};
  if (refChanged) {
    next.spec.claimRef = {
      kind: 'PersistentVolumeClaim',
      namespace: c.metadata.namespace ?? '',
      name: c.metadata.name ?? '',
      uid: c.metadata.uid ?? '',
      apiVersion: 'v1',
      resourceVersion: c.metadata.resourceVersion ?? '',
    };
  }
  if (mark) next.metadata.annotations = { ...next.metadata.annotations, [boundByControllerAnnotation]: 'yes' };
  return next;
}
