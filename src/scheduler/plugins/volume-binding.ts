// VolumeBinding (stub): unbound PVCs of an Immediate class reject the pod; bound PVCs must have
// a PV whose node affinity admits the node; for unbound WaitForFirstConsumer PVCs PreBind
// annotates the claim with the chosen node (volume.kubernetes.io/selected-node) for the volume
// controller to provision and bind. Waiting for that binding is the volume controller's part.
// Upstream: pkg/scheduler/framework/plugins/volumebinding/volume_binding.go, binder.go.
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { KubeObject } from '../../core/index.ts';
import type { Plugin, PluginFactory } from '../framework.ts';
import { ActionType, errorStatus, skip, stateKey, success, unresolvable } from '../framework.ts';
import { termMatches } from './node-affinity.ts';

export const name = 'VolumeBinding';
export const errReasonBindConflict = "node(s) didn't find available persistent volumes to bind";
export const errReasonNodeConflict = 'node(s) had volume node affinity conflict';
export const errReasonUnboundImmediate = 'pod has unbound immediate PersistentVolumeClaims';
export const selectedNodeAnnotation = 'volume.kubernetes.io/selected-node';

interface StorageClassLike extends KubeObject {
  volumeBindingMode?: string;
}
interface BindingState {
  bound: PersistentVolume[];
  toSelect: PersistentVolumeClaim[];
}
const key = stateKey<BindingState>('PreFilterVolumeBinding');

export const newVolumeBinding: PluginFactory = (_args, handle) => {
  const pvcs = handle.informer<PersistentVolumeClaim>(refs.persistentVolumeClaims);
  const pvs = handle.informer<PersistentVolume>(refs.persistentVolumes);
  const classes = handle.informer<StorageClassLike>(refs.storageClasses);
  return {
    name,
    preFilter(state, pod) {
      if (pod.pvcKeys.length === 0) return skip;
      if (!pvcs.hasSynced()) return errorStatus(new Error('persistentvolumeclaims informer not synced'));
      const st: BindingState = { bound: [], toSelect: [] };
      for (const k of pod.pvcKeys) {
        const pvc = pvcs.get(k);
        if (!pvc) return unresolvable(`persistentvolumeclaim "${k.slice(k.indexOf('/') + 1)}" not found`);
        const volumeName = pvc.spec?.volumeName;
        if (volumeName) {
          const pv = pvs.get(volumeName);
          if (pv) st.bound.push(pv);
          continue;
        }
        const cls = pvc.spec?.storageClassName ? classes.get(pvc.spec.storageClassName) : undefined;
        if (cls?.volumeBindingMode !== 'WaitForFirstConsumer') return unresolvable(errReasonUnboundImmediate);
        st.toSelect.push(pvc);
      }
      state.write(key, st);
      return success;
    },
    filter(state, _pod, nodeInfo) {
      const st = state.read(key);
      const node = nodeInfo.node;
      if (!st || !node) return success;
      for (const pv of st.bound) {
        const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
        if (terms && !terms.some((t) => termMatches(t, node))) return unresolvable(errReasonNodeConflict);
      }
      return success;
    },
    async preBind(state, _pod, nodeName) {
      const st = state.read(key);
      for (const pvc of st?.toSelect ?? []) {
        if (pvc.metadata.annotations?.[selectedNodeAnnotation] === nodeName) continue;
        await handle.client.patch(refs.persistentVolumeClaims, pvc.metadata.namespace, pvc.metadata.name ?? '', 'merge', { metadata: { annotations: { [selectedNodeAnnotation]: nodeName } } });
      }
      return success;
    },
    eventsToRegister: () => [
      { event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ActionType.UpdateOther } },
      { event: { resource: 'PersistentVolume', actionType: ActionType.Add | ActionType.UpdateOther } },
      { event: { resource: 'StorageClass', actionType: ActionType.Add | ActionType.UpdateOther } },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel } },
    ],
  } satisfies Plugin;
};
