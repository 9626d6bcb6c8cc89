// PodTemplate (v1): a named pod template that tools store and copy (no controller acts on it); the
// template is defaulted and validated as a Deployment's is, and any change to it bumps the generation.
// Upstream: pkg/apis/core/validation/validation.go (ValidatePodTemplate, ValidatePodTemplateUpdate),
// pkg/registry/core/podtemplate/strategy.go, pkg/printers/internalversion/printers.go (printPodTemplate).
import { FieldPath, formatLabels } from '../../../core/index.ts';
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { column, layoutContainerCells, nameColumn } from '../../table-cells.ts';
import { defaultPodTemplate, isDeepEqual, validatePodTemplate } from '../../workload-template.ts';
import { validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import type { PodTemplateSpec } from './pod.ts';

export interface PodTemplate extends KubeObject {
  metadata: ObjectMeta;
  template?: PodTemplateSpec;
}

const template = FieldPath.root('template');

// Unlike the workloads' wide-only columns, a PodTemplate shows its containers by default, and no age.
const podTemplateTable: TablePrinter<PodTemplate> = {
  columns: [
    nameColumn,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  cells: (pt) => {
    const [names, images] = layoutContainerCells(pt.template?.spec?.containers);
    return [pt.metadata.name ?? '', names, images, formatLabels(pt.template?.metadata?.labels)];
  },
};

export const podTemplateDefinition: ResourceDefinition<PodTemplate> = {
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  resource: 'podtemplates',
  singular: 'podtemplate',
  namespaced: true,
  hasStatus: false,
  defaults(pt) {
    defaultPodTemplate((pt.template ??= { spec: { containers: [] } }));
  },
  prepareForCreate(pt) {
    pt.metadata.generation = 1;
  },
  prepareForUpdate(pt, old) {
    const was = old.metadata.generation ?? 0;
    if (isDeepEqual(pt.template, old.template)) {
      if (old.metadata.generation === undefined) delete pt.metadata.generation;
      else pt.metadata.generation = was;
    } else pt.metadata.generation = was + 1;
  },
  validateCreate: (pt) => validatePodTemplate(pt.template ?? { spec: { containers: [] } }, template),
  validateUpdate: (pt, old) => [...validateObjectMetaUpdate(pt.metadata, old.metadata), ...validatePodTemplate(pt.template ?? { spec: { containers: [] } }, template)],
  table: podTemplateTable,
};
