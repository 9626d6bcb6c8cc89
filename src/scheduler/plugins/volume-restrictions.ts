// VolumeRestrictions (ReadWriteOncePod): a PVC with access mode ReadWriteOncePod may be used by
// one pod in the whole cluster; while another scheduled pod uses it, every node rejects the pod,
// its own node included. Preemption may evict the holder (AddPod/RemovePod keep the count).
// Upstream: pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go (readWriteOncePodPVCsForPod).
import type { PersistentVolumeClaim } from '../../api/index.ts';
import { refs } from '../../api/index.ts';
import type { Cloneable, Plugin, PluginFactory } from '../framework.ts';
import { ActionType, errorStatus, skip, stateKey, success, unresolvable, unschedulable } from '../framework.ts';

export const name = 'VolumeRestrictions';
export const errReasonReadWriteOncePodConflict = 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';

class RwopState implements Cloneable<RwopState> {
  keys: ReadonlySet<string>;
  conflicting: number;
  constructor(keys: ReadonlySet<string>, conflicting: number) {
    this.keys = keys;
    this.conflicting = conflicting;
  }
  clone(): RwopState {
    return new RwopState(this.keys, this.conflicting);
  }
}
const key = stateKey<RwopState>('PreFilterVolumeRestrictions');

export const newVolumeRestrictions: PluginFactory = (_args, handle) => {
  const pvcs = handle.informer<PersistentVolumeClaim>(refs.persistentVolumeClaims);
  const adjust = (s: RwopState | undefined, pvcKeys: readonly string[], by: number): void => {
    if (!s) return;
    for (const k of pvcKeys) if (s.keys.has(k)) s.conflicting += by;
  };
  return {
    name,
    preFilter(state, pod) {
      // Only persistentVolumeClaim volumes: a generic ephemeral volume's claim is VolumeBinding's to wait for.
      const claimNames = (pod.pod.spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : []));
      if (claimNames.length === 0) return skip;
      if (!pvcs.hasSynced()) return errorStatus(new Error('persistentvolumeclaims informer not synced'));
      const rwop = new Set<string>();
      for (const claimName of claimNames) {
        const k = `${pod.pod.metadata.namespace ?? ''}/${claimName}`;
        const pvc = pvcs.get(k);
        if (!pvc) return unresolvable(`persistentvolumeclaim ${JSON.stringify(claimName)} not found`);
        if (pvc.spec?.accessModes?.includes('ReadWriteOncePod')) rwop.add(k);
      }
      let conflicting = 0;
      const snap = handle.snapshot();
      for (const k of rwop) if (snap.pvcRefCount(k) > 0) conflicting++;
      if (conflicting === 0) return skip;
      state.write(key, new RwopState(rwop, conflicting));
      return success;
    },
    preFilterExtensions: {
      addPod(state, _pod, toAdd) {
        adjust(state.read(key), toAdd.pvcKeys, 1);
        return success;
      },
      removePod(state, _pod, toRemove) {
        adjust(state.read(key), toRemove.pvcKeys, -1);
        return success;
      },
    },
    filter(state) {
      const s = state.read(key);
      return s && s.conflicting > 0 ? unschedulable(errReasonReadWriteOncePodConflict) : success;
    },
    eventsToRegister: () => [
      { event: { resource: 'AssignedPod', actionType: ActionType.Delete } },
      { event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ActionType.UpdateOther } },
      { event: { resource: 'Node', actionType: ActionType.Add } },
    ],
  } satisfies Plugin;
};
