// Ingress and IngressClass (networking.k8s.io/v1): stored, defaulted and validated as upstream's, with
// the DefaultIngressClass admission choosing the class marked default; no ingress controller runs, so
// an Ingress's status stays empty, as on a cluster without one.
// Upstream: staging/src/k8s.io/api/networking/v1/types.go, pkg/apis/networking/v1/defaults.go,
// pkg/apis/networking/validation/validation.go, printers.go (printIngress, printIngressClass),
// plugin/pkg/admission/network/defaultingressclass/admission.go.
import { fillZeroFields, zeroFields } from '../../empty-objects.ts';
import { isIP } from 'node:net';
import { FieldPath, dns1123SubdomainFmt, forbiddenField, invalidValue, notSupported, regexError, required, tooLong } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName, isValidPortName, isValidPortNum, maxLenError, nameIsDNSSubdomain, validateDomainPrefixedPath, validateNamespaceName } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';

interface IngressBackend {
  service?: { name: string; port?: { name?: string; number?: number } };
  resource?: { apiGroup?: string; kind: string; name: string };
}

export interface Ingress extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    ingressClassName?: string;
    defaultBackend?: IngressBackend;
    tls?: { hosts?: string[]; secretName?: string }[];
    rules?: { host?: string; http?: { paths?: { path?: string; pathType?: string; backend: IngressBackend }[] } }[];
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

export interface IngressClass extends KubeObject {
  metadata: ObjectMeta;
  spec?: { controller?: string; parameters?: { apiGroup?: string; kind: string; name: string; scope?: string; namespace?: string } };
}

export const ingressClassAnnotation = 'kubernetes.io/ingress.class';
export const defaultIngressClassAnnotation = 'ingressclass.kubernetes.io/is-default-class';

const wildcardFmt = `\\*\\.${dns1123SubdomainFmt}`;
const wildcardRegexp = new RegExp(`^${wildcardFmt}$`);

/** IsWildcardDNS1123Subdomain. */
function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!wildcardRegexp.test(value)) errs.push(regexError("a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character", wildcardFmt, '*.example.com'));
  return errs;
}

function validateHost(host: string, path: FieldPath): FieldError[] {
  const check = host.includes('*') ? isWildcardDNS1123Subdomain : isDNS1123Subdomain;
  return check(host).map((msg) => invalidValue(path, host, msg));
}

/** validateIngressTypedLocalObjectReference: apiGroup a DNS subdomain, kind and name path segments. */
function validateTypedReference(ref: { apiGroup?: string; kind: string; name: string }, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (ref.apiGroup !== undefined) for (const msg of isDNS1123Subdomain(ref.apiGroup)) errs.push(invalidValue(path.child('apiGroup'), ref.apiGroup, msg));
  for (const field of ['kind', 'name'] as const) {
    if (!ref[field]) errs.push(required(path.child(field), ''));
    else for (const msg of isValidPathSegmentName(ref[field])) errs.push(invalidValue(path.child(field), ref[field], msg));
  }
  return errs;
}

