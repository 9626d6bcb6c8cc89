// Lease (coordination.k8s.io/v1): wire types, validation and table. Kubelets heartbeat through
// these in kube-node-lease; leader election uses them too.
// Upstream: staging/src/k8s.io/api/coordination/v1/types.go, pkg/registry/coordination/lease/strategy.go,
// pkg/apis/coordination/validation/validation.go (ValidateLease), printers.go (printLease).
import { FieldPath, forbiddenField, invalidValue, notSupported } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isQualifiedName, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime. */
  acquireTime?: string;
  /** MicroTime. */
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

export interface Lease extends KubeObject {
  apiVersion?: 'coordination.k8s.io/v1';
  kind?: 'Lease';
  metadata: ObjectMeta;
  spec?: LeaseSpec;
}

const leaseStrategies = ['OldestEmulationVersion'];

/** ValidateCoordinatedLeaseStrategy; upstream nests the child name once more (spec.strategy.strategy). */
function validateStrategy(strategy: string, path: FieldPath): FieldError[] {
  const p = path.child('strategy');
  if (!strategy.includes('/')) return leaseStrategies.includes(strategy) ? [] : [notSupported(p, strategy, leaseStrategies)];
  return isQualifiedName(strategy).map((msg) => invalidValue(p, strategy, msg));
}

export function validateLeaseSpec(spec: LeaseSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errs.push(invalidValue(path.child('leaseDurationSeconds'), spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errs.push(invalidValue(path.child('leaseTransitions'), spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (spec.strategy !== undefined) errs.push(...validateStrategy(spec.strategy, path.child('strategy')));
  if (spec.preferredHolder && !spec.strategy) errs.push(forbiddenField(path.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  return errs;
}

function validateLease(lease: Lease): FieldError[] {
  return [
    ...validateObjectMeta(lease.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain }),
    ...validateLeaseSpec(lease.spec ?? {}, FieldPath.root('spec')),
  ];
}

const leaseTable: TablePrinter<Lease> = {
  columns: [
    nameColumn,
    column(
      'Holder',
      'string',
      'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
    ),
    ageColumn,
  ],
  cells: (l, now) => [l.metadata.name ?? '', l.spec?.holderIdentity ?? '', translateTimestampSince(l.metadata.creationTimestamp, now)],
};

export const leaseDefinition: ResourceDefinition<Lease> = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  resource: 'leases',
  singular: 'lease',
  namespaced: true,
  hasStatus: false,
  validateCreate: validateLease,
  validateUpdate: (lease, old) => [...validateObjectMetaUpdate(lease.metadata, old.metadata), ...validateLeaseSpec(lease.spec ?? {}, FieldPath.root('spec'))],
  table: leaseTable,
};
