// ImageVolume (beta, on by default in 1.35): a sync that starts containers first makes sure every
// image volume's image is on the node, with the same image manager, pull policy rules and events as a
// container's image, the events naming the pod rather than a container. A container that mounts a
// volume whose pull failed is not created, with the pull's reason (ErrImagePull, ImagePullBackOff,
// ErrImageNeverPull), before its own image is pulled. What is inside the image is not modelled: the
// volume's files stay unknown to exec, as the image's own are. A sync that starts nothing pulls
// nothing: 1.35.0 ensured the images on every sync, an event each time (kubernetes#138644, fixed by
// kubernetes#138655), which is not reproduced.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go (getImageVolumes, toKubeContainerImageVolumes),
// pkg/kubelet/images/image_manager.go (EnsureImageExists).
import type { Container } from '../api/index.ts';
import type { EnsureResult, ImageManager, ImageRequest } from './image-manager.ts';
import type { DeepReadonlyPod } from './types.ts';

export type ImageVolumePulls = ReadonlyMap<string, EnsureResult>;

export function hasImageVolumes(pod: DeepReadonlyPod): boolean {
  return pod.spec.volumes?.some((v) => v.image !== undefined) ?? false;
}

/** getImageVolumes: EnsureImageExists for each image volume in turn, a failure not stopping the others. */
export async function pullImageVolumes(images: ImageManager, pod: DeepReadonlyPod, podUID: string, event: ImageRequest['event']): Promise<ImageVolumePulls> {
  const results = new Map<string, EnsureResult>();
  for (const v of pod.spec.volumes ?? []) {
    if (!v.image) continue;
    const policy = v.image.pullPolicy ?? 'IfNotPresent';
    results.set(v.name, await images.ensure({ podUID, image: v.image.reference ?? '', policy, pullMs: 0, notFound: false, unauthorized: false, event }));
  }
  return results;
}

/** toKubeContainerImageVolumes: the first failed pull among the volumes container `c` mounts. */
export function mountedPullFailure(pulls: ImageVolumePulls, c: Readonly<Pick<Container, 'volumeMounts'>>): Exclude<EnsureResult, { ok: true }> | undefined {
  for (const m of c.volumeMounts ?? []) {
    const result = pulls.get(m.name);
    if (result && !result.ok) return result;
  }
  return undefined;
}
