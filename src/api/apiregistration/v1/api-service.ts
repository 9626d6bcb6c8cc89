// APIService (apiregistration.k8s.io/v1): one group-version the aggregator serves, either locally
// (no spec.service: the kube-apiserver's own groups and the CRDs') or by proxying to a Service.
// Upstream: staging/src/k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/types.go, .../validation/validation.go,
// .../registry/apiservice/strategy.go and etcd/etcd.go (its table), .../apis/apiregistration/v1/helper.
import { FieldPath, formatTime, invalidValue, notSupported, required, withCondition } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import { keepField } from '../../core/v1/keep-field.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isDNS1035Label, isDNS1123Subdomain, isValidPathSegmentName } from '../../validation/names.ts';
import { validateObjectMetaUpdate } from '../../validation/object-meta.ts';

export interface ServiceReference {
  namespace?: string;
  name?: string;
  port?: number;
}

export interface APIServiceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface APIService extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    service?: ServiceReference | null;
    group?: string;
    version?: string;
    insecureSkipTLSVerify?: boolean;
    caBundle?: string;
    groupPriorityMinimum: number;
    versionPriority: number;
  };
  status?: { conditions?: APIServiceCondition[] };
}

export const availableCondition = 'Available';

/** NewLocalAvailableAPIServiceCondition: what every APIService without a service reads. */
export function localAvailableCondition(now: number): APIServiceCondition {
  return { type: availableCondition, status: 'True', lastTransitionTime: formatTime(now), reason: 'Local', message: 'Local APIServices are always available' };
}

/** SetAPIServiceCondition: updates the condition of the same type; its transition time moves only with its status. */
export function setAPIServiceCondition(apiService: APIService, condition: APIServiceCondition): void {
  const conditions = apiService.status?.conditions ?? [];
  const existing = conditions.find((c) => c.type === condition.type);
  const next: APIServiceCondition = { ...condition };
  if (existing && existing.status === condition.status) {
    if (existing.lastTransitionTime === undefined) delete next.lastTransitionTime;
    else next.lastTransitionTime = existing.lastTransitionTime;
  }
  apiService.status = { ...apiService.status, conditions: withCondition(conditions, next) };
}

/** The `version.group` name an APIService must have (`v1.` for the legacy core group). */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

const conditionStatuses = ['True', 'False', 'Unknown'];

function validateAPIService(apiService: APIService): FieldError[] {
  const spec = apiService.spec ?? ({} as APIService['spec']);
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const requiredName = apiServiceName(group, version);
  // Upstream's name validator also requires version.group; the server runs the path-segment part.
  const errs: FieldError[] = [];
  const name = apiService.metadata.name ?? '';
  if (isValidPathSegmentName(name).length === 0 && name !== requiredName) {
    errs.push(invalidValue(FieldPath.root('metadata').child('name'), name, `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(requiredName)}`));
  }
  const path = FieldPath.root('spec');
  if (group === '' && version !== 'v1') errs.push(required(path.child('group'), 'only v1 may have an empty group and it better be legacy kube'));
  if (group !== '') for (const msg of isDNS1123Subdomain(group)) errs.push(invalidValue(path.child('group'), group, msg));
  for (const msg of isDNS1035Label(version)) errs.push(invalidValue(path.child('version'), version, msg));
  const groupPriority = spec.groupPriorityMinimum ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) errs.push(invalidValue(path.child('groupPriorityMinimum'), groupPriority, 'must be positive and less than 20000'));
  const versionPriority = spec.versionPriority ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) errs.push(invalidValue(path.child('versionPriority'), versionPriority, 'must be positive and less than 1000'));
  const caBundleBytes = spec.caBundle ? Buffer.from(spec.caBundle, 'base64').length : 0;
  if (!spec.service) {
    if (caBundleBytes > 0) errs.push(invalidValue(path.child('caBundle'), `${caBundleBytes} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify) errs.push(invalidValue(path.child('insecureSkipTLSVerify'), true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errs;
  }
  const service = path.child('service');
  if (!spec.service.namespace) errs.push(required(service.child('namespace'), ''));
  if (!spec.service.name) errs.push(required(service.child('name'), ''));
  if (spec.insecureSkipTLSVerify && caBundleBytes > 0) errs.push(invalidValue(path.child('insecureSkipTLSVerify'), true, 'may not be true if caBundle is present'));
  return errs;
}

function validateStatusUpdate(apiService: APIService, old: APIService): FieldError[] {
  const errs = validateObjectMetaUpdate(apiService.metadata, old.metadata);
  const conditions = FieldPath.root('status').child('conditions');
  (apiService.status?.conditions ?? []).forEach((c, i) => {
    if (!conditionStatuses.includes(c.status)) errs.push(notSupported(conditions.index(i).child('status'), c.status, conditionStatuses));
  });
  return errs;
}

/** The Available column: True, or the status with its reason ("False (MissingEndpoints)"). */
function availableCell(apiService: APIService): string {
  const condition = apiService.status?.conditions?.find((c) => c.type === availableCondition);
  if (!condition) return 'Unknown';
  if (condition.status === 'True' || !condition.reason) return condition.status;
  return `${condition.status} (${condition.reason})`;
}

const apiServiceTable: TablePrinter<APIService> = {
  columns: [
    nameColumn,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    ageColumn,
  ],
  cells: (apiService, now) => {
    const service = apiService.spec?.service;
    return [apiService.metadata.name ?? '', service ? `${service.namespace ?? ''}/${service.name ?? ''}` : 'Local', availableCell(apiService), translateTimestampSince(apiService.metadata.creationTimestamp, now)];
  },
};

export const apiServiceDefinition: ResourceDefinition<APIService> = {
  group: 'apiregistration.k8s.io',
  version: 'v1',
  kind: 'APIService',
  resource: 'apiservices',
  singular: 'apiservice',
  namespaced: false,
  categories: ['api-extensions'],
  validateName: (name) => isValidPathSegmentName(name),
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults(apiService) {
    // SetDefaults_ServiceReference: a service without a port is reached on 443.
    const service = apiService.spec?.service;
    if (service && service.port === undefined) service.port = 443;
  },
  prepareForCreate(apiService, ctx) {
    apiService.status = {};
    // Local APIServices are available the moment they exist.
    if (!apiService.spec?.service) setAPIServiceCondition(apiService, localAvailableCondition(ctx.now));
  },
  prepareForUpdate(apiService, old, ctx) {
    if (ctx.subresource !== 'status') {
      keepField(apiService, old, 'status');
      return;
    }
    keepField(apiService, old, 'spec');
    for (const field of ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const) keepField(apiService.metadata, old.metadata, field);
  },
  validateCreate: validateAPIService,
  validateUpdate: (apiService, old) => [...validateObjectMetaUpdate(apiService.metadata, old.metadata), ...validateAPIService(apiService)],
  validateStatusUpdate,
  table: apiServiceTable,
};
