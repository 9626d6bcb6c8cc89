// Job validation: spec (pod failure policy, success policy, indexed limits, template rules),
// update immutability with the suspended-job exceptions, and status transitions.
// Upstream: pkg/apis/batch/validation/validation.go, pkg/registry/batch/job/strategy.go
// (validationOptionsForJob, getStatusValidationOptions).
import { FieldPath, duplicate, invalidValue, notSupported, required, tooLong, tooMany } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain, validateDomainPrefixedPath } from '../../validation/names.ts';
import { selectorMatches } from '../../apps/v1/selector.ts';
import {
  goStringMap,
  invalidGoValue,
  isDeepEqual,
  validateHasLabel,
  validateImmutable,
  validateLabelSelectorStrict,
  validateObjectMetaCreate,
  validatePodTemplate,
} from '../../workload-template.ts';
import type { Job, JobSpec, JobStatus, PodFailurePolicyRule, SuccessPolicyRule } from './job-types.ts';
import { JobLabel, isJobConditionTrue } from './job-types.ts';

const isNegativeErrorMsg = 'must be greater than or equal to 0';
const maxParallelismForIndexedJob = 100_000;
const maxFailedIndexesForIndexedJob = 100_000;
const completionsSoftLimit = 100_000;
const parallelismLimitForHighCompletions = 10_000;
const maxFailedIndexesLimitForHighCompletions = 10_000;
const maxPodFailurePolicyRules = 20;
const maxPodFailurePolicyOnExitCodesValues = 255;
const maxPodFailurePolicyOnPodConditionsPatterns = 20;
const maxManagedByLength = 63;
const maxJobSuccessPolicySucceededIndexesLimit = 64 * 1024;
const maxSuccessPolicyRule = 20;

const root = FieldPath.root;
const omitted = (e: FieldError): FieldError => ({ ...e, omitValue: true });
const nonneg = (v: number | undefined, p: FieldPath): FieldError[] => (v !== undefined && v < 0 ? [invalidValue(p, v, isNegativeErrorMsg)] : []);
const isIndexed = (spec: JobSpec): boolean => spec.completionMode === 'Indexed';

/** validateGeneratedSelector. */
function validateGeneratedSelector(job: Job, requirePrefixedLabels: boolean): FieldError[] {
  if (job.spec.manualSelector === true || !job.spec.selector) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (!uid) errs.push(required(root('metadata').child('uid'), ''));
  const metaPath = root('spec').child('template', 'metadata');
  const meta = job.spec.template?.metadata;
  errs.push(...validateHasLabel(meta, metaPath, JobLabel.LegacyControllerUid, uid));
  errs.push(...validateHasLabel(meta, metaPath, JobLabel.LegacyJobName, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...validateHasLabel(meta, metaPath, JobLabel.ControllerUid, uid));
    errs.push(...validateHasLabel(meta, metaPath, JobLabel.JobName, name));
    expected[JobLabel.ControllerUid] = uid;
    expected[JobLabel.JobName] = name;
  }
  expected[JobLabel.LegacyControllerUid] = uid;
  expected[JobLabel.LegacyJobName] = name;
  if (validateLabelSelectorStrict(job.spec.selector, root('spec').child('selector')).length === 0 && !selectorMatches(job.spec.selector, expected)) {
    errs.push(invalidValue(root('spec').child('selector'), job.spec.selector, '`selector` not auto-generated'));
  }
  return errs;
}

