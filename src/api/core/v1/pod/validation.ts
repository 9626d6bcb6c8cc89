// Pod create validation: the PodSpec rules (containers, init containers and sidecars, volumes, claims,
// scheduling fields) plus the pod-only checks. validatePodSpec is shared with pod templates.
// Upstream: pkg/apis/core/validation/validation.go (ValidatePodCreate, ValidatePodSpec, validateContainers,
// validateInitContainers, ValidateTolerations, validateAffinity, validateTopologySpreadConstraints).
import { duplicate, FieldPath, forbiddenField, invalidValue, notFoundField, notSupported, pushErrors, required, tooLong } from '../../../../core/index.ts';
import type { FieldError } from '../../../../core/index.ts';
import type { LabelSelector } from '../../../../core/index.ts';
import { nameIsDNSSubdomain, validateObjectMeta } from '../../../validation/index.ts';
import type { Container, Pod, PodAffinityTerm, PodSpec, Toleration } from './types.ts';
import type { ImageVolumeSource } from './volume-types.ts';
import { validateNodeSelector, validateNodeSelectorTerm } from '../node-selector-validation.ts';
import { validateContainerCommon, validateLifecycleAndProbes, validatePullPolicy, validateResourceRequirements } from './container-validation.ts';
import type { ContainerContext } from './container-validation.ts';
import { validateMatchLabelKeysAndMismatchLabelKeys } from './match-label-keys.ts';
import { podUsesHostUsers, validateHostUsers, validatePodSecurityContextPolicies } from './security-context-validation.ts';
import { parsePodDeletionCost, validatePodDeletionCost } from './deletion-cost.ts';
import { inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './syntax.ts';

export interface PodSpecValidationOptions {
  /** True for a Pod; false for a template (hostPort 0 stays allowed with hostNetwork). */
  resourceIsPod: boolean;
}

const maxInt32 = 2147483647;
const initOnlyDetail = 'may not be set for init containers without restartPolicy=Always';

// ContainerRestartRules (KEP-5307): beta and on by default in 1.35, so a regular container or a regular
// init container may carry its own restartPolicy and exit-code rules. The action RestartAllContainers
// (KEP-5532) is alpha and off in 1.35: only Restart is supported, and a sidecar may carry no rules.
// Upstream: pkg/apis/core/validation/validation.go (validateContainerRestartPolicy,
// validateInitContainerRestartPolicy), pkg/api/pod/util.go (AllowContainerRestartPolicyRules).
const containerRestartPolicies = ['Always', 'Never', 'OnFailure'] as const; // sets.List: sorted
const restartRuleActions = ['Restart'] as const;
const restartRuleOperators = ['In', 'NotIn'] as const;
const maxRestartRules = 20;
const maxRestartRuleExitCodes = 255;

/** The container-level restartPolicy and restartPolicyRules of a regular container or regular init container. */
function validateContainerRestartPolicy(c: Container, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = c.restartPolicyRules ?? [];
  if (c.restartPolicy === undefined) {
    if (rules.length === 0) return errs;
    errs.push(required(path.child('restartPolicy'), 'must specify restartPolicy when restart rules are used'));
  } else if (!(containerRestartPolicies as readonly string[]).includes(c.restartPolicy)) {
    errs.push(notSupported(path.child('restartPolicy'), c.restartPolicy, containerRestartPolicies));
  }
  const rulesPath = path.child('restartPolicyRules');
  // 1.35 reports both limits with field.TooLong, hence "bytes"; later releases switch to field.TooMany.
  if (rules.length > maxRestartRules) errs.push(tooLong(rulesPath, maxRestartRules));
  rules.forEach((rule, i) => {
    const rp = rulesPath.index(i);
    if (!(restartRuleActions as readonly string[]).includes(rule.action)) errs.push(notSupported(rp.child('action'), rule.action ?? '', restartRuleActions));
    if (!rule.exitCodes) {
      errs.push(required(rp.child('exitCodes'), 'must be specified'));
      return;
    }
    const ep = rp.child('exitCodes');
    if (!(restartRuleOperators as readonly string[]).includes(rule.exitCodes.operator)) errs.push(notSupported(ep.child('operator'), rule.exitCodes.operator ?? '', restartRuleOperators));
    if ((rule.exitCodes.values?.length ?? 0) > maxRestartRuleExitCodes) errs.push(tooLong(ep.child('values'), maxRestartRuleExitCodes));
  });
  return errs;
}

/** An init container's restartPolicy: Always makes a sidecar (no rules without RestartAllContainers); Never and OnFailure are a regular init container's own. */
function validateInitContainerRestartPolicy(c: Container, path: FieldPath): FieldError[] {
  if (c.restartPolicy !== 'Always') return validateContainerRestartPolicy(c, path);
  if (!c.restartPolicyRules?.length) return [];
  return [forbiddenField(path.child('restartPolicyRules'), 'restartPolicyRules are not allowed for init containers with restart policy Always')];
}

const volumeSources = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos',
  'csi', 'ephemeral', 'image',
] as const;

