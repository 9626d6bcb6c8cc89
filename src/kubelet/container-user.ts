// The identity the runtime gives a container's first process, which the kubelet reports as
// status.containerStatuses[].user (SupplementalGroupsPolicy, GA in 1.35). The kubelet hands the CRI
// runAsUser and runAsGroup (the container's over the pod's) and fsGroup followed by supplementalGroups;
// containerd 2 adds the primary group and, under Merge, the image's /etc/group memberships of the user,
// and keeps the set sorted. A simulated image is a root-only one: its user is 0:0, a uid it does not
// list has group 0, and /etc/group makes no one a member of anything, so Merge and Strict agree here.
// Upstream: pkg/kubelet/kuberuntime/security_context.go (determineEffectiveSecurityContext),
// pkg/kubelet/kubelet_pods.go (convertContainerStatusUser), containerd internal/cri
// (WithAdditionalGIDs, WithSupplementalGroups, mergeGids).
import type { ContainerUser, PodSecurityContext, SecurityContext } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';

const imageUser = { uid: 0, gid: 0 };

/** The Linux user of a container of a pod with security context `pod`, its own being `own`. */
export function containerUser(pod: DeepReadonly<PodSecurityContext> | undefined, own: DeepReadonly<SecurityContext> | undefined): ContainerUser {
  const uid = own?.runAsUser ?? pod?.runAsUser ?? imageUser.uid;
  const gid = own?.runAsGroup ?? pod?.runAsGroup ?? imageUser.gid;
  const groups = new Set<number>([gid]);
  if (pod?.fsGroup !== undefined) groups.add(pod.fsGroup);
  for (const g of pod?.supplementalGroups ?? []) groups.add(g);
  return { linux: { uid, gid, supplementalGroups: [...groups].sort((a, b) => a - b) } };
}
