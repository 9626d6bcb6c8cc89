// Pod update, status-update and resize validation: the spec is immutable except images, a shrinking
// activeDeadlineSeconds, added tolerations, removed scheduling gates and (for gated pods) added node
// constraints; resources change only through the resize subresource.
// Upstream: pkg/apis/core/validation/validation.go (ValidatePodUpdate, ValidatePodStatusUpdate, ValidatePodResize).
import { duplicate, FieldPath, forbiddenField, invalidValue, notSupported, required } from '../../../../core/index.ts';
import type { FieldError } from '../../../../core/index.ts';
import type { Container, ContainerStatus, NodeAffinity, Pod, PodSpec, ResourceList, RestartPolicy, Toleration } from './types.ts';
import { shouldRestart } from './restart-policy.ts';
import { validatePodMetadataAndSpec, validateTolerations } from './validation.ts';
import { inclusiveRangeError, isDNS1123Subdomain, isQualifiedName } from './syntax.ts';
import { computePodQOS, getPodQOS } from './qos.ts';
import { validateObjectMetaUpdate } from '../../../validation/index.ts';

export const updatablePodSpecFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

const maxInt32 = 2147483647;

const isEmptyValue = (v: unknown): boolean => {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v !== 'object') return false;
  for (const _ in v) return false;
  return true;
};

/**
 * apiequality.Semantic.DeepEqual on JSON: absent, null, empty list and empty map are all equal.
 * Every pod write compares whole specs with it, so it allocates nothing.
 */
export function isSemanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!isSemanticEqual(a[i], b[i])) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k in ra) if (!isSemanticEqual(ra[k], rb[k])) return false;
  for (const k in rb) if (!(k in ra) && !isEmptyValue(rb[k])) return false;
  return true;
}