const volumeSourceNames: ReadonlySet<string> = new Set(volumeSources);

/** The usual volume, with exactly one source: found from its few keys, not by asking for all thirty. */
function hasOneVolumeSource(v: NonNullable<PodSpec['volumes']>[number]): boolean {
  let count = 0;
  for (const key in v) if (volumeSourceNames.has(key) && (v as unknown as Record<string, unknown>)[key] !== undefined) count++;
  return count === 1;
}

function labelKeyErrors(key: string, path: FieldPath): FieldError[] {
  return isQualifiedName(key).map((m) => invalidValue(path, key, m));
}

/** ValidateLabels: keys are qualified names, values label values; both reported at the map's path. */
export function validateLabelMap(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    pushErrors(errs, labelKeyErrors(k, path));
    for (const m of isValidLabelValue(v)) errs.push(invalidValue(path, v, m));
  }
  return errs;
}

/** ImageVolume (beta, on in 1.35): a template may leave the reference for a controller to fill in; a pod may not. */
function validateImageVolumeSource(source: ImageVolumeSource, path: FieldPath, resourceIsPod: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (resourceIsPod && !source.reference) errs.push(required(path.child('reference')));
  pushErrors(errs, validatePullPolicy(source.pullPolicy, path.child('pullPolicy')));
  return errs;
}

function validateVolumes(spec: PodSpec, path: FieldPath, resourceIsPod: boolean): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (spec.volumes ?? []).forEach((v, i) => {
    const ip = path.index(i);
    // validateVolumeSource checks a source only when it is the volume's one, and before the name.
    const oneSource = hasOneVolumeSource(v);
    if (oneSource && v.image) pushErrors(errs, validateImageVolumeSource(v.image, ip.child('image'), resourceIsPod));
    const np = ip.child('name');
    if (!v.name) errs.push(required(np));
    else {
      for (const m of isDNS1123Label(v.name)) errs.push(invalidValue(np, v.name, m));
      if (names.has(v.name)) errs.push(duplicate(np, v.name));
      else names.add(v.name);
    }
    if (oneSource) return;
    const set = volumeSources.filter((s) => v[s] !== undefined);
    if (set.length === 0) errs.push(required(ip, 'must specify a volume type'));
    for (const s of set.slice(1)) errs.push(forbiddenField(ip.child(s), 'may not specify more than 1 volume type'));
  });
  return { names, errs };
}

