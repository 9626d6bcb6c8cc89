// The CustomResourceDefinition kind itself: defaults, the cleanup finalizer, and upstream's
// validation of names, group, scope, versions and each version's structural schema.
// Upstream: apiextensions-apiserver/pkg/apis/apiextensions/v1/defaults.go,
// pkg/apis/apiextensions/validation/validation.go, pkg/registry/customresourcedefinition/strategy.go.
import type { ResourceDefinition } from '../../api/index.ts';
import { isDNS1035Label } from '../../api/index.ts';
import type { FieldError, KubeObject } from '../../core/index.ts';
import { invalidValue, notSupported, required } from '../../core/index.ts';
import { hasInvalidTypes, validateStructural } from './structural.ts';
import type { SchemaRatchet } from './structural.ts';
import { hasUnprunedDefaults } from './default-values.ts';
import { validateCrdSelectableFields } from './selectable-fields.ts';
import type { CustomResourceDefinition } from './types.ts';

export const crdCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/** While a CRD terminates, no new object of it may be created (by POST or by an apply that creates). */
export const createWhileTerminatingMessage = 'create not allowed while custom resource definition is terminating';

/** apihelpers.IsCRDConditionTrue. */
export function isCrdConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return (crd.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function defaultCrd(obj: KubeObject): void {
  const crd = obj as CustomResourceDefinition;
  const spec = crd.spec;
  if (typeof spec !== 'object' || spec === null) return;
  const names = spec.names;
  if (typeof names === 'object' && names !== null && typeof names.kind === 'string') {
    names.singular ||= names.kind.toLowerCase();
    names.listKind ||= `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
}

function validateNames(crd: CustomResourceDefinition): FieldError[] {
  const errors: FieldError[] = [];
  const names = crd.spec.names ?? ({} as CustomResourceDefinition['spec']['names']);
  const path = 'spec.names';
  const label = (field: string, value: string | undefined, mixedCase: boolean): void => {
    if (!value) {
      errors.push(required(`${path}.${field}`));
      return;
    }
    const problems = isDNS1035Label(mixedCase ? value.toLowerCase() : value);
    if (problems.length > 0) errors.push(invalidValue(`${path}.${field}`, value, `${mixedCase ? 'may have mixed case, but should otherwise match: ' : ''}${problems.join(',')}`));
  };
  label('plural', names.plural, false);
  label('singular', names.singular, false);
  label('kind', names.kind, true);
  label('listKind', names.listKind, true);
  if (names.kind && names.kind === names.listKind) errors.push(invalidValue(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  (names.shortNames ?? []).forEach((s, i) => {
    const problems = isDNS1035Label(s);
    if (problems.length > 0) errors.push(invalidValue(`${path}.shortNames[${i}]`, s, problems.join(',')));
  });
  (names.categories ?? []).forEach((c, i) => {
    const problems = isDNS1035Label(c);
    if (problems.length > 0) errors.push(invalidValue(`${path}.categories[${i}]`, c, problems.join(',')));
  });
  return errors;
}

export function validateCrd(obj: KubeObject, ratchet: SchemaRatchet = {}): FieldError[] {
  const crd = obj as CustomResourceDefinition;
  const spec = crd.spec ?? ({} as CustomResourceDefinition['spec']);
  const errors: FieldError[] = [];
  const plural = spec.names?.plural ?? '';
  if (crd.metadata.name !== `${plural}.${spec.group ?? ''}`) errors.push(invalidValue('metadata.name', crd.metadata.name ?? '', 'must be spec.names.plural+"."+spec.group'));
  if (!spec.group) errors.push(required('spec.group'));
  else if (!dns1123Subdomain.test(spec.group)) errors.push(invalidValue('spec.group', spec.group, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  else if (spec.group.split('.').length < 2) errors.push(invalidValue('spec.group', spec.group, 'should be a domain with at least one dot'));
  if (!spec.scope) errors.push(required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') errors.push(notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  const seen = new Set<string>();
  let unique = true;
  let storage = 0;
  const selectable = validateCrdSelectableFields(versions);
  versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const problems = isDNS1035Label(v.name ?? '');
    if (problems.length > 0) errors.push(invalidValue(`${at}.name`, v.name ?? '', problems.join(',')));
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) errors.push(required(`${at}.schema.openAPIV3Schema`, 'schemas are required'));
    else errors.push(...validateStructural(schema, `${at}.schema.openAPIV3Schema`, ratchet));
    const scale = v.subresources?.scale;
    if (scale) {
      if (!scale.specReplicasPath) errors.push(required(`${at}.subresources.scale.specReplicasPath`));
      else if (!scale.specReplicasPath.startsWith('.spec.')) errors.push(invalidValue(`${at}.subresources.scale.specReplicasPath`, scale.specReplicasPath, 'should be a json path under .spec'));
      if (!scale.statusReplicasPath) errors.push(required(`${at}.subresources.scale.statusReplicasPath`));
      else if (!scale.statusReplicasPath.startsWith('.status.')) errors.push(invalidValue(`${at}.subresources.scale.statusReplicasPath`, scale.statusReplicasPath, 'should be a json path under .status'));
    }
    (v.additionalPrinterColumns ?? []).forEach((c, j) => {
      const cp = `${at}.additionalPrinterColumns[${j}]`;
      if (!c.name) errors.push(required(`${cp}.name`));
      if (!c.type) errors.push(required(`${cp}.type`));
      else if (!['integer', 'number', 'string', 'boolean', 'date'].includes(c.type)) errors.push(notSupported(`${cp}.type`, c.type, ['integer', 'number', 'string', 'boolean', 'date']));
      if (!c.jsonPath) errors.push(required(`${cp}.jsonPath`));
    });
    errors.push(...(selectable.versions[i] ?? []));
  });
  if (versions.length === 0) errors.push(required('spec.versions', 'must have exactly one version marked as storage version'));
  else {
    if (!unique) errors.push(invalidValue('spec.versions', versions.map((v) => v.name), 'must contain unique version names'));
    if (storage !== 1) errors.push(invalidValue('spec.versions', versions.map((v) => v.name), 'must have exactly one version marked as storage version'));
  }
  if (spec.names) errors.push(...validateNames(crd));
  else errors.push(required('spec.names.plural'), required('spec.names.kind'));
  errors.push(...selectable.spec);
  return errors;
}

function validateCrdUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const crd = obj as CustomResourceDefinition;
  const was = old as CustomResourceDefinition;
  // A schema stored with an unsupported type, or an unpruned default, is not held to those rules on update.
  const stored = (was.spec.versions ?? []).map((v) => v.schema?.openAPIV3Schema);
  const errors = validateCrd(obj, { validTypes: !stored.some(hasInvalidTypes), prunedDefaults: !stored.some(hasUnprunedDefaults) });
  if (crd.spec?.scope !== was.spec.scope && (was.status?.storedVersions?.length ?? 0) > 0) {
    errors.push(invalidValue('spec.scope', crd.spec?.scope ?? '', 'field is immutable'));
  }
  if (crd.spec?.group !== was.spec.group) errors.push(invalidValue('spec.group', crd.spec?.group ?? '', 'field is immutable'));
  return errors;
}

export const customResourceDefinitionKind: ResourceDefinition = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultCrd,
  prepareForCreate(obj) {
    const crd = obj as CustomResourceDefinition;
    const storage = (crd.spec.versions ?? []).find((v) => v.storage)?.name;
    crd.status = { acceptedNames: { plural: '', kind: '' }, conditions: [], storedVersions: storage ? [storage] : [] };
    const finalizers = crd.metadata.finalizers ?? [];
    if (!finalizers.includes(crdCleanupFinalizer)) crd.metadata.finalizers = [...finalizers, crdCleanupFinalizer];
  },
  validateCreate: (obj) => validateCrd(obj),
  validateUpdate: validateCrdUpdate,
  validateStatusUpdate: () => [],
};
