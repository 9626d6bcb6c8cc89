// VolumeBinding: a pod's claims must be bound, or bindable on the node. PreFilter splits the
// claims (missing, unbound Immediate and Lost ones reject the pod) and narrows the nodes to those
// bound local volumes pin it to; Filter checks bound volumes' node affinity and finds static
// volumes or a provisioner for WaitForFirstConsumer claims; Reserve assumes the choice; PreBind
// writes it (PV claimRef, or the claim's selected-node annotation for the provisioner) and waits,
// polling each second up to bindTimeoutSeconds, until the PV controller has bound every claim.
// Upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding.go (podHasPVCs), binder.go (BindPodVolumes,
// checkBindings); component-helpers/storage/ephemeral (VolumeIsForPod).
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/index.ts';
import { ephemeralClaimName, ephemeralClaimNotForPod, refs } from '../../api/index.ts';
import type { PluginFactory, Plugin, PodRO } from '../framework.ts';
import { ActionType, errorStatus, skip, stateKey, success, unresolvable } from '../framework.ts';
import type { Caches, PodVolumeClaims, PodVolumes, PVC } from './volume-binding-binder.ts';
import { claimKey, eligibleNodes, findPodVolumes, isDelayBinding, isFullyBound, selectedNodeAnnotation, volumeBoundToClaim, volumeFitsNode } from './volume-binding-binder.ts';

export { errReasonBindConflict, errReasonNodeConflict, errReasonNotEnoughSpace, errReasonPVNotExist, selectedNodeAnnotation } from './volume-binding-binder.ts';
export const name = 'VolumeBinding';
export const errReasonUnboundImmediate = 'pod has unbound immediate PersistentVolumeClaims';
const defaultBindTimeoutSeconds = 600;

interface BindingState {
  claims: PodVolumeClaims;
  /** Set by Reserve for the chosen node; undefined = all claims already bound. */
  reserved?: PodVolumes;
}
const key = stateKey<BindingState>('PreFilterVolumeBinding');

interface PodClaim {
  readonly namespace: string;
  readonly claimName: string;
  /** A generic ephemeral volume's claim, `<pod>-<volume>`, which the ephemeral volume controller creates. */
  readonly ephemeral: boolean;
}

function podClaims(pod: PodRO): PodClaim[] {
  const namespace = pod.metadata.namespace ?? '';
  const out: PodClaim[] = [];
  for (const v of pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push({ namespace, claimName: v.persistentVolumeClaim.claimName, ephemeral: false });
    else if (v.ephemeral) out.push({ namespace, claimName: ephemeralClaimName(pod, v), ephemeral: true });
  }
  return out;
}

/** Why the pod cannot use this claim at all, in upstream's words (podHasPVCs), or undefined. */
function claimProblem(pod: PodRO, v: PodClaim, pvc: PVC | undefined): string | undefined {
  const quoted = JSON.stringify(v.claimName);
  if (!pvc) return v.ephemeral ? `waiting for ephemeral volume controller to create the persistentvolumeclaim ${quoted}` : `persistentvolumeclaim ${quoted} not found`;
  if (pvc.status?.phase === 'Lost') return `persistentvolumeclaim ${quoted} bound to non-existent persistentvolume ${JSON.stringify(pvc.spec?.volumeName ?? '')}`;
  if (pvc.metadata.deletionTimestamp) return `persistentvolumeclaim ${quoted} is being deleted`;
  // A claim of that name the pod does not control is someone else's.
  return v.ephemeral ? ephemeralClaimNotForPod(pod, pvc) : undefined;
}