function validateResourceClaims(spec: PodSpec, path: FieldPath): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (spec.resourceClaims ?? []).forEach((c, i) => {
    const ip = path.index(i);
    if (!c.name) errs.push(required(ip.child('name')));
    else if (names.has(c.name)) errs.push(duplicate(ip.child('name'), c.name));
    else {
      for (const m of isDNS1123Label(c.name)) errs.push(invalidValue(ip.child('name'), c.name, m));
      names.add(c.name);
    }
    const hasName = c.resourceClaimName !== undefined;
    const hasTemplate = c.resourceClaimTemplateName !== undefined;
    if (hasName && hasTemplate) errs.push(invalidValue(ip, c, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (!hasName && !hasTemplate) errs.push(invalidValue(ip, c, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (c.resourceClaimName !== undefined) for (const m of isDNS1123Subdomain(c.resourceClaimName)) errs.push(invalidValue(ip.child('resourceClaimName'), c.resourceClaimName, m));
    if (c.resourceClaimTemplateName !== undefined) {
      for (const m of isDNS1123Subdomain(c.resourceClaimTemplateName)) errs.push(invalidValue(ip.child('resourceClaimTemplateName'), c.resourceClaimTemplateName, m));
    }
  });
  return { names, errs };
}

function hostPortConflicts(containers: PodSpec['containers'], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((p, pi) => {
      if (!p.hostPort) return;
      const key = `${p.protocol ?? ''}/${p.hostIP ?? ''}/${p.hostPort}`;
      if (seen.has(key)) errs.push(duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}

export function validateTolerations(tolerations: readonly Toleration[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const ip = path.index(i);
    if (t.key) pushErrors(errs, labelKeyErrors(t.key, ip.child('key')));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(invalidValue(ip.child('operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      errs.push(invalidValue(ip.child('effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    const op = t.operator ?? '';
    if (op === 'Equal' || op === '') {
      const msgs = isValidLabelValue(t.value ?? '');
      if (msgs.length) errs.push(invalidValue(ip.child('operator'), t.value ?? '', msgs.join(';')));
    } else if (op === 'Exists') {
      if (t.value) errs.push(invalidValue(ip.child('operator'), t.value, "value must be empty when `operator` is 'Exists'"));
    } else errs.push(notSupported(ip.child('operator'), op, ['Equal', 'Exists']));
    if (t.effect && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
      errs.push(notSupported(ip.child('effect'), t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    }
  });
  return errs;
}

function validateLabelSelector(sel: LabelSelector | undefined, path: FieldPath): FieldError[] {
  if (!sel) return [];
  const errs = validateLabelMap(sel.matchLabels, path.child('matchLabels'));
  (sel.matchExpressions ?? []).forEach((r, i) => {
    const p = path.child('matchExpressions').index(i);
    const n = r.values?.length ?? 0;
    if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0) errs.push(required(p.child('values'), 'must be specified when `operator` is \'In\' or \'NotIn\''));
    else if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0) errs.push(forbiddenField(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    else if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(r.operator)) errs.push(invalidValue(p.child('operator'), r.operator, 'not a valid selector operator'));
    pushErrors(errs, labelKeyErrors(r.key, p.child('key')));
  });
  return errs;
}

function validateAffinity(spec: PodSpec, path: FieldPath): FieldError[] {
  const a = spec.affinity;
  if (!a) return [];
  const errs: FieldError[] = [];
  const na = a.nodeAffinity;
  if (na?.requiredDuringSchedulingIgnoredDuringExecution) {
    pushErrors(errs, validateNodeSelector(na.requiredDuringSchedulingIgnoredDuringExecution, path.child('nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution')));
  }
  (na?.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
    const p = path.child('nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution').index(i);
    if (t.weight <= 0 || t.weight > 100) errs.push(invalidValue(p.child('weight'), t.weight, 'must be in the range 1-100'));
    pushErrors(errs, validateNodeSelectorTerm(t.preference, p.child('preference'), false));
  });
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const pa = a[kind];
    if (!pa) continue;
    const termErrs = (t: PodAffinityTerm, p: FieldPath): void => {
      pushErrors(errs, validateLabelSelector(t.labelSelector, p.child('labelSelector')));
      for (const ns of t.namespaces ?? []) for (const m of isDNS1123Label(ns)) errs.push(invalidValue(p.child('namespace'), ns, m));
      pushErrors(errs, validateMatchLabelKeysAndMismatchLabelKeys(p, t.matchLabelKeys, t.mismatchLabelKeys, t.labelSelector));
      if (!t.topologyKey) errs.push(required(p.child('topologyKey'), 'can not be empty'));
      pushErrors(errs, labelKeyErrors(t.topologyKey ?? '', p.child('topologyKey')));
    };
    (pa.requiredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => termErrs(t, path.child(kind, 'requiredDuringSchedulingIgnoredDuringExecution').index(i)));
    (pa.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((t, i) => {
      const p = path.child(kind, 'preferredDuringSchedulingIgnoredDuringExecution').index(i);
      if (t.weight <= 0 || t.weight > 100) errs.push(invalidValue(p.child('weight'), t.weight, 'must be in the range 1-100'));
      termErrs(t.podAffinityTerm, p.child('podAffinityTerm'));
    });
  }
  return errs;
}

function validateTopologySpread(spec: PodSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const list = spec.topologySpreadConstraints ?? [];
  list.forEach((c, i) => {
    const p = path.index(i);
    if (!(c.maxSkew > 0)) errs.push(invalidValue(p.child('maxSkew'), c.maxSkew, 'must be greater than zero'));
    if (!c.topologyKey) errs.push(required(p.child('topologyKey'), 'can not be empty'));
    else pushErrors(errs, labelKeyErrors(c.topologyKey, p.child('topologyKey')));
    if (c.whenUnsatisfiable !== 'DoNotSchedule' && c.whenUnsatisfiable !== 'ScheduleAnyway') {
      errs.push(notSupported(p.child('whenUnsatisfiable'), c.whenUnsatisfiable, ['DoNotSchedule', 'ScheduleAnyway']));
    }
    if (list.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      errs.push(duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${c.topologyKey}, ${c.whenUnsatisfiable}}`));
    }
    if (c.minDomains !== undefined) {
      if (c.minDomains <= 0) errs.push(invalidValue(p.child('minDomains'), c.minDomains, 'must be greater than 0'));
      if (c.whenUnsatisfiable !== 'DoNotSchedule') {
        errs.push(invalidValue(p.child('minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${c.whenUnsatisfiable}`));
      }
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy'] as const) {
      const v = c[f];
      if (v !== undefined && v !== 'Honor' && v !== 'Ignore') errs.push(notSupported(p.child(f), v, ['Honor', 'Ignore']));
    }
    // With MatchLabelKeysInPodTopologySpreadSelectorMerge on, the same check as affinity terms', on the merged selector.
    pushErrors(errs, validateMatchLabelKeysAndMismatchLabelKeys(p, c.matchLabelKeys, undefined, c.labelSelector));
    pushErrors(errs, validateLabelSelector(c.labelSelector, p.child('labelSelector')));
  });
  return errs;
}

function enumErr(v: string | undefined, path: FieldPath, allowed: readonly string[]): FieldError[] {
  if (!v) return [required(path)];
  return allowed.includes(v) ? [] : [notSupported(path, v, allowed)];
}

function subdomainErrs(v: string | undefined, path: FieldPath): FieldError[] {
  return v ? isDNS1123Subdomain(v).map((m) => invalidValue(path, v, m)) : [];
}

export function validatePodSpec(spec: PodSpec | undefined, path: FieldPath, opts: PodSpecValidationOptions): FieldError[] {
  if (!spec) return [required(path.child('containers'))];
  const errs: FieldError[] = [];
  if (spec.terminationGracePeriodSeconds === undefined) errs.push(required(path.child('terminationGracePeriodSeconds')));
  const vols = validateVolumes(spec, path.child('volumes'), opts.resourceIsPod);
  pushErrors(errs, vols.errs);
  const claims = validateResourceClaims(spec, path.child('resourceClaims'));
  pushErrors(errs, claims.errs);
  const ctx: ContainerContext = {
    volumes: vols.names,
    claimNames: claims.names,
    gracePeriod: spec.terminationGracePeriodSeconds,
    podRestartPolicy: spec.restartPolicy,
    hostUsers: podUsesHostUsers(spec),
  };
  const containers = spec.containers ?? [];
  const cPath = path.child('containers');
  if (containers.length === 0) errs.push(required(cPath));
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = cPath.index(i);
    pushErrors(errs, validateContainerCommon(c, p, ctx));
    if (names.has(c.name)) errs.push(duplicate(p.child('name'), c.name));
    else names.add(c.name);
    pushErrors(errs, validateLifecycleAndProbes(c, p, ctx.gracePeriod));
    pushErrors(errs, validateContainerRestartPolicy(c, p));
  });
  pushErrors(errs, hostPortConflicts(containers, cPath));
  const iPath = path.child('initContainers');
  (spec.initContainers ?? []).forEach((c, i) => {
    const p = iPath.index(i);
    pushErrors(errs, validateContainerCommon(c, p, ctx));
    pushErrors(errs, validateInitContainerRestartPolicy(c, p));
    if (names.has(c.name)) errs.push(duplicate(p.child('name'), c.name));
    else if (c.name) names.add(c.name);
    pushErrors(errs, hostPortConflicts([c], iPath));
    if (c.restartPolicy === 'Always') pushErrors(errs, validateLifecycleAndProbes(c, p, ctx.gracePeriod));
    else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        if (c[f] !== undefined) errs.push(forbiddenField(p.child(f), initOnlyDetail));
      }
      // Sidecars may carry a resizePolicy since 1.33 (in-place resize of sidecars); plain init containers may not.
      if (c.resizePolicy?.length) errs.push(invalidValue(p.child('resizePolicy'), c.resizePolicy, 'must not be set for init containers'));
    }
  });
  pushErrors(errs, validateEphemeralContainers(spec, path.child('ephemeralContainers'), ctx, names));
  if (spec.resources) {
    const rp = path.child('resources');
    if (spec.resources.claims !== undefined) errs.push(forbiddenField(rp.child('claims'), 'claims cannot be set for Resources at pod-level'));
    pushErrors(errs, validateResourceRequirements({ ...spec.resources, claims: [] }, rp, claims.names, 'pod'));
  }
  if (spec.hostNetwork) {
    containers.forEach((c, i) =>
      (c.ports ?? []).forEach((p, j) => {
        const hp = p.hostPort ?? 0;
        if ((opts.resourceIsPod || hp !== 0) && hp !== p.containerPort) {
          errs.push(invalidValue(cPath.index(i).child('ports').index(j).child('hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
        }
      }),
    );
  }
  pushErrors(errs, enumErr(spec.restartPolicy, path.child('restartPolicy'), ['Always', 'OnFailure', 'Never']));
  pushErrors(errs, enumErr(spec.dnsPolicy, path.child('dnsPolicy'), ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  pushErrors(errs, validateLabelMap(spec.nodeSelector, path.child('nodeSelector')));
  pushErrors(errs, validatePodSecurityContextPolicies(spec, path.child('securityContext')));
  pushErrors(errs, validateAffinity(spec, path.child('affinity')));
  if (spec.dnsPolicy === 'None' && !spec.dnsConfig) errs.push(required(path.child('dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None'));
  (spec.readinessGates ?? []).forEach((g, i) => {
    for (const m of isQualifiedName(g.conditionType)) errs.push(invalidValue(path.child('readinessGates').index(i).child('conditionType'), g.conditionType, m));
  });
  const gates = new Set<string>();
  (spec.schedulingGates ?? []).forEach((g, i) => {
    const p = path.child('schedulingGates').index(i);
    for (const m of isQualifiedName(g.name)) errs.push(invalidValue(p, g.name, m));
    if (gates.has(g.name)) errs.push(duplicate(p, g.name));
    gates.add(g.name);
  });
  pushErrors(errs, validateTopologySpread(spec, path.child('topologySpreadConstraints')));
  pushErrors(errs, validateHostUsers(spec, path));
  pushErrors(errs, subdomainErrs(spec.serviceAccountName, path.child('serviceAccountName')));
  pushErrors(errs, subdomainErrs(spec.nodeName, path.child('nodeName')));
  const ads = spec.activeDeadlineSeconds;
  if (ads !== undefined && (ads < 1 || ads > maxInt32)) errs.push(invalidValue(path.child('activeDeadlineSeconds'), ads, inclusiveRangeError(1, maxInt32)));
  if (spec.hostname) for (const m of isDNS1123Label(spec.hostname)) errs.push(invalidValue(path.child('hostname'), spec.hostname, m));
  if (spec.subdomain) for (const m of isDNS1123Label(spec.subdomain)) errs.push(invalidValue(path.child('subdomain'), spec.subdomain, m));
  pushErrors(errs, validateTolerations(spec.tolerations, path.child('tolerations')));
  pushErrors(errs, subdomainErrs(spec.priorityClassName, path.child('priorityClassName')));
  if (spec.runtimeClassName !== undefined) pushErrors(errs, isDNS1123Subdomain(spec.runtimeClassName).map((m) => invalidValue(path.child('runtimeClassName'), spec.runtimeClassName, m)));
  if (spec.preemptionPolicy !== undefined) pushErrors(errs, enumErr(spec.preemptionPolicy, path.child('preemptionPolicy'), ['PreemptLowerPriority', 'Never']));
  if (spec.overhead) pushErrors(errs, validateResourceRequirements({ limits: spec.overhead }, path.child('overhead'), claims.names, 'container'));
  if (spec.os && spec.os.name !== 'linux' && spec.os.name !== 'windows') errs.push(notSupported(path.child('os', 'name'), spec.os.name, ['linux', 'windows']));
  return errs;
}

function validateEphemeralContainers(spec: PodSpec, path: FieldPath, ctx: ContainerContext, taken: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set(taken);
  (spec.ephemeralContainers ?? []).forEach((c, i) => {
    const p = path.index(i);
    pushErrors(errs, validateContainerCommon(c, p, ctx));
    if (taken.has(c.name)) errs.push(duplicate(p.child('name'), c.name));
    else taken.add(c.name);
    if (c.targetContainerName && !others.has(c.targetContainerName)) errs.push(notFoundField(p.child('targetContainerName'), c.targetContainerName));
    for (const f of ['ports', 'resources', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'resizePolicy', 'restartPolicy', 'restartPolicyRules'] as const) {
      // Upstream checks each field against Go's zero value: an empty resources struct is unset.
      const value = c[f];
      if (value === undefined || (f === 'resources' && Object.keys(value as object).length === 0)) continue;
      errs.push(forbiddenField(p.child(f), 'cannot be set for an Ephemeral Container'));
    }
    (c.volumeMounts ?? []).forEach((m, j) => {
      if (m.subPath) errs.push(forbiddenField(p.child('volumeMounts').index(j).child('subPath'), 'cannot be set for an Ephemeral Container'));
      if (m.subPathExpr) errs.push(forbiddenField(p.child('volumeMounts').index(j).child('subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

/** Hook for the sim behaviour annotation (`sim.drydock.dev/<container>`); wired when src/api/sim/behaviour.ts lands. */
export type SimAnnotationValidator = (pod: Pod) => FieldError[];

/** ValidatePodCreate. */
export function validatePodCreate(pod: Pod, simValidator?: SimAnnotationValidator): FieldError[] {
  const spec = new FieldPath('spec');
  const errs = validatePodMetadataAndSpec(pod);
  if (pod.spec?.ephemeralContainers?.length) errs.push(forbiddenField(spec.child('ephemeralContainers'), 'cannot be set on create'));
  if (pod.spec?.nodeName && pod.spec.schedulingGates?.length) {
    errs.push(forbiddenField(spec.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  if (simValidator) pushErrors(errs, simValidator(pod));
  return errs;
}

/**
 * validatePodMetadataAndSpec: shared by create and update. On update, a pod whose stored
 * pod-deletion-cost is already invalid may keep it (GetValidationOptionsFromPodSpecAndMeta).
 */
export function validatePodMetadataAndSpec(pod: Pod, old?: Pod): FieldError[] {
  const errs = validateObjectMeta(pod.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  if (!old || parsePodDeletionCost(old.metadata.annotations) !== undefined) {
    pushErrors(errs, validatePodDeletionCost(pod.metadata.annotations, new FieldPath('metadata').child('annotations')));
  }
  const specPath = new FieldPath('spec');
  pushErrors(errs, validatePodSpec(pod.spec, specPath, { resourceIsPod: true }));
  if (pod.spec && !pod.spec.serviceAccountName) {
    (pod.spec.volumes ?? []).forEach((v, vi) =>
      (v.projected?.sources ?? []).forEach((s, si) => {
        if (s.serviceAccountToken) {
          const p = specPath.child('volumes').index(vi).child('projected', 'sources').index(si).child('serviceAccountToken');
          errs.push(forbiddenField(p, 'must not be specified when serviceAccountName is not set'));
        }
      }),
    );
  }
  return errs;
}
