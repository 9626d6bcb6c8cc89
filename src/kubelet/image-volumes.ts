// ImageVolume (beta, on by default in 1.35): an image volume's image is pulled with the same image
// manager, pull policy rules and events as a container's, the events naming the pod rather than a
// container. A container that mounts a volume whose pull failed is not created, with the pull's
// reason (ErrImagePull, ImagePullBackOff, ErrImageNeverPull), before its own image is pulled. What is
// inside the image is not modelled: the volume's files stay unknown to exec, as the image's own are.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go (getImageVolumes, toKubeContainerImageVolumes),
// pkg/kubelet/images/image_manager.go (EnsureImageExists).
import type { Container } from '../api/index.ts';
import type { EnsureResult, ImageManager, ImageRequest, PullPolicy } from './image-manager.ts';
import type { DeepReadonlyPod } from './types.ts';

export interface ImageVolumeRef {
  name: string;
  reference: string;
  pullPolicy: PullPolicy;
}

/** The image volumes container `c` mounts, in the pod's volume order. */
export function mountedImageVolumes(pod: DeepReadonlyPod, c: Readonly<Pick<Container, 'volumeMounts'>>): ImageVolumeRef[] {
  const volumes = pod.spec.volumes;
  if (!volumes || !c.volumeMounts?.length) return [];
  const out: ImageVolumeRef[] = [];
  for (const v of volumes) {
    if (!v.image || !c.volumeMounts.some((m) => m.name === v.name)) continue;
    out.push({ name: v.name, reference: v.image.reference ?? '', pullPolicy: v.image.pullPolicy ?? 'IfNotPresent' });
  }
  return out;
}

/** EnsureImageExists for each volume in turn; the first that fails stops the container. */
export async function ensureImageVolumes(images: ImageManager, podUID: string, volumes: readonly ImageVolumeRef[], event: ImageRequest['event']): Promise<EnsureResult> {
  for (const v of volumes) {
    const result = await images.ensure({ podUID, image: v.reference, policy: v.pullPolicy, pullMs: 0, notFound: false, unauthorized: false, event });
    if (!result.ok) return result;
  }
  return { ok: true };
}
