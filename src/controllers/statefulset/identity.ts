// A StatefulSet pod's identity and storage: its name and ordinal, the labels and hostname that
// carry them, the claims of its volumeClaimTemplates, and the pod built from a revision's template.
// Pure. Upstream: pkg/controller/statefulset/stateful_set_utils.go (getPodName, getOrdinal,
// getPersistentVolumeClaimName, updateIdentity, updateStorage, newStatefulSetPod, getPersistentVolumeClaims).
import { PodIndexLabel, StatefulSetPodNameLabel } from '../../api/index.ts';
import type { PersistentVolumeClaim, Pod, PodTemplateSpec, StatefulSet } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { copyJson } from '../../core/index.ts';
import { newControllerRef } from '../controller-ref.ts';

type ReadonlySet = DeepReadonly<StatefulSet>;

/** The label a pod carries with the name of the revision it was made from. */
export const ControllerRevisionHashLabel = 'controller-revision-hash';

export const startOrdinal = (set: ReadonlySet): number => set.spec.ordinals?.start ?? 0;
export const podName = (set: ReadonlySet, ordinal: number): string => `${set.metadata.name ?? ''}-${ordinal}`;
export const claimName = (set: ReadonlySet, template: string, ordinal: number): string => `${template}-${set.metadata.name ?? ''}-${ordinal}`;

/** getParentNameAndOrdinal: `web-3` of set `web` is ordinal 3; anything else is not one of its pods. */
export function ordinalOf(set: ReadonlySet, pod: DeepReadonly<Pod>): number | undefined {
  const m = /^(.*)-([0-9]+)$/.exec(pod.metadata.name ?? '');
  if (!m || m[1] !== set.metadata.name) return undefined;
  return Number(m[2]);
}

export const podRevision = (pod: DeepReadonly<Pod>): string => pod.metadata.labels?.[ControllerRevisionHashLabel] ?? '';

/** The claims a pod of this ordinal uses: the templates' labels plus the selector's, as upstream sets them. */
export function claimsFor(set: ReadonlySet, ordinal: number): PersistentVolumeClaim[] {
  return (set.spec.volumeClaimTemplates ?? []).map((t) => {
    const claim = copyJson(t) as PersistentVolumeClaim;
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    claim.metadata = {
      ...claim.metadata,
      name: claimName(set, t.metadata.name ?? '', ordinal),
      namespace: set.metadata.namespace ?? '',
      labels: { ...t.metadata.labels, ...set.spec.selector?.matchLabels },
    };
    delete claim.status;
    return claim;
  });
}

/** newStatefulSetPod from a template: named, labelled and hostnamed by ordinal, with its claims mounted. */
export function newStatefulSetPod(set: ReadonlySet, template: DeepReadonly<PodTemplateSpec>, ordinal: number, revision: string): Pod {
  const t = copyJson(template) as PodTemplateSpec;
  const name = podName(set, ordinal);
  const spec = (t.spec ?? { containers: [] }) as Pod['spec'];
  spec.hostname = name;
  if (set.spec.serviceName) spec.subdomain = set.spec.serviceName;
  // updateStorage: a claim template replaces any template volume of the same name.
  const claims = (set.spec.volumeClaimTemplates ?? []).map((c) => c.metadata.name ?? '');
  const volumes = (spec.volumes ?? []).filter((v) => !claims.includes(v.name));
  for (const c of claims) volumes.push({ name: c, persistentVolumeClaim: { claimName: claimName(set, c, ordinal) } });
  if (volumes.length > 0) spec.volumes = volumes;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.metadata.namespace ?? '',
      labels: { ...t.metadata?.labels, [StatefulSetPodNameLabel]: name, [PodIndexLabel]: String(ordinal), [ControllerRevisionHashLabel]: revision },
      ownerReferences: [newControllerRef(set, 'apps/v1', 'StatefulSet')],
    },
    spec,
  };
  if (t.metadata?.annotations) pod.metadata.annotations = t.metadata.annotations;
  if (t.metadata?.finalizers) pod.metadata.finalizers = t.metadata.finalizers;
  return pod;
}