function validateContainerUpdates(next: readonly Container[], prev: readonly Container[], path: FieldPath): { errs: FieldError[]; stop: boolean } {
  if (next.length !== prev.length) return { errs: [forbiddenField(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    if (!c.image) errs.push(required(path.index(i).child('image')));
    if ((c.image ?? '').trim() !== (c.image ?? '')) errs.push(invalidValue(path.index(i).child('image'), c.image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

function validateOnlyAddedTolerations(next: readonly Toleration[] | undefined, prev: readonly Toleration[] | undefined, path: FieldPath): FieldError[] {
  for (const old of prev ?? []) {
    const found = (next ?? []).some((n) => isSemanticEqual({ ...old, tolerationSeconds: n.tolerationSeconds }, n));
    if (!found) return [forbiddenField(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, path);
}

function validateOnlyDeletedGates(next: PodSpec['schedulingGates'], prev: PodSpec['schedulingGates'], path: FieldPath): FieldError[] {
  const old = new Set((prev ?? []).map((g) => g.name));
  const errs: FieldError[] = [];
  (next ?? []).forEach((g, i) => {
    if (!old.has(g.name)) errs.push(forbiddenField(path.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${g.name}'`));
  });
  return errs;
}

// A gated pod may gain nodeSelector entries but not lose or change any.
function validateNodeSelectorMutation(next: Record<string, string> | undefined, prev: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(prev ?? {})) {
    const nv = next?.[k];
    if (nv === undefined) errs.push(forbiddenField(path.key(k), 'cannot delete the field'));
    else if (nv !== v) errs.push(invalidValue(path.key(k), nv, 'field is immutable'));
  }
  return errs;
}

// Node affinity of a gated pod may only be narrowed: each old required term must stay, with expressions added.
function validateNodeAffinityMutation(next: NodeAffinity | undefined, prev: NodeAffinity | undefined, path: FieldPath): FieldError[] {
  const oldTerms = prev?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const newTerms = next?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const reqPath = path.child('requiredDuringSchedulingIgnoredDuringExecution');
  if (oldTerms.length === 0) return [];
  if (oldTerms.length !== newTerms.length) return [invalidValue(reqPath.child('nodeSelectorTerms'), newTerms, 'field is immutable')];
  const errs: FieldError[] = [];
  oldTerms.forEach((t, i) => {
    const n = newTerms[i];
    const kept = (t.matchExpressions ?? []).every((e, j) => isSemanticEqual(e, n?.matchExpressions?.[j]));
    if (!kept || !isSemanticEqual(t.matchFields, n?.matchFields)) {
      errs.push(invalidValue(reqPath.child('nodeSelectorTerms').index(i), n, 'field is immutable'));
    }
  });
  return errs;
}

/** A cmp.Diff-like listing of what changed, appended to the Forbidden message as upstream does. */
export function describeSpecDiff(prev: unknown, next: unknown, path = ''): string[] {
  if (isSemanticEqual(prev, next)) return [];
  const bothObjects = typeof prev === 'object' && prev !== null && typeof next === 'object' && next !== null;
  if (bothObjects && Array.isArray(prev) === Array.isArray(next)) {
    const a = prev as Record<string, unknown>;
    const b = next as Record<string, unknown>;
    const keys = Array.isArray(prev) ? [...Array(Math.max((prev as unknown[]).length, (next as unknown[]).length)).keys()].map(String) : [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((k) => describeSpecDiff(a[k], b[k], Array.isArray(prev) ? `${path}[${k}]` : path ? `${path}.${k}` : k));
  }
  return [`- \t${path}: ${JSON.stringify(prev ?? null)}`, `+ \t${path}: ${JSON.stringify(next ?? null)}`];
}

/** ValidatePodUpdate. */
export function validatePodUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = [...validateObjectMetaUpdate(pod.metadata, old.metadata), ...validatePodMetadataAndSpec(pod, old)];
  const specPath = new FieldPath('spec');
  const ns = pod.spec;
  const os = old.spec;
  if (!ns || !os) return errs;
  for (const [field, next, prev] of [
    ['containers', ns.containers ?? [], os.containers ?? []],
    ['initContainers', ns.initContainers ?? [], os.initContainers ?? []],
  ] as const) {
    const r = validateContainerUpdates(next, prev, specPath.child(field));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const adsPath = specPath.child('activeDeadlineSeconds');
  if (ns.activeDeadlineSeconds !== undefined) {
    const v = ns.activeDeadlineSeconds;
    if (v < 0 || v > maxInt32) return [...errs, invalidValue(adsPath, v, inclusiveRangeError(0, maxInt32))];
    if (os.activeDeadlineSeconds !== undefined && os.activeDeadlineSeconds < v) {
      return [...errs, invalidValue(adsPath, v, 'must be less than or equal to previous value')];
    }
  } else if (os.activeDeadlineSeconds !== undefined) {
    errs.push(invalidValue(adsPath, null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(ns.tolerations, os.tolerations, specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedGates(ns.schedulingGates, os.schedulingGates, specPath.child('schedulingGates')));
  if (isSemanticEqual(ns, os)) return errs;

  const munged: PodSpec = {
    ...ns,
    containers: (ns.containers ?? []).map((c, i) => ({ ...c, image: os.containers[i]?.image ?? '' })),
    initContainers: (ns.initContainers ?? []).map((c, i) => ({ ...c, image: os.initContainers?.[i]?.image ?? '' })),
  };
  if (os.activeDeadlineSeconds !== undefined) munged.activeDeadlineSeconds = os.activeDeadlineSeconds;
  else delete munged.activeDeadlineSeconds;
  setOrDelete(munged, 'schedulingGates', os.schedulingGates);
  setOrDelete(munged, 'tolerations', os.tolerations);
  if ((os.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = os.terminationGracePeriodSeconds as number;
  }
  if ((os.schedulingGates ?? []).length > 0) {
    if (!isSemanticEqual(munged.nodeSelector, os.nodeSelector)) {
      errs.push(...validateNodeSelectorMutation(munged.nodeSelector, os.nodeSelector, specPath.child('nodeSelector')));
      setOrDelete(munged, 'nodeSelector', os.nodeSelector);
    }
    const oldNA = os.affinity?.nodeAffinity;
    const newNA = munged.affinity?.nodeAffinity;
    if (!isSemanticEqual(oldNA, newNA)) {
      errs.push(...validateNodeAffinityMutation(newNA, oldNA, specPath.child('affinity', 'nodeAffinity')));
      const { nodeAffinity: _drop, ...rest } = munged.affinity ?? {};
      const affinity = oldNA ? { ...rest, nodeAffinity: oldNA } : rest;
      if (Object.keys(affinity).length === 0 && !os.affinity) delete munged.affinity;
      else munged.affinity = affinity;
    }
  }
  if (!isSemanticEqual(munged, os)) {
    const diff = ['  core.PodSpec{', ...describeSpecDiff(os, munged), '  }'].join('\n');
    errs.push(forbiddenField(specPath, `pod updates may not change fields other than ${updatablePodSpecFields.join(',')}\n${diff}\n`));
  }
  return errs;
}

function setOrDelete<K extends keyof PodSpec>(spec: PodSpec, key: K, value: PodSpec[K] | undefined): void {
  if (value === undefined) delete spec[key];
  else spec[key] = value;
}

const phases = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];
const systemConditions = new Set(['PodScheduled', 'Ready', 'Initialized']);

function transitionErrors(next: readonly ContainerStatus[] | undefined, prev: readonly ContainerStatus[] | undefined, path: FieldPath, policy: RestartPolicy, sidecars: ReadonlySet<string>, specs: readonly Container[]): FieldError[] {
  if (policy === 'Always') return [];
  const errs: FieldError[] = [];
  (prev ?? []).forEach((o, i) => {
    const t = o.state?.terminated;
    if (!t || (t.exitCode !== 0 && policy === 'OnFailure') || sidecars.has(o.name)) return;
    // ContainerRestartRules: a container its own restartPolicy or rules restart may leave Terminated.
    const spec = specs.find((c) => c.name === o.name);
    if (spec && shouldRestart(spec, policy, t.exitCode)) return;
    for (const n of next ?? []) {
      if (n.name === o.name && !n.state?.terminated) errs.push(forbiddenField(path.index(i).child('state'), 'may not be transitioned to non-terminated state'));
    }
  });
  return errs;
}

/** ValidatePodStatusUpdate. */
export function validatePodStatusUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs: FieldError[] = validateObjectMetaUpdate(pod.metadata, old.metadata);
  const st = pod.status ?? {};
  (st.conditions ?? []).forEach((c, i) => {
    const type = c.type ?? '';
    if (systemConditions.has(type)) return;
    // Upstream reports these under metadata.conditions[i].Type (sic).
    for (const m of isQualifiedName(type)) errs.push(invalidValue(new FieldPath('metadata').child('conditions').index(i).child('Type'), type, m));
  });
  const sp = new FieldPath('status');
  if (st.phase !== undefined && !phases.includes(st.phase)) errs.push(notSupported(sp.child('phase'), st.phase, phases));
  (st.conditions ?? []).forEach((c, i) => {
    const status = c.status ?? '';
    if (!['True', 'False', 'Unknown'].includes(status)) errs.push(notSupported(sp.child('conditions').index(i).child('status'), status, ['True', 'False', 'Unknown']));
  });
  if ((pod.spec?.nodeName ?? '') !== (old.spec?.nodeName ?? '')) errs.push(forbiddenField(sp.child('nodeName'), 'may not be changed directly'));
  const nn = st.nominatedNodeName;
  if (nn && nn !== old.status?.nominatedNodeName) for (const m of isDNS1123Subdomain(nn)) errs.push(invalidValue(sp.child('nominatedNodeName'), nn, m));
  if ((st.qosClass ?? '') !== (old.status?.qosClass ?? '')) errs.push(invalidValue(sp.child('qosClass'), st.qosClass ?? '', 'field is immutable'));
  const policy = old.spec?.restartPolicy ?? 'Always';
  const sidecars = new Set((old.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  errs.push(...transitionErrors(st.containerStatuses, old.status?.containerStatuses, sp.child('containerStatuses'), policy, new Set(), old.spec?.containers ?? []));
  errs.push(...transitionErrors(st.initContainerStatuses, old.status?.initContainerStatuses, sp.child('initContainerStatuses'), policy, sidecars, old.spec?.initContainers ?? []));
  errs.push(...transitionErrors(st.ephemeralContainerStatuses, old.status?.ephemeralContainerStatuses, sp.child('ephemeralContainerStatuses'), 'Never', new Set(), []));
  const claimNames = new Set((pod.spec?.resourceClaims ?? []).map((c) => c.name));
  const seen = new Set<string>();
  (st.resourceClaimStatuses ?? []).forEach((s, i) => {
    const p = sp.child('resourceClaimStatuses').index(i).child('name');
    if (!claimNames.has(s.name)) errs.push(invalidValue(p, s.name, 'must match the name of an entry in `spec.resourceClaims`'));
    if (seen.has(s.name)) errs.push(duplicate(p, s.name));
    seen.add(s.name);
  });
  const hostIPs = st.hostIPs ?? [];
  if (hostIPs.length > 0 && st.hostIP !== hostIPs[0]?.ip) {
    errs.push(invalidValue(sp.child('hostIPs').index(0).child('ip'), hostIPs[0]?.ip, 'must be equal to `hostIP`'));
  }
  return errs;
}

function removed(next: ResourceList | undefined, prev: ResourceList | undefined): boolean {
  return Object.keys(prev ?? {}).some((k) => !(k in (next ?? {})));
}

function dropCpuMemory(c: Container, prev: Container | undefined): Container {
  const munge = (list: ResourceList | undefined, old: ResourceList | undefined): ResourceList | undefined => {
    if (!old) return undefined;
    const { cpu: _c, memory: _m, ...rest } = list ?? {};
    const out: ResourceList = { ...rest };
    if (old.cpu !== undefined) out.cpu = old.cpu;
    if (old.memory !== undefined) out.memory = old.memory;
    return out;
  };
  const limits = munge(c.resources?.limits, prev?.resources?.limits);
  const requests = munge(c.resources?.requests, prev?.resources?.requests);
  // resizePolicy stays as requested: it is immutable, so a change shows up in the comparison.
  return { ...c, resources: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) } };
}

function orderErrors(next: readonly Container[] | undefined, prev: readonly Container[] | undefined, path: FieldPath): FieldError[] {
  const n = next ?? [];
  const o = prev ?? [];
  // [U] the text of the count variant; the strategy passes such a request through so that it lands here.
  if (n.length !== o.length) return [forbiddenField(path, 'containers may not be added or removed on resize')];
  const errs: FieldError[] = [];
  o.forEach((c, i) => {
    if (n[i]?.name !== c.name) errs.push(forbiddenField(path.index(i).child('name'), 'containers may not be renamed or reordered on resize'));
  });
  return errs;
}

/**
 * ValidatePodResize (1.35): only cpu/memory of containers and sidecars may change; QoS must hold; requests
 * and limits may not be removed; containers may not be renamed or reordered. Memory-limit decreases are
 * allowed since 1.34 (the kubelet checks usage), and resizePolicy is immutable.
 */
export function validatePodResize(pod: Pod, old: Pod): FieldError[] {
  const errs = [...validateObjectMetaUpdate(pod.metadata, old.metadata), ...validatePodMetadataAndSpec(pod, old)];
  // field.NewPath("") prints as "[]".
  const root = new FieldPath('[]');
  const podLevel = (p: Pod): boolean => Object.keys(p.spec?.resources?.requests ?? {}).length + Object.keys(p.spec?.resources?.limits ?? {}).length > 0;
  if (podLevel(old) || podLevel(pod)) return [forbiddenField(root, 'pods with pod-level resources cannot be resized')];
  if (old.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return [forbiddenField(root, 'static pods cannot be resized')];
  if (old.spec?.os?.name === 'windows') return [forbiddenField(root, 'windows pods cannot be resized')];
  const specPath = new FieldPath('spec');
  if (getPodQOS(old) !== computePodQOS(pod)) errs.push(invalidValue(specPath, pod.status?.qosClass ?? '', 'Pod QOS Class may not change as a result of resizing'));
  const running = (old.status?.containerStatuses ?? []).find((s) => s.state?.running);
  if (running && !running.resources) errs.push(forbiddenField(specPath, 'Pod running on node without support for resize'));
  const order = [
    ...orderErrors(pod.spec?.containers, old.spec?.containers, specPath.child('containers')),
    ...orderErrors(pod.spec?.initContainers, old.spec?.initContainers, specPath.child('initContainers')),
  ];
  if (order.length > 0) return [...errs, ...order];
  const checkOne = (next: Container | undefined, prev: Container, path: FieldPath): void => {
    const nr = next?.resources ?? {};
    const or = prev.resources ?? {};
    if (removed(nr.requests, or.requests)) errs.push(forbiddenField(path.child('requests'), 'resource requests cannot be removed'));
    if (removed(nr.limits, or.limits)) errs.push(forbiddenField(path.child('limits'), 'resource limits cannot be removed'));
  };
  (old.spec?.initContainers ?? []).forEach((c, i) => {
    if (c.restartPolicy === 'Always') checkOne(pod.spec?.initContainers?.[i], c, specPath.child('initContainers').index(i).child('resources'));
  });
  (old.spec?.containers ?? []).forEach((c, i) => checkOne(pod.spec?.containers?.[i], c, specPath.child('containers').index(i).child('resources')));
  const munged: PodSpec = { ...pod.spec, containers: (pod.spec?.containers ?? []).map((c, i) => dropCpuMemory(c, old.spec?.containers?.[i])) };
  munged.containers.forEach((c, i) => {
    if (!isSemanticEqual(c, old.spec?.containers?.[i])) errs.push(forbiddenField(specPath, 'only cpu and memory resources are mutable'));
  });
  if (pod.spec?.initContainers) {
    munged.initContainers = pod.spec.initContainers.map((c, i) => {
      const prev = old.spec?.initContainers?.[i];
      if (c.restartPolicy === 'Always') {
        const d = dropCpuMemory(c, prev);
        if (!isSemanticEqual(d, prev)) errs.push(forbiddenField(specPath, 'only cpu and memory resources for sidecar containers are mutable'));
        return d;
      }
      if (!isSemanticEqual(c, prev)) errs.push(forbiddenField(specPath, 'resources for non-sidecar init containers are immutable'));
      return c;
    });
  }
  if (errs.length > 0) return errs;
  if (!isSemanticEqual(munged, old.spec)) errs.push(forbiddenField(specPath, 'only cpu and memory resources are mutable'));
  return errs;
}
