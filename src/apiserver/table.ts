// Server-side printing: converts objects to meta.k8s.io/v1 Table for kubectl's human output.
// Upstream: apiserver/pkg/registry/rest/table.go (default convertor), pkg/printers.
import type { ResourceDefinition, TableColumnDefinition } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { formatTime } from '../core/index.ts';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: { cells: unknown[]; object?: unknown }[];
}

const defaultColumns: TableColumnDefinition[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names', priority: 0 },
  { name: 'Created At', type: 'date', format: '', description: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata', priority: 0 },
];

export function tableColumns(def: ResourceDefinition): TableColumnDefinition[] {
  return def.table ? [...def.table.columns] : defaultColumns;
}

export function tableRow(def: ResourceDefinition, obj: KubeObject, now: number, include: IncludeObject): { cells: unknown[]; object?: unknown } {
  const cells = def.table ? def.table.cells(obj, now) : [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? formatTime(now)];
  if (include === 'None') return { cells };
  if (include === 'Object') return { cells, object: obj };
  return { cells, object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata } };
}

export function toTable(def: ResourceDefinition, objects: readonly KubeObject[], now: number, include: IncludeObject, listMeta: Table['metadata']): Table {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: listMeta,
    columnDefinitions: tableColumns(def),
    rows: (def.table?.compareRows ? [...objects].sort(def.table.compareRows) : objects).map((obj) => tableRow(def, obj, now, include)),
  };
}