/** ValidateJob. */
export function validateJob(job: Job, requirePrefixedLabels: boolean): FieldError[] {
  const errs = validateObjectMetaCreate(job.metadata, true, root('metadata'), nameIsDNSSubdomain);
  errs.push(...validateGeneratedSelector(job, requirePrefixedLabels));
  errs.push(...validateJobSpec(job.spec, root('spec')));
  const completions = job.spec.completions;
  if (isIndexed(job.spec) && completions !== undefined && completions > 0) {
    // Indexed pods are named `<job>-<index>` and that must stay a DNS label.
    const hostname = `${job.metadata.name ?? ''}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(invalidValue(root('metadata').child('name'), job.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/** ValidateJobSpec. */
export function validateJobSpec(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs = validateJobSpecFields(spec, path);
  if (!spec.selector) errs.push(required(path.child('selector'), ''));
  else errs.push(...validateLabelSelectorStrict(spec.selector, path.child('selector')));
  if (validateLabelSelectorStrict(spec.selector, path.child('selector')).length === 0) {
    const labels = spec.template?.metadata?.labels;
    // A nil selector parses to labels.Nothing(), which matches no template.
    if (!selectorMatches(spec.selector, labels)) {
      errs.push(invalidGoValue(path.child('template', 'metadata', 'labels'), labels ?? null, goStringMap(labels), '`selector` does not match template `labels`'));
    }
  }
  return errs;
}

/** validateJobSpec without the selector (a CronJob's jobTemplate has none: it is generated per Job). */
export function validateJobSpecFields(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex'] as const) {
    errs.push(...nonneg(spec[f], path.child(f)));
  }
  if (spec.maxFailedIndexes !== undefined) {
    errs.push(...nonneg(spec.maxFailedIndexes, path.child('maxFailedIndexes')));
    if (spec.backoffLimitPerIndex === undefined) errs.push(required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (spec.managedBy !== undefined) {
    errs.push(...validateDomainPrefixedPath(spec.managedBy, path.child('managedBy')));
    if (spec.managedBy.length > maxManagedByLength) errs.push(tooLong(path.child('managedBy'), maxManagedByLength));
  }
  if (spec.completionMode !== undefined) {
    if (spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
      errs.push(notSupported(path.child('completionMode'), spec.completionMode, ['NonIndexed', 'Indexed']));
    }
    if (spec.completionMode === 'Indexed') errs.push(...validateIndexedLimits(spec, path));
  }
  if (!isIndexed(spec)) {
    if (spec.backoffLimitPerIndex !== undefined) errs.push(invalidValue(path.child('backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (spec.maxFailedIndexes !== undefined) errs.push(invalidValue(path.child('maxFailedIndexes'), spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  if (spec.podFailurePolicy) errs.push(...validatePodFailurePolicy(spec, path.child('podFailurePolicy')));
  if (spec.successPolicy) {
    if (!isIndexed(spec)) errs.push(invalidValue(path.child('successPolicy'), spec.successPolicy, 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(spec, path.child('successPolicy')));
  }
  if (spec.podReplacementPolicy !== undefined) {
    if (spec.podFailurePolicy) {
      if (spec.podReplacementPolicy !== 'Failed') errs.push(notSupported(path.child('podReplacementPolicy'), spec.podReplacementPolicy, ['Failed']));
    } else if (spec.podReplacementPolicy !== 'Failed' && spec.podReplacementPolicy !== 'TerminatingOrFailed') {
      errs.push(notSupported(path.child('podReplacementPolicy'), spec.podReplacementPolicy, ['Failed', 'TerminatingOrFailed']));
    }
  }
  errs.push(...validatePodTemplate(spec.template ?? { spec: { containers: [] } }, path.child('template')));
  const restartPolicy = spec.template?.spec?.restartPolicy ?? '';
  const rp = path.child('template', 'spec', 'restartPolicy');
  // The pod defaults turn an unset policy into Always, so both mean "not chosen".
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required(rp, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported(rp, restartPolicy, ['OnFailure', 'Never']));
  else if (spec.podFailurePolicy && restartPolicy !== 'Never') errs.push(invalidValue(rp, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

function validateIndexedLimits(spec: JobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const { completions, parallelism, maxFailedIndexes } = spec;
  if (completions === undefined) errs.push(required(path.child('completions'), 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob) {
    errs.push(invalidValue(path.child('parallelism'), parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
  }
  if (completions !== undefined && maxFailedIndexes !== undefined && maxFailedIndexes > completions) {
    errs.push(invalidValue(path.child('maxFailedIndexes'), maxFailedIndexes, 'must be less than or equal to completions'));
  }
  if (maxFailedIndexes !== undefined && maxFailedIndexes > maxFailedIndexesForIndexedJob) {
    errs.push(invalidValue(path.child('maxFailedIndexes'), maxFailedIndexes, `must be less than or equal to ${maxFailedIndexesForIndexedJob}`));
  }
  if (completions !== undefined && completions > completionsSoftLimit && spec.backoffLimitPerIndex !== undefined) {
    const high = `when completions are above ${completionsSoftLimit} and used with backoff limit per index`;
    if (maxFailedIndexes === undefined) errs.push(required(path.child('maxFailedIndexes'), `must be specified when completions is above ${completionsSoftLimit}`));
    if (parallelism !== undefined && parallelism > parallelismLimitForHighCompletions) {
      errs.push(invalidValue(path.child('parallelism'), parallelism, `must be less than or equal to ${parallelismLimitForHighCompletions} ${high}`));
    }
    if (maxFailedIndexes !== undefined && maxFailedIndexes > maxFailedIndexesLimitForHighCompletions) {
      errs.push(invalidValue(path.child('maxFailedIndexes'), maxFailedIndexes, `must be less than or equal to ${maxFailedIndexesLimitForHighCompletions} ${high}`));
    }
  }
  return errs;
}

const sortedStrings = (s: Iterable<string>): string[] => [...s].sort();
const quoteList = (v: readonly string[]): string => `[${v.map((x) => JSON.stringify(x)).join(' ')}]`;

function validatePodFailurePolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const rules = spec.podFailurePolicy?.rules ?? [];
  const rulesPath = path.child('rules');
  const errs: FieldError[] = [];
  if (rules.length > maxPodFailurePolicyRules) errs.push(tooMany(rulesPath, rules.length, maxPodFailurePolicyRules));
  const names = new Set([...(spec.template?.spec?.containers ?? []), ...(spec.template?.spec?.initContainers ?? [])].map((c) => c.name));
  rules.forEach((rule, i) => errs.push(...validatePodFailurePolicyRule(spec, rule, rulesPath.index(i), names)));
  return errs;
}

const actions = sortedStrings(['Count', 'FailIndex', 'FailJob', 'Ignore']);

function validatePodFailurePolicyRule(spec: JobSpec, rule: PodFailurePolicyRule, path: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const actionPath = path.child('action');
  const action = rule.action as string | undefined;
  if (!action) errs.push(required(actionPath, `valid values: ${quoteList(actions)}`));
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined) errs.push(invalidValue(actionPath, action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!actions.includes(action)) errs.push(notSupported(actionPath, action, actions));
  if (rule.onExitCodes) errs.push(...validateOnExitCodes(rule.onExitCodes, path.child('onExitCodes'), containerNames));
  const conditions = rule.onPodConditions ?? [];
  if (conditions.length > 0) errs.push(...validateOnPodConditions(conditions, path.child('onPodConditions')));
  if (rule.onExitCodes && conditions.length > 0) errs.push(omitted(invalidValue(path, undefined, 'specifying both OnExitCodes and OnPodConditions is not supported')));
  if (!rule.onExitCodes && conditions.length === 0) errs.push(omitted(invalidValue(path, undefined, 'specifying one of OnExitCodes and OnPodConditions is required')));
  return errs;
}

const conditionStatuses = ['False', 'True', 'Unknown'];

function validateOnPodConditions(patterns: NonNullable<PodFailurePolicyRule['onPodConditions']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > maxPodFailurePolicyOnPodConditionsPatterns) errs.push(tooMany(path, patterns.length, maxPodFailurePolicyOnPodConditionsPatterns));
  patterns.forEach((p, j) => {
    const pp = path.index(j);
    for (const msg of isQualifiedName(p.type ?? '')) errs.push(invalidValue(pp.child('type'), p.type ?? '', msg));
    const status = p.status ?? '';
    if (!status) errs.push(required(pp.child('status'), `valid values: ${quoteList(conditionStatuses)}`));
    else if (!conditionStatuses.includes(status)) errs.push(notSupported(pp.child('status'), status, conditionStatuses));
  });
  return errs;
}

function validateOnExitCodes(req: NonNullable<PodFailurePolicyRule['onExitCodes']>, path: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = req.operator as string | undefined;
  if (!operator) errs.push(required(path.child('operator'), `valid values: ${quoteList(['In', 'NotIn'])}`));
  else if (operator !== 'In' && operator !== 'NotIn') errs.push(notSupported(path.child('operator'), operator, ['In', 'NotIn']));
  if (req.containerName !== undefined && !containerNames.has(req.containerName)) {
    errs.push(invalidValue(path.child('containerName'), req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values = req.values ?? [];
  const vp = path.child('values');
  if (values.length === 0) errs.push(invalidValue(vp, values, 'at least one value is required'));
  else if (values.length > maxPodFailurePolicyOnExitCodesValues) errs.push(tooMany(vp, values.length, maxPodFailurePolicyOnExitCodesValues));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalidValue(vp.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(vp.index(j), v));
    else seen.add(v);
    if (j > 0 && (values[j - 1] ?? 0) > v) ordered = false;
  });
  if (!ordered) errs.push(invalidValue(vp, values, 'must be ordered'));
  return errs;
}

function validateSuccessPolicy(spec: JobSpec, path: FieldPath): FieldError[] {
  const rules = spec.successPolicy?.rules ?? [];
  const rulesPath = path.child('rules');
  const errs: FieldError[] = [];
  if (rules.length === 0) errs.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > maxSuccessPolicyRule) errs.push(tooMany(rulesPath, rules.length, maxSuccessPolicyRule));
  rules.forEach((r, i) => errs.push(...validateSuccessPolicyRule(spec, r, rulesPath.index(i))));
  return errs;
}

function validateSuccessPolicyRule(spec: JobSpec, rule: SuccessPolicyRule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const completions = spec.completions ?? 0;
  if (rule.succeededCount === undefined && rule.succeededIndexes === undefined) {
    errs.push(required(path, 'at least one of succeededCount or succeededIndexes must be specified'));
  }
  let total = 0;
  if (rule.succeededIndexes !== undefined) {
    const p = path.child('succeededIndexes');
    if (rule.succeededIndexes.length > maxJobSuccessPolicySucceededIndexesLimit) errs.push(tooLong(p, maxJobSuccessPolicySucceededIndexesLimit));
    const parsed = parseIndexes(rule.succeededIndexes, completions);
    if (typeof parsed === 'string') errs.push(invalidValue(p, rule.succeededIndexes, `error parsing succeededIndexes: ${parsed}`));
    else total = parsed;
  }
  if (rule.succeededCount !== undefined) {
    const p = path.child('succeededCount');
    errs.push(...nonneg(rule.succeededCount, p));
    if (rule.succeededCount > completions) {
      errs.push(invalidValue(p, rule.succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`));
    }
    if (rule.succeededIndexes !== undefined && rule.succeededCount > total) {
      errs.push(invalidValue(p, rule.succeededCount, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  }
  return errs;
}

/** validateIndexesFormat: the number of indexes in `"0,2-4"`, or the parse error. */
export function parseIndexes(text: string, completions: number): number | string {
  if (!text) return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of text.split(',')) {
    const limits = interval.split('-');
    if (limits.length > 2) return `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`;
    const bounds: number[] = [];
    for (const l of limits) {
      if (!/^[+-]?\d+$/.test(l)) return `cannot convert string to integer for index: ${JSON.stringify(l)}`;
      const v = Number(l);
      if (v >= completions) return `too large index: ${JSON.stringify(l)}`;
      bounds.push(v);
    }
    const x = bounds[0] ?? 0;
    const y = bounds[1] ?? x;
    if (bounds.length === 2 && x >= y) return `non-increasing order, previous: ${x}, current: ${y}`;
    if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
    total += y - x + 1;
    last = y;
  }
  return total;
}

