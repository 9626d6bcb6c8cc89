// The checks the restricted Pod Security Standard adds to baseline, with upstream's reasons and details.
// Upstream: staging/src/k8s.io/pod-security-admission/policy/check_{allowPrivilegeEscalation,
// capabilities_restricted,procMount_restricted,restrictedVolumes,runAsNonRoot,runAsUser,
// seccompProfile_restricted}.go (1.35).
import type { Volume } from '../../api/index.ts';
import type { Check, CheckPod } from './check.ts';
import { containersPhrase, containersWhere, inUserNamespace, isWindowsPod, joinQuote, pluralize, sortedSet } from './check.ts';
import { forbiddenSeccompTypes, procMountDefaultOnly, seccompSetters } from './baseline-checks.ts';

/** From 1.25 Windows pods are admitted without the Linux-only checks (validation forbids their fields). */
const exceptWindows =
  (check: CheckPod): CheckPod =>
  (meta, spec) =>
    isWindowsPod(spec) ? undefined : check(meta, spec);

/** From 1.35 pods in a user namespace are spared the checks of who they run as. */
const exceptUserNamespace =
  (check: CheckPod): CheckPod =>
  (meta, spec) =>
    inUserNamespace(spec) ? undefined : check(meta, spec);

const allowPrivilegeEscalation: CheckPod = (_meta, spec) => {
  const containers = containersWhere(spec, (c) => c.securityContext?.allowPrivilegeEscalation !== false);
  return containers.length === 0 ? undefined : { reason: 'allowPrivilegeEscalation != false', detail: `${containersPhrase(containers)} must set securityContext.allowPrivilegeEscalation=false` };
};

const capabilitiesRestricted: CheckPod = (_meta, spec) => {
  const added: string[] = [];
  const missingDropAll = containersWhere(spec, (c) => !(c.securityContext?.capabilities?.drop ?? []).includes('ALL'));
  const addingForbidden = containersWhere(spec, (c) => {
    const extra = (c.securityContext?.capabilities?.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    added.push(...extra);
    return extra.length > 0;
  });
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`);
  return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
};

const allowedVolumeSources = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'] as const;
// In upstream's order: a volume is named after the first of these it sets.
const restrictedVolumeSources = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs',
  'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
] as const;

const restrictedVolumeType = (v: Readonly<Volume>): string | undefined =>
  allowedVolumeSources.some((source) => v[source] != null) ? undefined : (restrictedVolumeSources.find((source) => v[source] != null) ?? 'unknown');

const restrictedVolumes: CheckPod = (_meta, spec) => {
  const names: string[] = [];
  const types: string[] = [];
  for (const volume of spec.volumes ?? []) {
    const type = restrictedVolumeType(volume);
    if (type === undefined) continue;
    names.push(volume.name);
    types.push(type);
  }
  if (names.length === 0) return undefined;
  const distinct = sortedSet(types);
  return {
    reason: 'restricted volume types',
    detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('restricted volume type', 'restricted volume types', distinct.length)} ${joinQuote(distinct)}`,
  };
};

const runAsNonRoot: CheckPod = (_meta, spec) => {
  const podValue = spec.securityContext?.runAsNonRoot;
  const setters = podValue === false ? ['pod'] : [];
  const unset: string[] = [];
  const explicit = containersWhere(spec, (c) => {
    const value = c.securityContext?.runAsNonRoot;
    if (value === undefined && podValue !== true) unset.push(c.name);
    return value === false;
  });
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length > 0) return { reason: 'runAsNonRoot != true', detail: `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
  if (unset.length > 0) return { reason: 'runAsNonRoot != true', detail: `pod or ${containersPhrase(unset)} must set securityContext.runAsNonRoot=true` };
  return undefined;
};

const runAsUser: CheckPod = (_meta, spec) => {
  const setters = spec.securityContext?.runAsUser === 0 ? ['pod'] : [];
  const containers = containersWhere(spec, (c) => c.securityContext?.runAsUser === 0);
  if (containers.length > 0) setters.push(containersPhrase(containers));
  return setters.length === 0 ? undefined : { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` };
};

const seccompProfileRestricted: CheckPod = (_meta, spec) => {
  const { setters, types, unset } = seccompSetters(spec);
  if (setters.length > 0) return forbiddenSeccompTypes(setters, types);
  if (unset.length > 0) return { reason: 'seccompProfile', detail: `pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
  return undefined;
};

const restricted = (id: string, versions: Check['versions'], overrides?: readonly string[]): Check => ({ id, level: 'restricted', versions, ...(overrides ? { overrides } : {}) });

export const restrictedChecks: readonly Check[] = [
  restricted('allowPrivilegeEscalation', [{ min: 8, check: allowPrivilegeEscalation }, { min: 25, check: exceptWindows(allowPrivilegeEscalation) }]),
  restricted('capabilities_restricted', [{ min: 22, check: capabilitiesRestricted }, { min: 25, check: exceptWindows(capabilitiesRestricted) }], ['capabilities_baseline']),
  restricted('procMount_restricted', [{ min: 35, check: procMountDefaultOnly }], ['procMount_baseline']),
  restricted('restrictedVolumes', [{ min: 0, check: restrictedVolumes }], ['hostPathVolumes']),
  restricted('runAsNonRoot', [{ min: 0, check: runAsNonRoot }, { min: 35, check: exceptUserNamespace(runAsNonRoot) }]),
  restricted('runAsUser', [{ min: 23, check: runAsUser }, { min: 35, check: exceptUserNamespace(runAsUser) }]),
  restricted('seccompProfile_restricted', [{ min: 19, check: seccompProfileRestricted }, { min: 25, check: exceptWindows(seccompProfileRestricted) }], ['seccompProfile_baseline']),
];
