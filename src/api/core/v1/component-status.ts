// ComponentStatus (v1, deprecated since 1.19 and still served): the health of the control plane's
// scheduler, controller manager and etcd, computed on each read; nothing is stored.
// Upstream: pkg/registry/core/componentstatus/rest.go, pkg/printers/internalversion/printers.go
// (printComponentStatus), pkg/registry/core/rest/storage_core.go (the deprecation).
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { column, nameColumn } from '../../table-cells.ts';

export interface ComponentCondition {
  type: string;
  status: string;
  message?: string;
  error?: string;
}

export interface ComponentStatus extends KubeObject {
  metadata: ObjectMeta;
  conditions?: ComponentCondition[];
}

/**
 * A component's status as the registry builds it: one Healthy condition from its health check, True
 * when it passed, False when it failed, Unknown when the check could not be made.
 */
export function componentStatus(name: string, check: { status: 'True' | 'False' | 'Unknown'; message: string; error?: string }): ComponentStatus {
  const condition: ComponentCondition = { type: 'Healthy', status: check.status, message: check.message };
  if (check.error) condition.error = check.error;
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [condition] };
}

const componentStatusTable: TablePrinter<ComponentStatus> = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  cells: (cs) => {
    const healthy = cs.conditions?.find((c) => c.type === 'Healthy');
    const status = !healthy ? 'Unknown' : healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
    return [cs.metadata.name ?? '', status, healthy?.message ?? '', healthy?.error ?? ''];
  },
};

export const componentStatusDefinition: ResourceDefinition<ComponentStatus> = {
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  resource: 'componentstatuses',
  singular: 'componentstatus',
  namespaced: false,
  shortNames: ['cs'],
  verbs: ['get', 'list'],
  hasStatus: false,
  deprecationWarning: 'v1 ComponentStatus is deprecated in v1.19+',
  table: componentStatusTable,
};