/** ValidateJobSpecUpdate with the options validationOptionsForJob derives from the old Job. */
export function validateJobSpecUpdate(job: Job, old: Job): FieldError[] {
  const spec = job.spec;
  const prev = old.spec;
  const path = root('spec');
  const errs = validateJobSpec(spec, path);
  errs.push(...validateCompletionsUpdate(spec, prev, path.child('completions')));
  errs.push(...validateImmutable(spec.selector, prev.selector, path.child('selector')));
  errs.push(...validateTemplateUpdate(job, old, path.child('template')));
  for (const f of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'] as const) {
    errs.push(...validateImmutable(spec[f], prev[f], path.child(f)));
  }
  return errs;
}

function validateCompletionsUpdate(spec: JobSpec, prev: JobSpec, path: FieldPath): FieldError[] {
  // ElasticIndexedJob (GA): an Indexed Job may change completions together with parallelism.
  if (!isIndexed(spec)) return validateImmutable(spec.completions, prev.completions, path);
  if (spec.completions === prev.completions || spec.completions === undefined) return [];
  return spec.completions !== spec.parallelism ? [invalidValue(path, spec.completions, 'can only be modified in tandem with spec.parallelism')] : [];
}

/** Suspended Jobs that never started may change scheduling directives, labels and annotations. */
function validateTemplateUpdate(job: Job, old: Job, path: FieldPath): FieldError[] {
  const next = job.spec.template;
  let prev = old.spec.template;
  if (old.spec.suspend === true && !old.status?.startTime) {
    const copy = structuredClone(prev);
    const ns = next?.spec ?? { containers: [] };
    if (copy.spec) {
      if (ns.affinity === undefined && copy.spec.affinity) {
        delete copy.spec.affinity.nodeAffinity;
        if (Object.keys(copy.spec.affinity).length === 0) delete copy.spec.affinity;
      } else if (ns.affinity) {
        const nodeAffinity = ns.affinity.nodeAffinity;
        copy.spec.affinity = { ...(copy.spec.affinity ?? {}) };
        if (nodeAffinity) copy.spec.affinity.nodeAffinity = nodeAffinity;
        else delete copy.spec.affinity.nodeAffinity;
      }
      if (ns.nodeSelector) copy.spec.nodeSelector = ns.nodeSelector;
      else delete copy.spec.nodeSelector;
      if (ns.tolerations) copy.spec.tolerations = ns.tolerations;
      else delete copy.spec.tolerations;
      if (ns.schedulingGates) copy.spec.schedulingGates = ns.schedulingGates;
      else delete copy.spec.schedulingGates;
    }
    copy.metadata = { ...(copy.metadata ?? {}) };
    if (next?.metadata?.labels) copy.metadata.labels = next.metadata.labels;
    else delete copy.metadata.labels;
    if (next?.metadata?.annotations) copy.metadata.annotations = next.metadata.annotations;
    else delete copy.metadata.annotations;
    prev = copy;
  }
  return isDeepEqual(next, prev) ? [] : [invalidValue(path, next, 'field is immutable')];
}

