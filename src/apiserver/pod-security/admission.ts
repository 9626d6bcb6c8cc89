// PodSecurity: enforces, and warns about, the Pod Security Standards a namespace's labels choose. Pods
// are refused (enforce) or warned about (warn); objects with pod templates only warned about, since
// mutating admission may still fix the pods they make; relabelling a namespace to a stricter enforce
// level warns about the pods already in it. Drydock keeps no audit log, so the audit mode has no effect.
// With no AdmissionConfiguration, the defaults are privileged:latest and nothing is exempt.
// Upstream: staging/src/k8s.io/pod-security-admission/admission/admission.go,
// plugin/pkg/admission/security/podsecurity/admission.go.
import type { Container, Pod, PodSpec, PodTemplateSpec } from '../../api/index.ts';
import { forbidden, internalError, invalid } from '../../core/index.ts';
import type { KubeObject, ObjectMeta } from '../../core/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission.ts';
import { storedObject } from '../stored-object.ts';
import { namespaceNow } from '../watched-lookups.ts';
import { evaluatePod, forbiddenDetail } from './evaluate.ts';
import { namespacePodWarnings } from './namespace-check.ts';
import type { NamespacePolicy, Policy } from './policy.ts';
import { compareLevels, hasPodSecurityLabels, isFullyPrivileged, levelVersionString, policyToEvaluate, sameLevelVersion } from './policy.ts';

const unlabelled = policyToEvaluate(undefined);
// Stored namespaces are immutable: each one's labels are parsed once.
const parsedPolicies = new WeakMap<KubeObject, NamespacePolicy>();

function namespacePolicy(ns: KubeObject): NamespacePolicy {
  if (!hasPodSecurityLabels(ns.metadata.labels)) return unlabelled;
  let parsed = parsedPolicies.get(ns);
  if (!parsed) parsedPolicies.set(ns, (parsed = policyToEvaluate(ns.metadata.labels)));
  return parsed;
}

type Namespace = KubeObject | undefined;

/** The object's namespace: at once from the watched copy, else after a lookup. */
function namespaceOf(attrs: AdmissionAttributes): Namespace | Promise<Namespace> {
  return namespaceNow(attrs.storage, attrs.object.metadata.namespace ?? '');
}

/** Subresources that cannot change a pod's spec; any other (ephemeralcontainers, resize) is evaluated. */
const ignoredPodSubresources = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

type TemplateOf = (obj: KubeObject) => Readonly<PodTemplateSpec> | undefined;
const specTemplate: TemplateOf = (obj) => (obj.spec as { template?: PodTemplateSpec } | undefined)?.template;

/** The kinds that carry a pod template, and where it is (upstream's DefaultPodSpecExtractor). */
const podTemplateOf: Readonly<Record<string, TemplateOf>> = {
  '/replicationcontrollers': specTemplate,
  '/podtemplates': (obj) => (obj as { template?: PodTemplateSpec }).template,
  'apps/replicasets': specTemplate,
  'apps/deployments': specTemplate,
  'apps/statefulsets': specTemplate,
  'apps/daemonsets': specTemplate,
  'batch/jobs': specTemplate,
  'batch/cronjobs': (obj) => (obj.spec as { jobTemplate?: { spec?: { template?: PodTemplateSpec } } } | undefined)?.jobTemplate?.spec?.template,
};

/**
 * Enforce refuses the pod; otherwise warn, unless it is the same policy as enforce (which passed).
 * Templates are only warned about.
 */
function evaluate(attrs: AdmissionAttributes, policy: Policy, meta: Readonly<ObjectMeta>, spec: Readonly<PodSpec>, enforce: boolean): void {
  if (enforce) {
    const violations = evaluatePod(policy.enforce, meta, spec);
    if (violations.length > 0) {
      throw forbidden({ group: '', resource: 'pods' }, attrs.object.metadata.name ?? '', `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(violations)}`);
    }
    if (sameLevelVersion(policy.warn, policy.enforce)) return;
  }
  const warnings = evaluatePod(policy.warn, meta, spec);
  if (warnings.length > 0) attrs.ctx.warnings?.push(`would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warnings)}`);
}

function validatePod(attrs: AdmissionAttributes): void | Promise<void> {
  if (ignoredPodSubresources.has(attrs.ctx.subresource)) return undefined;
  const ns = namespaceOf(attrs);
  return ns instanceof Promise ? ns.then((found) => admitPod(attrs, found)) : admitPod(attrs, ns);
}

