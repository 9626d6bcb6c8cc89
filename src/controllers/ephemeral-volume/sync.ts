// syncPod: the claim of each generic ephemeral volume of a pod, `<pod>-<volume>`, created from the
// volume's template and controlled by the pod, so the garbage collector deletes it with the pod.
// Upstream: pkg/controller/volume/ephemeral/controller.go (syncHandler, handleVolume),
// component-helpers/storage/ephemeral/ephemeral.go (VolumeClaimName, VolumeIsForPod).
import { ephemeralClaimName, ephemeralClaimNotForPod, refs } from '../../api/index.ts';
import type { PersistentVolumeClaim, Pod, Volume } from '../../api/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { newControllerRef } from '../controller-ref.ts';
import type { EventRecorder } from '../event-recorder.ts';

type PodRO = DeepReadonly<Pod>;
type VolumeRO = DeepReadonly<Volume>;

/** pkg/controller/volume/events: the reason of every failure this controller records on a pod. */
export const FailedBinding = 'FailedBinding';

export interface SyncContext {
  client: Client;
  pods: Informer<Pod>;
  claims: Informer<PersistentVolumeClaim>;
  recorder: EventRecorder;
}

/** The claim upstream creates: the template's labels, annotations and spec, and the pod as controller. */
export function ephemeralClaim(pod: PodRO, volume: VolumeRO): PersistentVolumeClaim {
  const template = volume.ephemeral?.volumeClaimTemplate;
  const labels = template?.metadata?.labels;
  const annotations = template?.metadata?.annotations;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: ephemeralClaimName(pod, volume),
      ownerReferences: [newControllerRef(pod, 'v1', 'Pod')],
      // Go's omitempty: an empty map is not sent.
      ...(annotations && Object.keys(annotations).length > 0 ? { annotations: { ...annotations } } : {}),
      ...(labels && Object.keys(labels).length > 0 ? { labels: { ...labels } } : {}),
    },
    spec: structuredClone(template?.spec ?? {}) as NonNullable<PersistentVolumeClaim['spec']>,
  };
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Throws (to be retried with back-off) after recording a FailedBinding event on the pod. */
export async function syncPod(ctx: SyncContext, key: string): Promise<void> {
  const pod = ctx.pods.get(key);
  // Gone, or going: the garbage collector deletes its claims.
  if (!pod || pod.metadata.deletionTimestamp) return;
  for (const volume of pod.spec.volumes ?? []) {
    try {
      await handleVolume(ctx, pod, volume);
    } catch (error) {
      ctx.recorder.event(pod, 'Warning', FailedBinding, `ephemeral volume ${volume.name}: ${message(error)}`);
      throw new Error(`pod ${key}, ephemeral volume ${volume.name}: ${message(error)}`);
    }
  }
}

async function handleVolume(ctx: SyncContext, pod: PodRO, volume: VolumeRO): Promise<void> {
  if (!volume.ephemeral) return;
  const name = ephemeralClaimName(pod, volume);
  const existing = ctx.claims.getByName(pod.metadata.namespace, name);
  if (existing) {
    const problem = ephemeralClaimNotForPod(pod, existing);
    if (problem) throw new Error(problem);
    return;
  }
  try {
    await ctx.client.create<PersistentVolumeClaim>(refs.persistentVolumeClaims, ephemeralClaim(pod, volume), { namespace: pod.metadata.namespace ?? 'default' });
  } catch (error) {
    throw new Error(`create PVC ${name}: ${message(error)}`);
  }
}