/** Whether an update must keep the prefixed generated labels: only if the old template had both. */
export function requirePrefixedLabelsOnUpdate(old: Job): boolean {
  const labels = old.spec.template?.metadata?.labels ?? {};
  return Object.hasOwn(labels, JobLabel.JobName) && Object.hasOwn(labels, JobLabel.ControllerUid);
}

const isFinished = (j: Job): boolean => isJobConditionTrue(j, 'Complete') || isJobConditionTrue(j, 'Failed');

/** ValidateJobUpdateStatus with the 1.35 options (JobManagedBy GA): strict checks on changed fields. */
export function validateJobStatusUpdate(job: Job, old: Job): FieldError[] {
  const s: JobStatus = job.status ?? {};
  const o: JobStatus = old.status ?? {};
  const path = root('status');
  const changed = {
    finished: isFinished(old) !== isFinished(job),
    complete: isJobConditionTrue(old, 'Complete') !== isJobConditionTrue(job, 'Complete'),
    failed: isJobConditionTrue(old, 'Failed') !== isJobConditionTrue(job, 'Failed'),
    failureTarget: isJobConditionTrue(old, 'FailureTarget') !== isJobConditionTrue(job, 'FailureTarget'),
    successCriteriaMet: isJobConditionTrue(old, 'SuccessCriteriaMet') !== isJobConditionTrue(job, 'SuccessCriteriaMet'),
    completedIndexes: (o.completedIndexes ?? '') !== (s.completedIndexes ?? ''),
    failedIndexes: o.failedIndexes !== s.failedIndexes,
    active: (o.active ?? 0) !== (s.active ?? 0),
    ready: o.ready !== s.ready,
    terminating: o.terminating !== s.terminating,
    startTime: o.startTime !== s.startTime,
    completionTime: o.completionTime !== s.completionTime,
    uncounted: !isDeepEqual(o.uncountedTerminatedPods, s.uncountedTerminatedPods),
  };
  const errs = validateJobStatus(job, path, changed);
  const cond = path.child('conditions');
  for (const t of ['Failed', 'Complete', 'FailureTarget'] as const) {
    if (isJobConditionTrue(old, t) && !isJobConditionTrue(job, t)) errs.push(omitted(invalidValue(cond, undefined, `cannot disable the terminal ${t}=True condition`)));
  }
  if ((s.failed ?? 0) < (o.failed ?? 0)) errs.push(invalidValue(path.child('failed'), s.failed ?? 0, 'cannot decrease the failed counter'));
  const elastic = isIndexed(job.spec) && job.spec.completions === job.spec.parallelism;
  if (!elastic && (s.succeeded ?? 0) < (o.succeeded ?? 0)) errs.push(invalidValue(path.child('succeeded'), s.succeeded ?? 0, 'cannot decrease the succeeded counter'));
  if (s.completionTime && o.completionTime && s.completionTime !== o.completionTime) {
    errs.push(invalidValue(path.child('completionTime'), s.completionTime, 'completionTime cannot be mutated'));
  }
  if (changed.startTime && o.startTime && job.spec.suspend !== true) errs.push(required(path.child('startTime'), 'startTime cannot be removed for unsuspended job'));
  if (isJobConditionTrue(old, 'SuccessCriteriaMet') && !isJobConditionTrue(job, 'SuccessCriteriaMet')) {
    errs.push(omitted(invalidValue(cond, undefined, 'cannot disable the SuccessCriteriaMet=True condition')));
  }
  if (isJobConditionTrue(old, 'Complete') && !isJobConditionTrue(old, 'SuccessCriteriaMet') && isJobConditionTrue(job, 'SuccessCriteriaMet')) {
    errs.push(omitted(invalidValue(cond, undefined, 'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions')));
  }
  return errs;
}

