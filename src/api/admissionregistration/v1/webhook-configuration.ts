// ValidatingWebhookConfiguration and MutatingWebhookConfiguration (admissionregistration.k8s.io/v1):
// defaults, validation with upstream's messages, and tables. The API server's admission webhook
// plugins call the webhooks they list.
// Upstream: pkg/apis/admissionregistration/v1/defaults.go, pkg/apis/admissionregistration/validation/validation.go,
// staging/src/k8s.io/apiserver/pkg/util/webhook/validation.go, printers.go (printValidatingWebhook).
import { duplicate, FieldPath, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDNS1035Label, isValidPortNum, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import type { MutatingWebhook, MutatingWebhookConfiguration, ServiceReference, ValidatingWebhookConfiguration, Webhook } from './types.ts';
import { validateMatchConditions, validateRule, validateSelector } from './validating-admission-policy.ts';

const acceptedReviewVersions = ['v1', 'v1beta1'];
const noSideEffectClasses = ['None', 'NoneOnDryRun'];

function defaultWebhook(hook: Webhook | MutatingWebhook, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (hook.clientConfig?.service) hook.clientConfig.service.port ??= 443;
  for (const rule of hook.rules ?? []) rule.scope ??= '*';
  if (mutating) (hook as MutatingWebhook).reinvocationPolicy ??= 'Never';
}

/** ValidateWebhookURL with https required. */
function validateUrl(text: string, path: FieldPath): FieldError[] {
  const form = '; desired format: https://host[/path]';
  let url: URL;
  try {
    url = new URL(text);
  } catch (e) {
    return [required(path, `url must be a valid URL: ${e instanceof Error ? e.message : String(e)}${form}`)];
  }
  const errs: FieldError[] = [];
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'https') errs.push(invalidValue(path, scheme, `'https' is the only allowed URL scheme${form}`));
  if (url.host === '') errs.push(invalidValue(path, url.host, `host must be specified${form}`));
  if (url.username || url.password) errs.push(invalidValue(path, url.password ? `${url.username}:${url.password}` : url.username, 'user information is not permitted in the URL'));
  if (url.hash) errs.push(invalidValue(path, url.hash.slice(1), 'fragments are not permitted in the URL'));
  if (url.search) errs.push(invalidValue(path, url.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService: name, namespace, port, and a path of DNS-subdomain segments. */
function validateService(service: ServiceReference, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!service.name) errs.push(required(path.child('name'), 'service name is required'));
  if (!service.namespace) errs.push(required(path.child('namespace'), 'service namespace is required'));
  const portErrors = isValidPortNum(service.port ?? 443);
  if (portErrors.length > 0) errs.push(invalidValue(path.child('port'), service.port, `port is not valid: ${portErrors.join(', ')}`));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return errs;
  if (urlPath === '//') return [...errs, invalidValue(path.child('path'), urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalidValue(path.child('path'), urlPath, "must start with a '/'"));
  const steps = urlPath.slice(1).replace(/\/$/, '').split('/');
  steps.forEach((step, i) => {
    if (step === '') errs.push(invalidValue(path.child('path'), urlPath, `segment[${i}] may not be empty`));
    else for (const failure of nameIsDNSSubdomain(step, false)) errs.push(invalidValue(path.child('path'), urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

function validateReviewVersions(versions: readonly string[], path: FieldPath): FieldError[] {
  if (versions.length === 0) return [required(path, `must specify one of ${acceptedReviewVersions.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalidValue(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalidValue(path.index(i), v, msg));
  });
  if (!versions.some((v) => acceptedReviewVersions.includes(v))) errs.push(invalidValue(path, versions, `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  return errs;
}

function validateWebhook(hook: Webhook | MutatingWebhook, path: FieldPath, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = hook.name ?? '';
  if (name === '') errs.push(required(path.child('name')));
  else if (nameIsDNSSubdomain(name, false).length > 0) errs.push(invalidValue(path.child('name'), name, nameIsDNSSubdomain(name, false).join(',')));
  else if (name.split('.').length < 3) errs.push(invalidValue(path.child('name'), name, 'should be a domain with at least three segments separated by dots'));
  (hook.rules ?? []).forEach((rule, i) => errs.push(...validateRule({ ...rule, resourceNames: [] }, path.child('rules').index(i))));
  if (hook.failurePolicy !== undefined && !['Fail', 'Ignore'].includes(hook.failurePolicy)) errs.push(notSupported(path.child('failurePolicy'), hook.failurePolicy, ['Fail', 'Ignore']));
  if (hook.matchPolicy !== undefined && !['Equivalent', 'Exact'].includes(hook.matchPolicy)) errs.push(notSupported(path.child('matchPolicy'), hook.matchPolicy, ['Equivalent', 'Exact']));
  if (hook.sideEffects === undefined) errs.push(required(path.child('sideEffects'), `must specify one of ${noSideEffectClasses.join(', ')}`));
  else if (!noSideEffectClasses.includes(hook.sideEffects)) errs.push(notSupported(path.child('sideEffects'), hook.sideEffects, noSideEffectClasses));
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (timeout > 30 || timeout < 1)) errs.push(invalidValue(path.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  if (hook.namespaceSelector) errs.push(...validateSelector(hook.namespaceSelector, path.child('namespaceSelector')));
  if (hook.objectSelector) errs.push(...validateSelector(hook.objectSelector, path.child('objectSelector')));
  const cc = hook.clientConfig ?? {};
  if ((cc.url === undefined) === (cc.service === undefined)) errs.push(required(path.child('clientConfig'), 'exactly one of url or service is required'));
  else if (cc.url !== undefined) errs.push(...validateUrl(cc.url, path.child('clientConfig', 'url')));
  else if (cc.service) errs.push(...validateService(cc.service, path.child('clientConfig', 'service')));
  errs.push(...validateMatchConditions(hook.matchConditions ?? [], path.child('matchConditions')));
  if (mutating) {
    const policy = (hook as MutatingWebhook).reinvocationPolicy;
    if (policy !== undefined && policy !== 'Never' && policy !== 'IfNeeded') errs.push(notSupported(path.child('reinvocationPolicy'), policy, ['IfNeeded', 'Never']));
  }
  return errs;
}

function validateConfiguration(config: ValidatingWebhookConfiguration | MutatingWebhookConfiguration, mutating: boolean): FieldError[] {
  const errs = validateObjectMeta(config.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const path = FieldPath.root('webhooks');
  const names = new Set<string>();
  (config.webhooks ?? []).forEach((hook, i) => {
    errs.push(...validateWebhook(hook, path.index(i), mutating));
    errs.push(...validateReviewVersions(hook.admissionReviewVersions ?? [], path.index(i).child('admissionReviewVersions')));
    if (hook.name && names.has(hook.name)) errs.push(duplicate(path.index(i).child('name'), hook.name));
    if (hook.name) names.add(hook.name);
  });
  return errs;
}

function table<T extends ValidatingWebhookConfiguration | MutatingWebhookConfiguration>(): TablePrinter<T> {
  return {
    columns: [nameColumn, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'), ageColumn],
    cells: (c, now) => [c.metadata.name ?? '', c.webhooks?.length ?? 0, translateTimestampSince(c.metadata.creationTimestamp, now)],
  };
}

function definition<T extends ValidatingWebhookConfiguration | MutatingWebhookConfiguration>(kind: string, resource: string, mutating: boolean): ResourceDefinition<T> {
  return {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind,
    resource,
    singular: kind.toLowerCase(),
    namespaced: false,
    categories: ['api-extensions'],
    hasStatus: false,
    defaults: (c) => {
      for (const hook of c.webhooks ?? []) defaultWebhook(hook, mutating);
    },
    validateCreate: (c) => validateConfiguration(c, mutating),
    validateUpdate: (c, old) => [...validateObjectMetaUpdate(c.metadata, old.metadata), ...validateConfiguration(c, mutating)],
    table: table<T>(),
  };
}

export const validatingWebhookConfigurationDefinition = definition<ValidatingWebhookConfiguration>('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', false);
export const mutatingWebhookConfigurationDefinition = definition<MutatingWebhookConfiguration>('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', true);