function admitPod(attrs: AdmissionAttributes, ns: Namespace): undefined {
  if (!ns) throw internalError(`failed to lookup namespace ${JSON.stringify(attrs.object.metadata.namespace ?? '')}`);
  const { policy, errors } = namespacePolicy(ns);
  if (errors.length === 0 && isFullyPrivileged(policy)) return undefined;
  const pod = attrs.object as unknown as Pod;
  if (attrs.operation === 'UPDATE' && !isSignificantPodUpdate(pod, attrs.old as unknown as Pod)) return undefined;
  evaluate(attrs, policy, pod.metadata, pod.spec, true);
  return undefined;
}

function validatePodController(attrs: AdmissionAttributes, templateOf: TemplateOf): void | Promise<void> {
  if (attrs.ctx.subresource) return undefined;
  const ns = namespaceOf(attrs);
  return ns instanceof Promise ? ns.then((found) => warnTemplate(attrs, found, templateOf)) : warnTemplate(attrs, ns, templateOf);
}

function warnTemplate(attrs: AdmissionAttributes, ns: Namespace, templateOf: TemplateOf): undefined {
  // Upstream admits a template whose namespace it cannot find; only the audit log would hear of it.
  if (!ns || namespacePolicy(ns).policy.warn.level === 'privileged') return undefined;
  const template = templateOf(attrs.object);
  if (template) evaluate(attrs, namespacePolicy(ns).policy, template.metadata ?? {}, template.spec ?? { containers: [] }, false);
  return undefined;
}

/** Field errors are plain data: two lists are the same when they print the same. */
const sameErrors = (a: NamespacePolicy['errors'], b: NamespacePolicy['errors']): boolean => JSON.stringify(a) === JSON.stringify(b);

function validateNamespace(attrs: AdmissionAttributes): void | Promise<void> {
  if (attrs.ctx.subresource) return;
  const next = policyToEvaluate(attrs.object.metadata.labels);
  const name = attrs.object.metadata.name ?? '';
  const refuse = (): never => {
    throw invalid({ group: '', kind: 'Namespace' }, name, next.errors);
  };
  if (attrs.operation === 'CREATE') {
    if (next.errors.length > 0) refuse();
    return;
  }
  const before = policyToEvaluate(attrs.old?.metadata.labels);
  // Labels that were already bad do not block other changes to the namespace.
  if (next.errors.length > 0 && (before.errors.length === 0 || !sameErrors(next.errors, before.errors))) refuse();
  const enforce = next.policy.enforce;
  const old = before.policy.enforce;
  if (sameLevelVersion(enforce, old) || enforce.level === 'privileged') return;
  if (enforce.version === old.version && compareLevels(enforce.level, old.level) < 1) return;
  return existingPods(attrs, name).then((pods) => {
    attrs.ctx.warnings?.push(...namespacePodWarnings(name, enforce, pods));
  });
}

async function existingPods(attrs: AdmissionAttributes, namespace: string): Promise<Pod[]> {
  const def = attrs.storage.findDefinition('', 'v1', 'pods');
  if (!def) return [];
  const { items } = await attrs.storage.store.list(attrs.storage.prefix(def, namespace));
  return items.map((kv) => storedObject(kv) as unknown as Pod);
}

function isSignificantContainerUpdate(c: Readonly<Container>, old: Readonly<Container>, pod: Pod, oldPod: Pod): boolean {
  if (c.image !== old.image) return true;
  const seccompKey = `container.seccomp.security.alpha.kubernetes.io/${c.name}`;
  return pod.metadata.annotations?.[seccompKey] !== oldPod.metadata.annotations?.[seccompKey];
}

/** Whether an update can change what the policy sees: only images, containers and ephemeral containers can. */
export function isSignificantPodUpdate(pod: Pod, oldPod: Pod): boolean {
  const pairs = (now: readonly Container[] | undefined, before: readonly Container[] | undefined): boolean =>
    (now?.length ?? 0) !== (before?.length ?? 0) || (now ?? []).some((c, i) => isSignificantContainerUpdate(c, (before ?? [])[i] as Container, pod, oldPod));
  if (pairs(pod.spec.containers, oldPod.spec.containers) || pairs(pod.spec.initContainers, oldPod.spec.initContainers)) return true;
  return (pod.spec.ephemeralContainers ?? []).some((c) => {
    const old = oldPod.spec.ephemeralContainers?.find((o) => o.name === c.name);
    return !old || isSignificantContainerUpdate(c, old, pod, oldPod);
  });
}

export const podSecurity: AdmissionPlugin = {
  name: 'PodSecurity',
  validate(attrs) {
    if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return undefined;
    const { group, resource } = attrs.def;
    if (group === '' && resource === 'pods') return validatePod(attrs);
    if (group === '' && resource === 'namespaces') return validateNamespace(attrs);
    const templateOf = podTemplateOf[`${group}/${resource}`];
    return templateOf ? validatePodController(attrs, templateOf) : undefined;
  },
};
