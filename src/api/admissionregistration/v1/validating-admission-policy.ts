// ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1):
// defaults, validation with upstream's messages (expressions compiled against the policy CEL
// environment), and tables. The API server's ValidatingAdmissionPolicy plugin enforces them.
// Upstream: pkg/apis/admissionregistration/v1/defaults.go, pkg/apis/admissionregistration/validation/validation.go,
// pkg/printers/internalversion/printers.go (printValidatingAdmissionPolicy, printValidatingAdmissionPolicyBinding).
import { duplicate, FieldPath, forbiddenField, goLabelSelectorString, invalidValue, notSupported, required, tooMany } from '../../../core/index.ts';
import type { FieldError, LabelSelector } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDNS1035Label, isValidPathSegmentName, validateLabelName } from '../../validation/names.ts';
import { nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { validateLabelSelectorStrict } from '../../workload-template.ts';
import { compilePolicyExpression } from './cel.ts';
import type { ResultType } from './cel.ts';
import type { MatchCondition, MatchResources, NamedRuleWithOperations, ParamKind, ParamRef, Validation, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './types.ts';

const group = 'admissionregistration.k8s.io';
const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const supportedScopes = ['*', 'Cluster', 'Namespaced'];
const supportedFailurePolicies = ['Fail', 'Ignore'];
const supportedMatchPolicies = ['Equivalent', 'Exact'];
const supportedReasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const validationActions = ['Audit', 'Deny', 'Warn'];
const maxAuditAnnotations = 20;

/** SetDefaults_MatchResources and SetDefaults_Rule. */
function defaultMatchResources(m: MatchResources | undefined): void {
  if (!m) return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const rule of [...(m.resourceRules ?? []), ...(m.excludeResourceRules ?? [])]) rule.scope ??= '*';
}

export function defaultValidatingAdmissionPolicy(p: ValidatingAdmissionPolicy): void {
  p.spec ??= {};
  p.spec.failurePolicy ??= 'Fail';
  defaultMatchResources(p.spec.matchConstraints);
}

export function defaultValidatingAdmissionPolicyBinding(b: ValidatingAdmissionPolicyBinding): void {
  b.spec ??= {};
  defaultMatchResources(b.spec.matchResources);
}

function validateExpression(expression: string, resultType: ResultType, path: FieldPath): FieldError[] {
  const compiled = compilePolicyExpression(expression, resultType);
  return compiled.ok ? [] : [invalidValue(path, expression, compiled.message)];
}

function validateResources(resources: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const wildcardSubresourcesOf = new Set<string>();
  const subresourcesOfWildcard = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(path.index(i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (wildcardSubresourcesOf.has(res)) errs.push(invalidValue(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourcesOfWildcard.has(sub)) errs.push(invalidValue(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') wildcardSubresourcesOf.add(res);
    if (res === '*') subresourcesOfWildcard.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalidValue(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource) errs.push(invalidValue(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateNamedRuleWithOperations: resource names, operations, then the rule (validateRule with subresources). */
export function validateRule(rule: NamedRuleWithOperations, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    for (const msg of isValidPathSegmentName(name)) errs.push(invalidValue(path.child('resourceNames').index(i), name, msg));
    if (names.has(name)) errs.push(duplicate(path.child('resourceNames').index(i), name));
    names.add(name);
  });
  const operations = rule.operations ?? [];
  if (operations.length === 0) errs.push(required(path.child('operations')));
  if (operations.length > 1 && operations.includes('*')) errs.push(invalidValue(path.child('operations'), operations, "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!supportedOperations.includes(op)) errs.push(notSupported(path.child('operations').index(i), op, supportedOperations));
  });
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(required(path.child('apiGroups')));
  if (groups.length > 1 && groups.includes('*')) errs.push(invalidValue(path.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errs.push(required(path.child('apiVersions')));
  if (versions.length > 1 && versions.includes('*')) errs.push(invalidValue(path.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(path.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(rule.resources ?? [], path.child('resources')));
  if (rule.scope !== undefined && !supportedScopes.includes(rule.scope)) errs.push(notSupported(path.child('scope'), rule.scope, supportedScopes));
  return errs;
}

export function validateSelector(selector: LabelSelector | undefined, path: FieldPath): FieldError[] {
  return selector === undefined ? [required(path)] : validateLabelSelectorStrict(selector, path);
}

function validateMatchResources(m: MatchResources | undefined, path: FieldPath): FieldError[] {
  if (!m) return [];
  const errs: FieldError[] = [];
  if (m.matchPolicy === undefined) errs.push(required(path.child('matchPolicy')));
  else if (!supportedMatchPolicies.includes(m.matchPolicy)) errs.push(notSupported(path.child('matchPolicy'), m.matchPolicy, supportedMatchPolicies));
  errs.push(...validateSelector(m.namespaceSelector, path.child('namespaceSelector')));
  errs.push(...validateSelector(m.objectSelector, path.child('objectSelector')));
  (m.resourceRules ?? []).forEach((r, i) => errs.push(...validateRule(r, path.child('resourceRules').index(i))));
  (m.excludeResourceRules ?? []).forEach((r, i) => errs.push(...validateRule(r, path.child('excludeResourceRules').index(i))));
  return errs;
}

function validateParamKind(kind: ParamKind, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = kind.apiVersion ?? '';
  if (apiVersion === '') errs.push(required(path.child('apiVersion')));
  else {
    const parts = apiVersion === '/' ? ['', ''] : apiVersion.split('/');
    if (parts.length > 2) errs.push(invalidValue(path.child('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else {
      const [g, v] = parts.length === 1 ? ['', parts[0] ?? ''] : [parts[0] ?? '', parts[1] ?? ''];
      const groupErrors = g ? nameIsDNSSubdomain(g, false) : [];
      if (groupErrors.length > 0) errs.push(invalidValue(path.child('apiVersion'), g, groupErrors.join(',')));
      if (v === '') errs.push(invalidValue(path.child('apiVersion'), apiVersion, 'version must be specified'));
      else if (isDNS1035Label(v).length > 0) errs.push(invalidValue(path.child('apiVersion'), v, isDNS1035Label(v).join(',')));
    }
  }
  const k = kind.kind ?? '';
  if (k === '') errs.push(required(path.child('kind')));
  else if (isDNS1035Label(k.toLowerCase()).length > 0) errs.push(invalidValue(path.child('kind'), k, `may have mixed case, but should otherwise match: ${isDNS1035Label(k.toLowerCase()).join(',')}`));
  return errs;
}

function validateValidation(v: Validation, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const expression = v.expression ?? '';
  if (expression.trim() === '') errs.push(required(path.child('expression'), 'expression is not specified'));
  else errs.push(...validateExpression(expression, 'bool', path.child('expression')));
  const messageExpression = v.messageExpression ?? '';
  if (messageExpression.length > 0 && messageExpression.trim() === '') errs.push(invalidValue(path.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim() !== '') errs.push(...validateExpression(messageExpression, 'string', path.child('messageExpression')));
  const message = v.message ?? '';
  if (message.length > 0 && message.trim() === '') errs.push(invalidValue(path.child('message'), message, 'message must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) errs.push(invalidValue(path.child('message'), message, 'message must not contain line breaks'));
  if (v.reason !== undefined && !supportedReasons.includes(v.reason)) errs.push(notSupported(path.child('reason'), v.reason, supportedReasons));
  return errs;
}

/** validateMatchConditions: at most 64, each a named bool expression, names unique. */
export function validateMatchConditions(conditions: readonly MatchCondition[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > 64) errs.push(tooMany(path, conditions.length, 64));
  const conditionNames = new Set<string>();
  conditions.forEach((c, i) => {
    const at = path.index(i);
    if ((c.expression ?? '').trim() === '') errs.push(required(at.child('expression')));
    else errs.push(...validateExpression(c.expression.trim(), 'bool', at.child('expression')));
    if (!c.name) errs.push(required(at.child('name')));
    else errs.push(...validateLabelName(c.name, at.child('name')));
    if (c.name && conditionNames.has(c.name)) errs.push(duplicate(at.child('name'), c.name));
    if (c.name) conditionNames.add(c.name);
  });
  return errs;
}

const celIdentifier = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const celReserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

export function validateValidatingAdmissionPolicy(p: ValidatingAdmissionPolicy): FieldError[] {
  const errs = validateObjectMeta(p.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const spec = p.spec ?? {};
  const path = FieldPath.root('spec');
  if (spec.failurePolicy === undefined) errs.push(required(path.child('failurePolicy')));
  else if (!supportedFailurePolicies.includes(spec.failurePolicy)) errs.push(notSupported(path.child('failurePolicy'), spec.failurePolicy, supportedFailurePolicies));
  if (spec.paramKind) errs.push(...validateParamKind(spec.paramKind, path.child('paramKind')));
  if (!spec.matchConstraints) errs.push(required(path.child('matchConstraints')));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, path.child('matchConstraints')));
    if ((spec.matchConstraints.resourceRules ?? []).length === 0) errs.push(required(path.child('matchConstraints', 'resourceRules')));
  }
  errs.push(...validateMatchConditions(spec.matchConditions ?? [], path.child('matchConditions')));
  (spec.variables ?? []).forEach((v, i) => {
    const at = path.child('variables').index(i);
    if (!v.name || v.name.trim() === '') errs.push(required(at.child('name'), 'name is not specified'));
    else if (!celIdentifier.test(v.name) || celReserved.has(v.name)) errs.push(invalidValue(at.child('name'), v.name, 'name is not a valid CEL identifier'));
    if (!v.expression || v.expression.trim() === '') errs.push(required(at.child('expression'), 'expression is not specified'));
    else errs.push(...validateExpression(v.expression, 'any', at.child('expression')));
  });
  const validations = spec.validations ?? [];
  const annotations = spec.auditAnnotations ?? [];
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(required(path.child('validations'), 'validations or auditAnnotations must contain at least one item'));
    errs.push(required(path.child('auditAnnotations'), 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(v, path.child('validations').index(i))));
  if (annotations.length > maxAuditAnnotations) errs.push(invalidValue(path.child('auditAnnotations'), annotations, `must not have more than ${maxAuditAnnotations} auditAnnotations`));
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const at = path.child('auditAnnotations').index(i);
    errs.push(...validateLabelName(`${p.metadata.name ?? ''}/${a.key}`, at.child('key')));
    if ((a.valueExpression ?? '').trim() === '') errs.push(required(at.child('valueExpression'), 'valueExpression is not specified'));
    else errs.push(...validateExpression(a.valueExpression.trim(), 'any', at.child('valueExpression')));
    if (keys.has(a.key)) errs.push(duplicate(at.child('key'), a.key));
    keys.add(a.key);
  });
  return errs;
}

function validateParamRef(ref: ParamRef | undefined, path: FieldPath): FieldError[] {
  if (!ref) return [];
  const errs: FieldError[] = [];
  if (ref.name) {
    for (const msg of isValidPathSegmentName(ref.name)) errs.push(invalidValue(path.child('name'), ref.name, msg));
    if (ref.selector) errs.push(forbiddenField(path.child('name'), 'name and selector are mutually exclusive'));
  }
  if (ref.selector) {
    errs.push(...validateLabelSelectorStrict(ref.selector, path.child('selector')));
    if (ref.name) errs.push(forbiddenField(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (!ref.name && !ref.selector) errs.push(required(path, 'one of name or selector must be specified'));
  if (!ref.parameterNotFoundAction) errs.push(required(path.child('parameterNotFoundAction')));
  else if (ref.parameterNotFoundAction !== 'Deny' && ref.parameterNotFoundAction !== 'Allow') errs.push(notSupported(path.child('parameterNotFoundAction'), ref.parameterNotFoundAction, ['Deny', 'Allow']));
  return errs;
}

export function validateValidatingAdmissionPolicyBinding(b: ValidatingAdmissionPolicyBinding): FieldError[] {
  const errs = validateObjectMeta(b.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const spec = b.spec ?? {};
  const path = FieldPath.root('spec');
  if (!spec.policyName) errs.push(required(path.child('policyName')));
  else for (const msg of nameIsDNSSubdomain(spec.policyName, false)) errs.push(invalidValue(path.child('policyName'), spec.policyName, msg));
  errs.push(...validateParamRef(spec.paramRef, path.child('paramRef')));
  errs.push(...validateMatchResources(spec.matchResources, path.child('matchResources')));
  const actions = spec.validationActions ?? [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!validationActions.includes(a)) errs.push(notSupported(path.child('validationActions').index(i), a, validationActions));
    if (seen.has(a)) errs.push(duplicate(path.child('validationActions').index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) errs.push(invalidValue(path.child('validationActions'), actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  if (seen.size === 0) errs.push(required(path.child('validationActions'), 'at least one validation action is required'));
  return errs;
}

const policyTable: TablePrinter<ValidatingAdmissionPolicy> = {
  columns: [
    nameColumn,
    column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
    column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy'),
    ageColumn,
  ],
  cells: (p, now) => {
    const kind = p.spec?.paramKind;
    return [p.metadata.name ?? '', p.spec?.validations?.length ?? 0, kind ? `${kind.apiVersion ?? ''}/${kind.kind ?? ''}` : '<unset>', translateTimestampSince(p.metadata.creationTimestamp, now)];
  },
};

/** The binding's param column: namespace/name (`*` when the namespace is not given), or the selector as Go prints it. */
function paramRefCell(ref: ParamRef | undefined): string {
  if (!ref) return '<unset>';
  if (ref.name) return `${ref.namespace || '*'}/${ref.name}`;
  return ref.selector ? goLabelSelectorString(ref.selector) : '<unset>';
}

const bindingTable: TablePrinter<ValidatingAdmissionPolicyBinding> = {
  columns: [
    nameColumn,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    ageColumn,
  ],
  cells: (b, now) => [b.metadata.name ?? '', b.spec?.policyName ?? '', paramRefCell(b.spec?.paramRef), translateTimestampSince(b.metadata.creationTimestamp, now)],
};

export const validatingAdmissionPolicyDefinition: ResourceDefinition<ValidatingAdmissionPolicy> = {
  group,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  resource: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  namespaced: false,
  categories: ['api-extensions'],
  hasStatus: true,
  defaults: defaultValidatingAdmissionPolicy,
  validateCreate: validateValidatingAdmissionPolicy,
  validateUpdate: (p, old) => [...validateObjectMetaUpdate(p.metadata, old.metadata), ...validateValidatingAdmissionPolicy(p)],
  validateStatusUpdate: (p, old) => validateObjectMetaUpdate(p.metadata, old.metadata),
  table: policyTable,
};

export const validatingAdmissionPolicyBindingDefinition: ResourceDefinition<ValidatingAdmissionPolicyBinding> = {
  group,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  resource: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  namespaced: false,
  categories: ['api-extensions'],
  hasStatus: false,
  defaults: defaultValidatingAdmissionPolicyBinding,
  validateCreate: validateValidatingAdmissionPolicyBinding,
  validateUpdate: (b, old) => [...validateObjectMetaUpdate(b.metadata, old.metadata), ...validateValidatingAdmissionPolicyBinding(b)],
  table: bindingTable,
};
