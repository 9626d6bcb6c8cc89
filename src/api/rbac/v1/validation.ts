// Defaults and validation of the RBAC kinds, with upstream's paths and messages.
// Upstream: pkg/apis/rbac/v1/defaults.go, pkg/apis/rbac/validation/validation.go.
import { FieldPath, GoSyntax, goStringSlice, invalidValue, jsonEqual, notSupported, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { isValidPathSegmentName, validateObjectMeta, validateObjectMetaUpdate, validateServiceAccountName } from '../../validation/index.ts';
import type { ValidateNameFunc } from '../../validation/index.ts';
import { validateLabelSelectorStrict } from '../../workload-template.ts';
import { rbacGroup } from './types.ts';
import type { ClusterRole, PolicyRule, Role, RoleBinding, Subject } from './types.ts';

/** ValidateRBACName: role and binding names only need to be safe in a URL path. */
export const validateRBACName: ValidateNameFunc = (name) => isValidPathSegmentName(name);

/** SetDefaults_RoleBinding / ClusterRoleBinding and SetDefaults_Subject. */
export function defaultBinding(binding: RoleBinding): void {
  binding.roleRef ??= { apiGroup: '', kind: '', name: '' };
  if (!binding.roleRef.apiGroup) binding.roleRef.apiGroup = rbacGroup;
  for (const subject of binding.subjects ?? []) {
    if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = rbacGroup;
  }
}

export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.verbs?.length) errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  if (rule.nonResourceURLs?.length) {
    const urls = new GoSyntax(goStringSlice(rule.nonResourceURLs));
    if (namespaced) errs.push(invalidValue(path.child('nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (rule.apiGroups?.length || rule.resources?.length || rule.resourceNames?.length) {
      errs.push(invalidValue(path.child('nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (!rule.apiGroups?.length) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (!rule.resources?.length) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(role: Role, namespaced: boolean): FieldError[] {
  const path = FieldPath.root('rules');
  return (role.rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, namespaced, path.index(i)));
}

export function validateRole(role: Role): FieldError[] {
  return [...validateObjectMeta(role.metadata, { namespaced: true, nameValidator: validateRBACName }), ...validateRules(role, true)];
}

export function validateClusterRole(role: ClusterRole): FieldError[] {
  const errs = [...validateObjectMeta(role.metadata, { namespaced: false, nameValidator: validateRBACName }), ...validateRules(role, false)];
  const aggregation = role.aggregationRule;
  if (aggregation) {
    const path = FieldPath.root('aggregationRule').child('clusterRoleSelectors');
    const selectors = aggregation.clusterRoleSelectors ?? [];
    if (selectors.length === 0) errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((selector, i) => errs.push(...validateLabelSelectorStrict(selector, path.index(i))));
  }
  return errs;
}

/** ValidateRoleBindingSubject. */
export function validateSubject(subject: Subject, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!subject.name) errs.push(required(path.child('name'), ''));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.name) for (const msg of validateServiceAccountName(subject.name, false)) errs.push(invalidValue(path.child('name'), subject.name, msg));
      if (subject.apiGroup) errs.push(notSupported(path.child('apiGroup'), subject.apiGroup, ['']));
      if (!namespaced && !subject.namespace) errs.push(required(path.child('namespace'), ''));
      break;
    case 'User':
    case 'Group':
      if (subject.apiGroup !== rbacGroup) errs.push(notSupported(path.child('apiGroup'), subject.apiGroup ?? '', [rbacGroup]));
      break;
    default:
      errs.push(notSupported(path.child('kind'), subject.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(binding: RoleBinding, namespaced: boolean): FieldError[] {
  const errs = validateObjectMeta(binding.metadata, { namespaced, nameValidator: validateRBACName });
  const ref = FieldPath.root('roleRef');
  const roleRef = binding.roleRef ?? { apiGroup: '', kind: '', name: '' };
  if (roleRef.apiGroup !== rbacGroup) errs.push(notSupported(ref.child('apiGroup'), roleRef.apiGroup ?? '', [rbacGroup]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(roleRef.kind)) errs.push(notSupported(ref.child('kind'), roleRef.kind ?? '', kinds));
  if (!roleRef.name) errs.push(required(ref.child('name'), ''));
  else for (const msg of validateRBACName(roleRef.name, false)) errs.push(invalidValue(ref.child('name'), roleRef.name, msg));
  const subjects = FieldPath.root('subjects');
  (binding.subjects ?? []).forEach((subject, i) => errs.push(...validateSubject(subject, namespaced, subjects.index(i))));
  return errs;
}

export const validateRoleBinding = (binding: RoleBinding): FieldError[] => validateBinding(binding, true);
export const validateClusterRoleBinding = (binding: RoleBinding): FieldError[] => validateBinding(binding, false);

/** ValidateRoleBindingUpdate: a binding's roleRef is fixed once created (delete and recreate it instead). */
export function validateBindingUpdate(binding: RoleBinding, old: RoleBinding, namespaced: boolean): FieldError[] {
  const errs = [...validateBinding(binding, namespaced), ...validateObjectMetaUpdate(binding.metadata, old.metadata)];
  if (!jsonEqual(binding.roleRef, old.roleRef)) {
    const { apiGroup, kind, name } = binding.roleRef;
    const shown = new GoSyntax(`rbac.RoleRef{APIGroup:${JSON.stringify(apiGroup)}, Kind:${JSON.stringify(kind)}, Name:${JSON.stringify(name)}}`);
    errs.push(invalidValue(FieldPath.root('roleRef'), shown, 'cannot change roleRef'));
  }
  return errs;
}