export const newVolumeBinding: PluginFactory = (args, handle) => {
  const pvcs = handle.informer<PersistentVolumeClaim>(refs.persistentVolumeClaims);
  const pvs = handle.informer<PersistentVolume>(refs.persistentVolumes);
  const classes = handle.informer<StorageClass>(refs.storageClasses);
  const pods = handle.informer<Pod>(refs.pods);
  const nodes = handle.informer<Node>(refs.nodes);
  const bindTimeoutMs = (typeof args['bindTimeoutSeconds'] === 'number' ? args['bindTimeoutSeconds'] : defaultBindTimeoutSeconds) * 1000;
  // The assume cache: reservations not yet visible in the API (pv name -> claim key; claim key -> node).
  const assumedPVs = new Map<string, string>();
  const assumedNodes = new Map<string, string>();
  const caches: Caches = {
    pv: (n) => pvs.get(n),
    pvsOfClass: (cls) => pvs.list().filter((pv) => (pv.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pv.spec?.storageClassName ?? '') === cls),
    storageClass: (n) => classes.get(n),
    isAssumed: (pvName, claim) => {
      const holder = assumedPVs.get(pvName);
      return holder !== undefined && holder !== claim;
    },
    assumedNode: (claim) => assumedNodes.get(claim),
  };
  const revert = (v: PodVolumes | undefined): void => {
    for (const b of v?.staticBindings ?? []) if (assumedPVs.get(b.pv.metadata.name ?? '') === claimKey(b.pvc)) assumedPVs.delete(b.pv.metadata.name ?? '');
    for (const c of v?.dynamicProvisions ?? []) assumedNodes.delete(claimKey(c));
  };

  /** checkBindings: true when every claim is fully bound; throws when binding must be retried. */
  const checkBindings = (pod: { metadata: { namespace?: string | undefined; name?: string | undefined } }, nodeName: string, v: PodVolumes): boolean => {
    const node = nodes.get(nodeName);
    if (!node) throw new Error(`failed to get node ${JSON.stringify(nodeName)}: node ${JSON.stringify(nodeName)} not found`);
    if (!pods.get(`${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`)) {
      throw new Error(`pod does not exist any more: pod ${JSON.stringify(pod.metadata.name ?? '')} not found`);
    }
    for (const b of v.staticBindings) {
      const pv = pvs.get(b.pv.metadata.name ?? '');
      const pvc = pvcs.get(claimKey(b.pvc));
      if (!pv) throw new Error(`failed to check binding: cannot find PV ${JSON.stringify(b.pv.metadata.name ?? '')}`);
      if (!pvc) throw new Error(`failed to check binding: cannot find PVC ${JSON.stringify(claimKey(b.pvc))}`);
      if (Number(pv.metadata.resourceVersion) < Number(b.pv.metadata.resourceVersion)) return false;
      if (!volumeFitsNode(pv, node)) throw new Error(`pv ${JSON.stringify(pv.metadata.name ?? '')} node affinity doesn't match node ${JSON.stringify(nodeName)}: no matching NodeSelectorTerms`);
      if (!pv.spec?.claimRef?.uid) throw new Error(`ClaimRef got reset for pv ${JSON.stringify(pv.metadata.name ?? '')}`);
      if (!isFullyBound(pvc)) return false;
    }
    for (const c of v.dynamicProvisions) {
      const pvc = pvcs.get(claimKey(c));
      if (!pvc) throw new Error(`failed to check provisioning pvc: cannot find PVC ${JSON.stringify(claimKey(c))}`);
      if (Number(pvc.metadata.resourceVersion) < Number(c.metadata.resourceVersion)) return false;
      // The provisioner drops the annotation when it fails, to have the pod scheduled again.
      if (pvc.metadata.annotations?.[selectedNodeAnnotation] !== nodeName) throw new Error(`provisioning failed for PVC ${JSON.stringify(pvc.metadata.name ?? '')}`);
      const volumeName = pvc.spec?.volumeName;
      if (volumeName) {
        const pv = pvs.get(volumeName);
        if (!pv) return false;
        if (!volumeFitsNode(pv, node)) throw new Error(`pv ${JSON.stringify(volumeName)} node affinity doesn't match node ${JSON.stringify(nodeName)}: no matching NodeSelectorTerms`);
      }
      if (!isFullyBound(pvc)) return false;
    }
    return true;
  };

  return {
    name,
    preFilter(state, pod) {
      if (pod.pvcKeys.length === 0) return skip;
      if (!pvcs.hasSynced() || !pvs.hasSynced() || !classes.hasSynced()) return errorStatus(new Error('volume informers not synced'));
      const found: PVC[] = [];
      for (const v of podClaims(pod.pod)) {
        const pvc = pvcs.get(`${v.namespace}/${v.claimName}`);
        const problem = claimProblem(pod.pod, v, pvc);
        if (problem !== undefined || !pvc) return unresolvable(problem ?? '');
        found.push(pvc);
      }
      const claims: PodVolumeClaims = { bound: [], delayBinding: [] };
      for (const pvc of found) {
        if (isFullyBound(pvc)) claims.bound.push(pvc);
        // A claim naming its volume is bound by the PV controller, never by us.
        else if (isDelayBinding(pvc, caches) && !pvc.spec?.volumeName) claims.delayBinding.push(pvc);
        else return unresolvable(errReasonUnboundImmediate);
      }
      state.write(key, { claims });
      const eligible = eligibleNodes(claims.bound, caches);
      return eligible ? { status: success, nodeNames: eligible } : success;
    },
    filter(state, _pod, nodeInfo) {
      const st = state.read(key);
      const node = nodeInfo.node;
      if (!st || !node) return success;
      const { reasons } = findPodVolumes(st.claims, node, caches);
      return reasons.length > 0 ? unresolvable(...reasons) : success;
    },
    reserve(state, _pod, nodeName) {
      const st = state.read(key);
      const node = handle.snapshot().get(nodeName)?.node;
      if (!st || !node) return success;
      if (st.claims.delayBinding.length === 0) return success;
      const { reasons, volumes } = findPodVolumes(st.claims, node, caches);
      if (reasons.length > 0) return unresolvable(...reasons);
      for (const b of volumes.staticBindings) assumedPVs.set(b.pv.metadata.name ?? '', claimKey(b.pvc));
      for (const c of volumes.dynamicProvisions) assumedNodes.set(claimKey(c), nodeName);
      st.reserved = volumes;
      return success;
    },
    unreserve(state) {
      const st = state.read(key);
      revert(st?.reserved);
      if (st) delete st.reserved;
    },
    async preBind(state, pod, nodeName) {
      const v = state.read(key)?.reserved;
      if (!v) return success;
      try {
        const staticBindings: PodVolumes['staticBindings'] = [];
        for (const b of v.staticBindings) {
          const next = volumeBoundToClaim(b.pv, b.pvc);
          const pv = next ? await handle.client.update<PersistentVolume>(refs.persistentVolumes, next) : b.pv;
          staticBindings.push({ pv, pvc: b.pvc });
        }
        const dynamicProvisions: PVC[] = [];
        for (const c of v.dynamicProvisions) {
          const latest = pvcs.get(claimKey(c)) ?? c;
          if (latest.metadata.annotations?.[selectedNodeAnnotation] === nodeName) {
            dynamicProvisions.push(latest);
            continue;
          }
          const next = structuredClone(latest) as PersistentVolumeClaim;
          next.metadata.annotations = { ...next.metadata.annotations, [selectedNodeAnnotation]: nodeName };
          dynamicProvisions.push(await handle.client.update<PersistentVolumeClaim>(refs.persistentVolumeClaims, next));
        }
        const written: PodVolumes = { staticBindings, dynamicProvisions };
        const deadline = handle.clock.now() + bindTimeoutMs;
        for (;;) {
          const wait = Math.min(1000, deadline - handle.clock.now());
          if (wait <= 0) throw new Error('binding volumes: context deadline exceeded');
          await handle.clock.sleep(wait);
          try {
            if (checkBindings(pod.pod, nodeName, written)) break;
          } catch (error) {
            throw new Error(`binding volumes: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        return success;
      } catch (error) {
        return errorStatus(error);
      } finally {
        revert(v);
      }
    },
    eventsToRegister: () => [
      { event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ActionType.UpdateOther } },
      { event: { resource: 'PersistentVolume', actionType: ActionType.Add | ActionType.UpdateOther } },
      { event: { resource: 'StorageClass', actionType: ActionType.Add | ActionType.UpdateOther } },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint } },
    ],
  } satisfies Plugin;
};

