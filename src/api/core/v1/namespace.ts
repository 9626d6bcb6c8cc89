// Namespace (core/v1): wire types, defaults, strategy (status split, the "kubernetes" finalizer),
// validation and table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/v1/defaults.go,
// pkg/registry/core/namespace/strategy.go, pkg/apis/core/validation/validation.go (ValidateNamespace).
import { FieldPath, invalidValue } from '../../../core/index.ts';
import type { FieldError, Condition, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { keepField } from './keep-field.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isQualifiedName, validateNamespaceName } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';

export type NamespacePhase = 'Active' | 'Terminating';

export interface NamespaceSpec {
  finalizers?: string[];
}

export interface NamespaceCondition extends Condition {
  type: string;
}

export interface NamespaceStatus {
  phase?: NamespacePhase;
  conditions?: NamespaceCondition[];
}

export interface Namespace extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Namespace';
  metadata: ObjectMeta;
  spec?: NamespaceSpec;
  status?: NamespaceStatus;
}

export const finalizerKubernetes = 'kubernetes';
/** The label the API server keeps equal to the namespace's name (kubernetes.io/metadata.name). */
export const labelMetadataName = 'kubernetes.io/metadata.name';

export function defaultNamespace(ns: Namespace): void {
  // Nameless (generateName) namespaces get the label once the name exists; the strategy re-applies it.
  if (ns.metadata.name) ns.metadata.labels = { ...ns.metadata.labels, [labelMetadataName]: ns.metadata.name };
  if (ns.status && !ns.status.phase) ns.status.phase = 'Active';
}

function ensureKubernetesFinalizer(ns: Namespace): void {
  const finalizers = ns.spec?.finalizers ?? [];
  if (!finalizers.includes(finalizerKubernetes)) ns.spec = { ...ns.spec, finalizers: [...finalizers, finalizerKubernetes] };
}

const standardFinalizers = new Set([finalizerKubernetes, 'orphan', 'foregroundDeletion']);

/** validateFinalizerName: a qualified name, and unprefixed ones must be standard. */
function validateFinalizerName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalidValue(path, name, msg));
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    errs.push(invalidValue(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

// ValidateNamespace reports spec finalizers without an index; the finalize endpoint indexes them.
function validateSpecFinalizers(ns: Namespace, indexed: boolean): FieldError[] {
  const path = FieldPath.root('spec').child('finalizers');
  return (ns.spec?.finalizers ?? []).flatMap((f, i) => validateFinalizerName(f, indexed ? path.index(i) : path));
}

function validateNamespace(ns: Namespace): FieldError[] {
  return [...validateObjectMeta(ns.metadata, { namespaced: false, nameValidator: validateNamespaceName }), ...validateSpecFinalizers(ns, false)];
}

function canonicalize(ns: Namespace): void {
  if (ns.metadata.name) ns.metadata.labels = { ...ns.metadata.labels, [labelMetadataName]: ns.metadata.name };
}

const namespaceTable: TablePrinter<Namespace> = {
  columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
  cells: (ns, now) => [ns.metadata.name ?? '', ns.status?.phase ?? '', translateTimestampSince(ns.metadata.creationTimestamp, now)],
};

export const namespaceDefinition: ResourceDefinition<Namespace> = {
  group: '',
  version: 'v1',
  kind: 'Namespace',
  resource: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [
    { name: 'finalize', verbs: ['update'] },
    { name: 'status', verbs: ['get', 'patch', 'update'] },
  ],
  hasStatus: true,
  tracksGeneration: false,
  defaults: defaultNamespace,
  prepareForCreate(ns) {
    ns.status = { phase: 'Active' };
    ensureKubernetesFinalizer(ns);
    canonicalize(ns);
  },
  prepareForUpdate(ns, old, ctx) {
    // Finalizers change only through /finalize, the rest of status only through /status.
    if (ctx.subresource === 'status') keepField(ns, old, 'spec');
    else if (ctx.subresource === 'finalize') keepField(ns, old, 'status');
    else {
      ns.spec = { ...ns.spec };
      keepField(ns.spec, old.spec ?? {}, 'finalizers');
      keepField(ns, old, 'status');
    }
    canonicalize(ns);
  },
  validateCreate: (ns) => validateNamespace(ns),
  validateUpdate(ns, old, ctx) {
    const errs = validateObjectMetaUpdate(ns.metadata, old.metadata);
    if (ctx.subresource === 'finalize') errs.push(...validateSpecFinalizers(ns, true));
    else errs.push(...validateSpecFinalizers(ns, false));
    return errs;
  },
  validateStatusUpdate(ns, old) {
    const errs = validateObjectMetaUpdate(ns.metadata, old.metadata);
    const phase = ns.status?.phase ?? '';
    const phasePath = FieldPath.root('status').child('Phase');
    if (!ns.metadata.deletionTimestamp) {
      if (phase !== 'Active') errs.push(invalidValue(phasePath, phase, "may only be 'Active' if `deletionTimestamp` is empty"));
    } else if (phase !== 'Terminating') {
      errs.push(invalidValue(phasePath, phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
    }
    return errs;
  },
  table: namespaceTable,
  fieldLabels: { 'status.phase': (ns) => ns.status?.phase ?? '' },
};
