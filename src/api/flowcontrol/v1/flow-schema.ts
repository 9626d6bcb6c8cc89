// FlowSchema (flowcontrol.apiserver.k8s.io/v1): which requests go to which priority level. Served,
// defaulted and validated as upstream's; Drydock does not classify requests by them.
// Upstream: staging/src/k8s.io/api/flowcontrol/v1/types.go, pkg/apis/flowcontrol/v1/defaults.go,
// pkg/apis/flowcontrol/validation/validation.go, pkg/registry/flowcontrol/flowschema/strategy.go, printers.go.
import { FieldPath, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { column, nameColumn, translateTimestampSince, ageColumn } from '../../table-cells.ts';
import { isDNS1123Subdomain, validateNamespaceName } from '../../validation/names.ts';
import { validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { goStringSlice, invalidGoValue } from '../../workload-template.ts';
import { flowcontrolConditionErrors, mandatorySpecErrors } from './flowcontrol-validation.ts';
import type { FlowcontrolCondition } from './flowcontrol-validation.ts';

export interface FlowSubject {
  kind?: string;
  user?: { name?: string };
  group?: { name?: string };
  serviceAccount?: { namespace?: string; name?: string };
}

export interface ResourcePolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface NonResourcePolicyRule {
  verbs?: string[];
  nonResourceURLs?: string[];
}

export interface FlowSchemaSpec {
  priorityLevelConfiguration?: { name?: string };
  matchingPrecedence?: number;
  distinguisherMethod?: { type?: string };
  rules?: { subjects?: FlowSubject[]; resourceRules?: ResourcePolicyRule[]; nonResourceRules?: NonResourcePolicyRule[] }[];
}

export interface FlowSchema extends KubeObject {
  metadata: ObjectMeta;
  spec?: FlowSchemaSpec;
  status?: { conditions?: FlowcontrolCondition[] };
}

export const maxMatchingPrecedence = 10_000;
const supportedVerbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";

/** SetDefaults_FlowSchemaSpec: precedence 1000 when left out. */
export function defaultFlowSchema(fs: FlowSchema): void {
  if (fs.spec && !fs.spec.matchingPrecedence) fs.spec.matchingPrecedence = 1000;
}

function validateSubject(s: FlowSubject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const forbidOthers = (keep: 'user' | 'group' | 'serviceAccount'): void => {
    if (keep !== 'serviceAccount' && s.serviceAccount) errs.push(forbiddenField(path.child('serviceAccount'), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"));
    if (keep !== 'user' && s.user) errs.push(forbiddenField(path.child('user'), "user is forbidden when subject kind is not 'User'"));
    if (keep !== 'group' && s.group) errs.push(forbiddenField(path.child('group'), "group is forbidden when subject kind is not 'Group'"));
  };
  switch (s.kind) {
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (!sa) errs.push(required(path.child('serviceAccount'), "serviceAccount is required when subject kind is 'ServiceAccount'"));
      else {
        if (!sa.name) errs.push(required(path.child('serviceAccount', 'name'), ''));
        else if (sa.name !== '*') for (const msg of isDNS1123Subdomain(sa.name)) errs.push(invalidValue(path.child('serviceAccount', 'name'), sa.name, msg));
        if (!sa.namespace) errs.push(required(path.child('serviceAccount', 'namespace'), 'must specify namespace for service account'));
        else for (const msg of validateNamespaceName(sa.namespace, false)) errs.push(invalidValue(path.child('serviceAccount', 'namespace'), sa.namespace, msg));
      }
      forbidOthers('serviceAccount');
      break;
    }
    case 'User':
    case 'Group': {
      const field = s.kind === 'User' ? 'user' : 'group';
      const subject = s[field];
      if (!subject) errs.push(required(path.child(field), `${field} is required when subject kind is '${s.kind}'`));
      else if (!subject.name) errs.push(required(path.child(field, 'name'), ''));
      forbidOthers(field);
      break;
    }
    default:
      errs.push(notSupported(path.child('kind'), s.kind ?? '', ['Group', 'ServiceAccount', 'User']));
  }
  return errs;
}

/** The verbs rule both kinds of policy rule share. */
function validateVerbs(verbs: readonly string[] | undefined, path: FieldPath): FieldError[] {
  if (!verbs?.length) return [required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [invalidGoValue(path, verbs, goStringSlice(verbs), "if '*' is present, must not specify other verbs")] : [];
  if (verbs.every((v) => supportedVerbs.includes(v))) return [];
  return [notSupportedGo(path, verbs, goStringSlice(verbs), supportedVerbs)];
}

/** field.NotSupported with the value printed as Go's %#v. */
function notSupportedGo(path: FieldPath, value: unknown, rendered: string, valid: readonly string[]): FieldError {
  const error = notSupported(path, value, valid);
  return { ...error, detail: `${rendered}: ${error.detail}`, omitValue: true };
}

/** A list where '*' must stand alone. */
function wildcardAlone(values: readonly string[], path: FieldPath, what: string): FieldError[] {
  return values.length > 1 && values.includes('*') ? [invalidGoValue(path, values, goStringSlice(values), `if '*' is present, must not specify other ${what}`)] : [];
}

function validateResourceRule(rule: ResourcePolicyRule, path: FieldPath): FieldError[] {
  const errs = validateVerbs(rule.verbs, path.child('verbs'));
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  else errs.push(...wildcardAlone(groups, path.child('apiGroups'), 'api groups'));
  const resources = rule.resources ?? [];
  if (resources.length === 0) errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  else errs.push(...wildcardAlone(resources, path.child('resources'), 'resources'));
  const namespaces = rule.namespaces ?? [];
  if (namespaces.length === 0 && !rule.clusterScope) errs.push(required(path.child('namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
  else if (namespaces.includes('*')) errs.push(...wildcardAlone(namespaces, path.child('namespaces'), 'namespaces'));
  else namespaces.forEach((ns, i) => {
    for (const msg of validateNamespaceName(ns, false)) errs.push(invalidValue(path.child('namespaces').index(i), ns, nsErrIntro + msg));
  });
  return errs;
}

/** ValidateNonResourceURLPath. */
function validateURLPath(url: string, path: FieldPath): FieldError[] {
  const invalid = (msg: string): FieldError[] => [invalidValue(path, url, msg)];
  if (url === '') return invalid('must not be empty');
  if (url === '/') return [];
  if (!url.startsWith('/')) return invalid('must start with slash');
  if (url.includes(' ')) return invalid('must not contain white-space');
  if (url.includes('//')) return invalid('must not contain double slash');
  const stars = url.split('*').length - 1;
  if (stars > 1 || (stars === 1 && !url.endsWith('/*'))) return invalid('wildcard can only do suffix matching');
  return [];
}

function validateNonResourceRule(rule: NonResourcePolicyRule, path: FieldPath): FieldError[] {
  const errs = validateVerbs(rule.verbs, path.child('verbs'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length === 0) errs.push(required(path.child('nonResourceURLs'), 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) errs.push(...wildcardAlone(urls, path.child('nonResourceURLs'), 'non-resource URLs'));
  else urls.forEach((u, i) => errs.push(...validateURLPath(u, path.child('nonResourceURLs').index(i))));
  return errs;
}

/** ValidateFlowSchemaSpec. */
function validateSpec(name: string, spec: FlowSchemaSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) errs.push(invalidValue(path.child('matchingPrecedence'), precedence, 'must be a positive value'));
  if (precedence > maxMatchingPrecedence) errs.push(invalidValue(path.child('matchingPrecedence'), precedence, `must not be greater than ${maxMatchingPrecedence}`));
  if (precedence === 1 && name !== 'exempt') errs.push(invalidValue(path.child('matchingPrecedence'), precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = spec.distinguisherMethod;
  if (method && method.type !== 'ByNamespace' && method.type !== 'ByUser') {
    errs.push(notSupportedGo(path.child('distinguisherMethod', 'type'), method, `flowcontrol.FlowDistinguisherMethod{Type:${JSON.stringify(method.type ?? '')}}`, ['ByNamespace', 'ByUser']));
  }
  const plName = spec.priorityLevelConfiguration?.name ?? '';
  if (plName) for (const msg of isDNS1123Subdomain(plName)) errs.push(invalidValue(path.child('priorityLevelConfiguration', 'name'), plName, msg));
  else errs.push(required(path.child('priorityLevelConfiguration', 'name'), 'must reference a priority level'));
  (spec.rules ?? []).forEach((rule, i) => {
    const at = path.child('rules').index(i);
    if (rule.subjects?.length) rule.subjects.forEach((s, j) => errs.push(...validateSubject(s, at.child('subjects').index(j))));
    else errs.push(required(at.child('subjects'), 'subjects must contain at least one value'));
    if (!rule.resourceRules?.length && !rule.nonResourceRules?.length) errs.push(required(at, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    (rule.resourceRules ?? []).forEach((r, j) => errs.push(...validateResourceRule(r, at.child('resourceRules').index(j))));
    (rule.nonResourceRules ?? []).forEach((r, j) => errs.push(...validateNonResourceRule(r, at.child('nonResourceRules').index(j))));
  });
  return errs;
}

const status = FieldPath.root('status');

function validate(fs: FlowSchema): FieldError[] {
  const name = fs.metadata.name ?? '';
  return [...validateSpec(name, fs.spec ?? {}, FieldPath.root('spec')), ...mandatorySpecErrors('flowSchemas', name, fs.spec), ...flowcontrolConditionErrors(fs.status?.conditions, status)];
}

/** printFlowSchema: MissingPL from the Dangling condition ("?" until the controller has judged); lists by precedence, then name. */
const flowSchemaTable: TablePrinter<FlowSchema> = {
  columns: [
    nameColumn,
    column('PriorityLevel', 'string', '`name` is the name of the priority level configuration being referenced Required.'),
    column('MatchingPrecedence', 'string', '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.'),
    column('DistinguisherMethod', 'string', '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.'),
    ageColumn,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells(fs, now) {
    const dangling = fs.status?.conditions?.find((c) => c.type === 'Dangling');
    const missing = dangling ? (dangling.status ?? '') : '?';
    return [fs.metadata.name ?? '', fs.spec?.priorityLevelConfiguration?.name ?? '', fs.spec?.matchingPrecedence ?? 0, fs.spec?.distinguisherMethod?.type ?? '<none>', translateTimestampSince(fs.metadata.creationTimestamp, now), missing];
  },
  compareRows: (a, b) => (a.spec?.matchingPrecedence ?? 0) - (b.spec?.matchingPrecedence ?? 0) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0),
};

export const flowSchemaDefinition: ResourceDefinition<FlowSchema> = {
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'FlowSchema',
  resource: 'flowschemas',
  singular: 'flowschema',
  namespaced: false,
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultFlowSchema,
  prepareForCreate(fs) {
    fs.status = {};
  },
  prepareForUpdate(fs, old, ctx) {
    if (ctx.subresource === 'status') {
      if (old.spec) fs.spec = old.spec;
      else delete fs.spec;
      return;
    }
    fs.status = old.status ?? {};
  },
  validateCreate: (fs) => validate(fs),
  validateUpdate: (fs, old) => [...validateObjectMetaUpdate(fs.metadata, old.metadata), ...validate(fs)],
  validateStatusUpdate: (fs, old) => [...validateObjectMetaUpdate(fs.metadata, old.metadata), ...flowcontrolConditionErrors(fs.status?.conditions, status)],
  table: flowSchemaTable,
};
