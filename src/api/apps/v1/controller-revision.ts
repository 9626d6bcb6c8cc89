// ControllerRevision (apps/v1): an immutable snapshot of a DaemonSet's (or StatefulSet's) template,
// which `kubectl rollout history|undo` reads. Wire types, validation and table.
// Upstream: staging/src/k8s.io/api/apps/v1/types.go, pkg/apis/apps/validation/validation.go
// (ValidateControllerRevision*), printers.go (printControllerRevision).
import { FieldPath, required } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { validateImmutable, validateObjectMetaCreate, validateObjectMetaUpdate } from '../../workload-template.ts';
import { validateNonnegative } from './workload-validation.ts';

export interface ControllerRevision extends KubeObject {
  apiVersion?: 'apps/v1';
  kind?: 'ControllerRevision';
  metadata: ObjectMeta;
  /** The snapshot: a strategic merge patch that restores the owner's template. */
  data?: unknown;
  revision: number;
}

const root = FieldPath.root;

function validateControllerRevision(cr: ControllerRevision): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(required(root('data'), 'data is mandatory'));
  errs.push(...validateNonnegative(cr.revision, root('revision')));
  return errs;
}

/** `daemonset.apps/fluentd`: the controller's kind and group, as formatResourceName writes them. */
function controllerCell(cr: ControllerRevision): string {
  const ref = cr.metadata.ownerReferences?.find((o) => o.controller);
  if (!ref) return '<none>';
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
  return `${ref.kind.toLowerCase()}${group ? `.${group}` : ''}/${ref.name}`;
}

export const controllerRevisionTable: TablePrinter<ControllerRevision> = {
  columns: [nameColumn, column('Controller', 'string', 'Controller of the object'), column('Revision', 'string', 'Revision indicates the revision of the state represented by Data.'), ageColumn],
  cells: (cr, now) => [cr.metadata.name ?? '', controllerCell(cr), cr.revision ?? 0, translateTimestampSince(cr.metadata.creationTimestamp, now)],
};

export const controllerRevisionDefinition: ResourceDefinition<ControllerRevision> = {
  group: 'apps',
  version: 'v1',
  kind: 'ControllerRevision',
  resource: 'controllerrevisions',
  singular: 'controllerrevision',
  namespaced: true,
  hasStatus: false,
  defaults(cr) {
    cr.revision ??= 0;
  },
  validateCreate: (cr) => [...validateObjectMetaCreate(cr.metadata, true, root('metadata')), ...validateControllerRevision(cr)],
  validateUpdate: (cr, old) => [
    ...validateObjectMetaUpdate(cr.metadata, old.metadata, root('metadata')),
    ...validateControllerRevision(cr),
    ...validateImmutable(cr.data, old.data, root('data')),
  ],
  table: controllerRevisionTable,
};