type Changed = Record<
  'finished' | 'complete' | 'failed' | 'failureTarget' | 'successCriteriaMet' | 'completedIndexes' | 'failedIndexes' | 'active' | 'ready' | 'terminating' | 'startTime' | 'completionTime' | 'uncounted',
  boolean
>;

function validateJobStatus(job: Job, path: FieldPath, c: Changed): FieldError[] {
  const s: JobStatus = job.status ?? {};
  const errs = [...nonneg(s.active, path.child('active')), ...nonneg(s.succeeded, path.child('succeeded')), ...nonneg(s.failed, path.child('failed'))];
  errs.push(...nonneg(s.ready, path.child('ready')), ...nonneg(s.terminating, path.child('terminating')));
  const seen = new Set<string>();
  for (const kind of ['succeeded', 'failed'] as const) {
    (s.uncountedTerminatedPods?.[kind] ?? []).forEach((uid, i) => {
      const p = path.child('uncountedTerminatedPods', kind).index(i);
      if (!uid) errs.push(invalidValue(p, uid, 'must not be empty'));
      else if (seen.has(uid)) errs.push(duplicate(p, uid));
      else seen.add(uid);
    });
  }
  const cond = path.child('conditions');
  const is = (t: Parameters<typeof isJobConditionTrue>[1]): boolean => isJobConditionTrue(job, t);
  const bad = (detail: string): FieldError => omitted(invalidValue(cond, undefined, detail));
  if ((c.complete || c.failed) && is('Complete') && is('Failed')) errs.push(bad('cannot set Complete=True and Failed=true conditions'));
  if ((c.complete || c.failureTarget) && is('Complete') && is('FailureTarget')) errs.push(bad('cannot set Complete=True and FailureTarget=true conditions'));
  if ((c.complete || c.completionTime) && s.completionTime && !is('Complete')) {
    errs.push(invalidValue(path.child('completionTime'), s.completionTime, 'cannot set completionTime when there is no Complete=True condition'));
  }
  if ((c.complete || c.completionTime) && !s.completionTime && is('Complete')) errs.push(required(path.child('completionTime'), 'completionTime is required for Complete jobs'));
  if ((c.startTime || c.completionTime) && s.startTime && s.completionTime && Date.parse(s.completionTime) < Date.parse(s.startTime)) {
    errs.push(invalidValue(path.child('completionTime'), s.completionTime, 'completionTime cannot be set before startTime'));
  }
  if ((c.failed || c.failedIndexes) && is('Failed') && !is('FailureTarget')) errs.push(bad('cannot set Failed=True condition without the FailureTarget=true condition'));
  if ((c.complete || c.successCriteriaMet) && is('Complete') && !is('SuccessCriteriaMet')) {
    errs.push(bad('cannot set Complete=True condition without the SuccessCriteriaMet=true condition'));
  }
  const finished = isFinished(job);
  if ((c.finished || c.active) && (s.active ?? 0) > 0 && finished) errs.push(invalidValue(path.child('active'), s.active ?? 0, 'active>0 is invalid for finished job'));
  if ((c.finished || c.startTime) && !s.startTime && finished) errs.push(required(path.child('startTime'), 'startTime is required for finished job'));
  const uncounted = (s.uncountedTerminatedPods?.failed ?? []).length + (s.uncountedTerminatedPods?.succeeded ?? []).length;
  if ((c.finished || c.uncounted) && finished && uncounted > 0) {
    errs.push(invalidValue(path.child('uncountedTerminatedPods'), s.uncountedTerminatedPods, 'uncountedTerminatedPods needs to be empty for finished job'));
  }
  const completions = job.spec.completions;
  if (c.completedIndexes && completions !== undefined) {
    const r = parseIndexes(s.completedIndexes ?? '', completions);
    if (typeof r === 'string') errs.push(invalidValue(path.child('completedIndexes'), s.completedIndexes ?? '', `error parsing completedIndexes: ${r}`));
  }
  if (c.failedIndexes && completions !== undefined && job.spec.backoffLimitPerIndex !== undefined && s.failedIndexes !== undefined) {
    const r = parseIndexes(s.failedIndexes, completions);
    if (typeof r === 'string') errs.push(invalidValue(path.child('failedIndexes'), s.failedIndexes, `error parsing failedIndexes: ${r}`));
  }
  if (c.completedIndexes && (s.completedIndexes ?? '') !== '' && !isIndexed(job.spec)) {
    errs.push(invalidValue(path.child('completedIndexes'), s.completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  if (c.failedIndexes && job.spec.backoffLimitPerIndex === undefined && s.failedIndexes !== undefined) {
    errs.push(invalidValue(path.child('failedIndexes'), s.failedIndexes, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if ((c.finished || c.terminating) && (s.terminating ?? 0) > 0 && finished) errs.push(invalidValue(path.child('terminating'), s.terminating ?? 0, 'terminating>0 is invalid for finished job'));
  if ((c.ready || c.active) && s.ready !== undefined && s.ready > (s.active ?? 0)) errs.push(invalidValue(path.child('ready'), s.ready, 'cannot set more ready pods than active'));
  if (is('SuccessCriteriaMet') && is('Failed')) errs.push(bad('cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (is('SuccessCriteriaMet') && is('FailureTarget')) errs.push(bad('cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (job.spec.successPolicy && !is('SuccessCriteriaMet') && is('Complete')) {
    errs.push(bad('cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }
  return errs;
}
