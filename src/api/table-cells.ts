// Cell helpers shared by the server-side table printers: ages, durations, container lists and
// the Name/Age columns every kind starts and ends with.
// Upstream: pkg/printers/internalversion/printers.go, apimachinery/pkg/util/duration/duration.go.
import type { TableColumnDefinition } from './resource.ts';

/** metav1.ObjectMeta{}.SwaggerDoc()["name"]. */
export const objectMetaNameDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]. */
export const objectMetaCreationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export const nameColumn: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: objectMetaNameDescription,
  priority: 0,
};

export const ageColumn: TableColumnDefinition = {
  name: 'Age',
  type: 'string',
  format: '',
  description: objectMetaCreationTimestampDescription,
  priority: 0,
};

export const containersColumn: TableColumnDefinition = {
  name: 'Containers',
  type: 'string',
  format: '',
  description: 'Names of each container in the template.',
  priority: 1,
};

export const imagesColumn: TableColumnDefinition = {
  name: 'Images',
  type: 'string',
  format: '',
  description: 'Images referenced by each container in the template.',
  priority: 1,
};

/** A column with no format, as most upstream definitions are. */
export function column(
  name: string,
  type: TableColumnDefinition['type'],
  description: string,
  priority = 0,
): TableColumnDefinition {
  return { name, type, format: '', description, priority };
}

/** duration.HumanDuration: the compact age format kubectl shows (`5m30s`, `3h`, `2d4h`). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  // Up to 2s of clock skew reads as "now", more is reported as invalid.
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** translateTimestampSince: `<unknown>` for an unset timestamp. */
export function translateTimestampSince(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return '<unknown>';
  return humanDuration(now - at);
}

/** layoutContainerCells: comma-joined names and images. */
export function layoutContainerCells(
  containers: readonly { readonly name: string; readonly image?: string | undefined }[] | undefined,
): [names: string, images: string] {
  const list = containers ?? [];
  return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}