function validateBackend(backend: IngressBackend, path: FieldPath): FieldError[] {
  if (backend.resource && backend.service) return [invalidValue(path, '', 'cannot set both resource and service backends')];
  if (backend.resource) return validateTypedReference(backend.resource, path.child('resource'));
  if (!backend.service) return [invalidValue(path, '', 'resource or service backend is required')];
  const service = backend.service;
  const errs: FieldError[] = [];
  const servicePath = path.child('service');
  if (!service.name) errs.push(required(servicePath.child('name'), ''));
  else for (const msg of isDNS1035Label(service.name)) errs.push(invalidValue(servicePath.child('name'), service.name, msg));
  const name = service.port?.name ?? '';
  const number = service.port?.number ?? 0;
  if (name && number) errs.push(invalidValue(path, '', 'cannot set both port name & port number'));
  else if (name) for (const msg of isValidPortName(name)) errs.push(invalidValue(servicePath.child('port').child('name'), name, msg));
  else if (number) for (const msg of isValidPortNum(number)) errs.push(invalidValue(servicePath.child('port').child('number'), number, msg));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

function validatePath(p: { path?: string; pathType?: string; backend: IngressBackend }, path: FieldPath): FieldError[] {
  if (p.pathType === undefined) return [required(path.child('pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  const pathField = path.child('path');
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(invalidValue(pathField, value, 'must be an absolute path'));
      if (value.length > 0) {
        for (const seq of ['//', '/./', '/../', '%2f', '%2F']) if (value.includes(seq)) errs.push(invalidValue(pathField, value, `must not contain '${seq}'`));
        for (const suffix of ['/..', '/.']) if (value.endsWith(suffix)) errs.push(invalidValue(pathField, value, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value.length > 0 && !value.startsWith('/')) errs.push(invalidValue(pathField, value, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(path.child('pathType'), p.pathType, ['Exact', 'ImplementationSpecific', 'Prefix']));
  }
  errs.push(...validateBackend(p.backend ?? {}, path.child('backend')));
  return errs;
}

function validateIngressSpec(spec: NonNullable<Ingress['spec']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && !spec.defaultBackend) errs.push(invalidValue(path, rules, 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, path.child('defaultBackend')));
  rules.forEach((rule, i) => {
    const rulePath = path.child('rules').index(i);
    if (rule.host) {
      if (isIP(rule.host)) errs.push(invalidValue(rulePath.child('host'), rule.host, 'must be a DNS name, not an IP address'));
      errs.push(...validateHost(rule.host, rulePath.child('host')));
    }
    if (rule.http) {
      const httpPath = rulePath.child('http');
      const paths = rule.http.paths ?? [];
      if (paths.length === 0) errs.push(required(httpPath.child('paths'), ''));
      paths.forEach((p, j) => errs.push(...validatePath(p, httpPath.child('paths').index(j))));
    }
  });
  (spec.tls ?? []).forEach((tls, i) => {
    const tlsPath = path.child('tls').index(i);
    (tls.hosts ?? []).forEach((host, j) => errs.push(...validateHost(host, tlsPath.child('hosts').index(j))));
    if (tls.secretName) for (const msg of nameIsDNSSubdomain(tls.secretName, false)) errs.push(invalidValue(tlsPath.child('secretName'), tls.secretName, msg));
  });
  if (spec.ingressClassName !== undefined) for (const msg of nameIsDNSSubdomain(spec.ingressClassName, false)) errs.push(invalidValue(path.child('ingressClassName'), spec.ingressClassName, msg));
  return errs;
}

function validateIngress(ingress: Ingress): FieldError[] {
  return [...validateObjectMeta(ingress.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }), ...validateIngressSpec(ingress.spec ?? {}, FieldPath.root('spec'))];
}

/** printIngress's HOSTS: up to three hosts, `*` for none. */
function formatHosts(rules: NonNullable<Ingress['spec']>['rules']): string {
  const all = rules ?? [];
  const hosts = all.slice(0, 3).map((r) => r.host ?? '').filter((h) => h !== '');
  if (hosts.length === 0) return '*';
  return all.length > 3 ? `${hosts.join(',')} + ${all.length - 3} more...` : hosts.join(',');
}

const ingressTable: TablePrinter<Ingress> = {
  columns: [
    nameColumn,
    column('Class', 'string', 'The name of the IngressClass cluster resource.'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    ageColumn,
  ],
  cells: (ing, now) => [
    ing.metadata.name ?? '',
    ing.spec?.ingressClassName ?? '<none>',
    formatHosts(ing.spec?.rules),
    (ing.status?.loadBalancer?.ingress ?? []).map((i) => i.ip || i.hostname || '').filter((a) => a !== '').join(','),
    ing.spec?.tls?.length ? '80, 443' : '80',
    translateTimestampSince(ing.metadata.creationTimestamp, now),
  ],
};

export const ingressDefinition: ResourceDefinition<Ingress> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'Ingress',
  resource: 'ingresses',
  singular: 'ingress',
  shortNames: ['ing'],
  namespaced: true,
  hasStatus: true,
  // IngressStatus.loadBalancer is a struct: Go writes {} where a writer left it out.
  defaults: (ingress) => {
    if (ingress.status) fillZeroFields(ingress.status as Record<string, unknown>, zeroFields('networking.k8s.io', 'v1', 'Ingress').status);
  },
  // PrepareForCreate: a new Ingress's status is the empty one, whatever the request carried.
  prepareForCreate: (ingress) => {
    ingress.status = { loadBalancer: {} };
  },
  validateCreate: (ingress) => {
    const errs = validateIngress(ingress);
    const annotation = ingress.metadata.annotations?.[ingressClassAnnotation];
    const className = ingress.spec?.ingressClassName;
    if (annotation !== undefined && className !== undefined && annotation !== className) {
      errs.push(invalidValue(FieldPath.root('annotations').key(ingressClassAnnotation), annotation, 'must match `ingressClassName` when both are specified'));
    }
    return errs;
  },
  validateUpdate: (ingress, old) => [...validateObjectMetaUpdate(ingress.metadata, old.metadata), ...validateIngressSpec(ingress.spec ?? {}, FieldPath.root('spec'))],
  table: ingressTable,
};

function validateParameters(params: NonNullable<IngressClass['spec']>['parameters'], path: FieldPath): FieldError[] {
  if (!params) return [];
  const errs = validateTypedReference(params, path);
  if (params.scope === undefined) return [...errs, required(path.child('scope'), '')];
  if (params.scope !== 'Cluster' && params.scope !== 'Namespace') return [...errs, notSupported(path.child('scope'), params.scope, ['Cluster', 'Namespace'])];
  if (params.scope === 'Namespace') {
    if (params.namespace === undefined) errs.push(required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const msg of validateNamespaceName(params.namespace, false)) errs.push(invalidValue(path.child('namespace'), params.namespace, msg));
  }
  if (params.scope === 'Cluster' && params.namespace !== undefined) errs.push(forbiddenField(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

function validateIngressClass(ic: IngressClass): FieldError[] {
  const errs = validateObjectMeta(ic.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const controller = ic.spec?.controller ?? '';
  const path = FieldPath.root('spec');
  if (!controller) errs.push(required(path.child('controller'), ''));
  else {
    if (controller.length > 250) errs.push(tooLong(path.child('controller'), 250));
    errs.push(...validateDomainPrefixedPath(controller, path.child('controller')));
  }
  errs.push(...validateParameters(ic.spec?.parameters, path.child('parameters')));
  return errs;
}

const ingressClassTable: TablePrinter<IngressClass> = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    ageColumn,
  ],
  cells: (ic, now) => {
    const p = ic.spec?.parameters;
    const parameters = p ? `${p.kind}${p.apiGroup !== undefined ? `.${p.apiGroup}` : ''}/${p.name}` : '<none>';
    return [ic.metadata.name ?? '', ic.spec?.controller ?? '', parameters, translateTimestampSince(ic.metadata.creationTimestamp, now)];
  },
};

export const ingressClassDefinition: ResourceDefinition<IngressClass> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IngressClass',
  resource: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  hasStatus: false,
  // SetDefaults_IngressClass: parameters without a scope are cluster-scoped.
  defaults: (ic) => {
    if (ic.spec?.parameters && ic.spec.parameters.scope === undefined) ic.spec.parameters.scope = 'Cluster';
  },
  validateCreate: validateIngressClass,
  validateUpdate: (ic, old) => [...validateObjectMetaUpdate(ic.metadata, old.metadata), ...validateImmutableField(ic.spec?.controller, old.spec?.controller, FieldPath.root('spec').child('controller')), ...validateIngressClass(ic)],
  table: ingressClassTable,
};
