// What the workload kinds (Deployment, ReplicaSet, Job) share about the objects they embed:
// pod template defaults and validation, strict label selector validation, object metadata
// checks and the "field is immutable" rule.
// Upstream: pkg/apis/core/validation/validation.go (ValidatePodTemplateSpec, ValidateImmutableField),
// apimachinery/pkg/apis/meta/v1/validation/validation.go (ValidateLabelSelector).
import { forbiddenField, invalidValue, required } from '../core/index.ts';
import type { FieldError, FieldPath } from '../core/index.ts';
import type { DeepReadonly, LabelSelector, ObjectMeta } from '../core/index.ts';
import type { PodTemplateSpec } from './core/v1/pod.ts';
import { defaultPodSpec } from './core/v1/pod/defaults.ts';
import { validatePodSpec } from './core/v1/pod/validation.ts';
import { validatePodDeletionCost } from './core/v1/pod/deletion-cost.ts';
import { isValidLabelValue, nameIsDNSSubdomain, validateAnnotations, validateLabelName, validateLabels } from './validation/names.ts';
import type { ValidateNameFunc } from './validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate as validateMetaUpdate } from './validation/object-meta.ts';

/**
 * apiequality.Semantic.DeepEqual on JSON values: like Go's, an absent list or map equals an
 * empty one.
 */
export function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyish(a) && isEmptyish(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => isDeepEqual(v, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const k of keys) if (!isDeepEqual(ra[k], rb[k])) return false;
  return true;
}

function isEmptyish(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return false;
}

/** ValidateObjectMeta for a create; every workload kind's names are DNS subdomains. */
export function validateObjectMetaCreate(
  meta: DeepReadonly<ObjectMeta>,
  namespaced: boolean,
  path: FieldPath,
  nameValidator: ValidateNameFunc = nameIsDNSSubdomain,
): FieldError[] {
  return validateObjectMeta(meta, { namespaced, nameValidator }, path);
}

export function validateObjectMetaUpdate(meta: DeepReadonly<ObjectMeta>, old: DeepReadonly<ObjectMeta>, path: FieldPath): FieldError[] {
  return validateMetaUpdate(meta, old, path);
}

/** ValidateImmutableField. */
export function validateImmutable(next: unknown, prev: unknown, path: FieldPath): FieldError[] {
  return isDeepEqual(next, prev) ? [] : [invalidValue(path, next, 'field is immutable')];
}

/** ValidateHasLabel: generated selectors need their labels on the template. */
export function validateHasLabel(meta: ObjectMeta | undefined, path: FieldPath, key: string, expected: string): FieldError[] {
  const labels = meta?.labels ?? {};
  const labelPath = path.child('labels').key(key);
  if (!Object.hasOwn(labels, key)) return [required(labelPath, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalidValue(labelPath, labels, `must be '${expected}'`)];
}

/** ValidateLabelSelector with AllowInvalidLabelValueInSelector false. */
export function validateLabelSelectorStrict(selector: LabelSelector | undefined, path: FieldPath): FieldError[] {
  if (!selector) return [];
  const errs = validateLabels(selector.matchLabels, path.child('matchLabels'));
  (selector.matchExpressions ?? []).forEach((r, i) => {
    const p = path.child('matchExpressions').index(i);
    const values = r.values ?? [];
    // key and operator are Go values: left out of a body, they are "".
    const operator = r.operator ?? '';
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbiddenField(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalidValue(p.child('operator'), operator, 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(r.key ?? '', p.child('key')));
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(v)) errs.push(invalidValue(p.child('values').index(j), v, msg));
    });
  });
  return errs;
}

/** SetDefaults_PodSpec (and nested defaults) applied to a template, as the generated defaulters do. */
export function defaultPodTemplate(template: PodTemplateSpec): void {
  defaultPodSpec((template.spec ??= { containers: [] }));
}

/** ValidatePodTemplateSpec. Label errors are reported at `<path>.labels`, as upstream does. */
export function validatePodTemplate(template: PodTemplateSpec, path: FieldPath): FieldError[] {
  const meta = template.metadata ?? {};
  const errs = [
    ...validateLabels(meta.labels, path.child('labels')),
    ...validateAnnotations(meta.annotations, path.child('annotations')),
    ...validatePodDeletionCost(meta.annotations, path.child('annotations')),
    ...validateTemplatePodSpec(template, path.child('spec')),
  ];
  if ((template.spec?.ephemeralContainers ?? []).length > 0) {
    errs.push(forbiddenField(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

function validateTemplatePodSpec(template: PodTemplateSpec, path: FieldPath): FieldError[] {
  return validatePodSpec(template.spec, path, { resourceIsPod: false });
}

/** Go's %#v of a map[string]string, which is how upstream prints a bad labels value. */
export function goStringMap(m: Readonly<Record<string, string>> | undefined): string {
  if (!m) return 'map[string]string(nil)';
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** Go's %#v of a []string. */
export function goStringSlice(values: readonly string[] | undefined): string {
  return values ? `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}` : '[]string(nil)';
}

/**
 * field.Invalid whose value prints as Go would (`map[string]string{...}`) instead of JSON; the
 * raw value stays in badValue.
 */
export function invalidGoValue(path: FieldPath, value: unknown, rendered: string, detail: string): FieldError {
  return { ...invalidValue(path, value, `${rendered}: ${detail}`), omitValue: true };
}

/** metav1.LabelSelectorAsSelector fails exactly when the strict validation finds a problem. */
export function isParsableSelector(selector: LabelSelector | undefined, path: FieldPath): boolean {
  return validateLabelSelectorStrict(selector, path).length === 0;
}
