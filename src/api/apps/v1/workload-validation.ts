// Validation shared by the replicated workload kinds (Deployment, ReplicaSet): replicas and
// selector rules, the pod template checks, and int-or-percent fields.
// Upstream: pkg/apis/apps/validation/validation.go (ValidatePodTemplateSpecForReplicaSet,
// ValidatePositiveIntOrPercent, IsNotMoreThan100Percent).
import { FieldPath, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { LabelSelector } from '../../../core/index.ts';
import type { PodTemplateSpec } from '../../core/v1/pod.ts';
import { goStringMap, invalidGoValue, isParsableSelector, validateLabelSelectorStrict, validatePodTemplate } from '../../workload-template.ts';
import { isEmptySelector, selectorMatches } from './selector.ts';

/** intstr.IntOrString on the wire: a JSON number or string. */
export type IntOrString = number | string;

export const isNegativeErrorMsg = 'must be greater than or equal to 0';

export function validateNonnegative(value: number | undefined, path: FieldPath): FieldError[] {
  return value !== undefined && value < 0 ? [invalidValue(path, value, isNegativeErrorMsg)] : [];
}

const percentRe = /^[0-9]+%$/;
const percentErrMsg =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%', or '93%', regex used for validation is '[0-9]+%')";

/** getIntOrPercentValue: percent strings yield their number, other strings parse like Atoi or yield 0. */
export function intOrPercentValue(v: IntOrString | undefined): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (percentRe.test(v)) return Number(v.slice(0, -1));
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** GetScaledValueFromIntOrPercent: percents of total, rounded up or down. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export function validatePositiveIntOrPercent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  if (v === undefined) return [];
  if (typeof v === 'string') return percentRe.test(v) ? [] : [invalidValue(path, v, percentErrMsg)];
  if (!Number.isInteger(v)) return [invalidValue(path, v, "must be an integer or percentage (e.g '5%%')")];
  return validateNonnegative(v, path);
}

export function isNotMoreThan100Percent(v: IntOrString | undefined, path: FieldPath): FieldError[] {
  if (typeof v !== 'string' || !percentRe.test(v)) return [];
  return Number(v.slice(0, -1)) > 100 ? [invalidValue(path, v, 'must not be greater than 100%')] : [];
}

/**
 * The selector block of ValidateDeploymentSpec / ValidateReplicaSetSpec. Both say "for deployment":
 * upstream reuses the Deployment text for ReplicaSets.
 */
export function validateWorkloadSelector(selector: LabelSelector | undefined, path: FieldPath): FieldError[] {
  if (!selector) return [required(path, '')];
  const errs = validateLabelSelectorStrict(selector, path);
  if (isEmptySelector(selector)) errs.push(invalidValue(path, selector, 'empty selector is invalid for deployment'));
  return errs;
}

/**
 * The template half of ValidateDeploymentSpec / ValidateReplicaSetSpec: skipped, with an
 * "invalid label selector" error, when the selector does not parse.
 */
export function validateSelectedTemplate(
  template: PodTemplateSpec | undefined,
  selector: LabelSelector | undefined,
  path: FieldPath,
): FieldError[] {
  const selectorPath = path.child('selector');
  if (!isParsableSelector(selector, selectorPath)) return [invalidValue(selectorPath, selector, 'invalid label selector')];
  return validatePodTemplateSpecForReplicaSet(template, selector, path.child('template'));
}

/** ValidatePodTemplateSpecForReplicaSet. */
export function validatePodTemplateSpecForReplicaSet(
  template: PodTemplateSpec | undefined,
  selector: LabelSelector | undefined,
  path: FieldPath,
): FieldError[] {
  if (!template) return [required(path, '')];
  const errs: FieldError[] = [];
  const labels = template.metadata?.labels;
  // A nil selector parses to labels.Nothing(), which is not Empty() and matches nothing.
  if (!isEmptySelector(selector) && !selectorMatches(selector, labels)) {
    errs.push(invalidGoValue(path.child('metadata', 'labels'), labels ?? null, goStringMap(labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplate(template, path));
  const restartPolicy = template.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') {
    errs.push(notSupported(path.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  }
  if (template.spec?.activeDeadlineSeconds !== undefined) {
    // Deployments reuse the ReplicaSet function upstream, hence the ReplicaSet wording for both.
    errs.push(forbiddenField(path.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}
