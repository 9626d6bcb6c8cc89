// Serves one version of a CustomResourceDefinition: the ResourceDefinition the generic registry
// store uses (schema defaulting and validation, status/scale subresources, printer columns, patch
// metadata), plus what the field validation and OpenAPI need from its schema.
// Upstream: apiextensions-apiserver/pkg/apiserver/customresource_handler.go (crdInfo),
// pkg/registry/customresource/{strategy.go,tableconvertor/tableconvertor.go}.
import type { PatchMeta, ResourceDefinition, SubresourceDefinition, TableColumnDefinition } from '../../api/index.ts';
import type { FieldError, KubeObject } from '../../core/index.ts';
import { jsonEqual, ownValue, setOwn } from '../../core/index.ts';
import { applyDefaults, pruneUnknown, validateValue } from './schema.ts';
import { coerceEmbedded, embeddedResourceErrors } from './embedded-resource.ts';
import { schemaPatchMeta } from './apply-typing.ts';
import { validateListSetsAndMaps } from './list-types.ts';
import { readPath, scalePathFields, scaleSpecErrors, scaleStatusErrors } from './scale-validation.ts';
import { blockingError, hasRules, validateRules } from './validation-rules.ts';
import { evaluateJsonPath, parseJsonPath } from './json-path.ts';
import { selectableFieldLabels } from './selectable-fields.ts';
import { columnCell } from './printer-columns.ts';
import type { CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionVersion, CustomResourceSubresourceScale, JSONSchemaProps } from './types.ts';

export interface CustomResourceInfo {
  crd: CustomResourceDefinition;
  version: CustomResourceDefinitionVersion;
  schema: JSONSchemaProps;
  scale: CustomResourceSubresourceScale | undefined;
}

const infos = new WeakMap<ResourceDefinition, CustomResourceInfo>();

/** The CRD behind a served definition, or undefined for a built-in kind. */
export function customResourceInfo(def: ResourceDefinition): CustomResourceInfo | undefined {
  return infos.get(def);
}

const nameColumn: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  priority: 0,
};
const ageColumn: CustomResourceColumnDefinition = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: '' };

export function customResourceDefinition(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion, metadataMeta: PatchMeta | undefined): ResourceDefinition {
  const spec = crd.spec;
  const schema = version.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const hasStatus = version.subresources?.status !== undefined;
  const scale = version.subresources?.scale;
  const subresources: SubresourceDefinition[] = [];
  if (hasStatus) subresources.push({ name: 'status', verbs: ['get', 'patch', 'update'] });
  if (scale) subresources.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  const columns = (version.additionalPrinterColumns?.length ? version.additionalPrinterColumns : [ageColumn]).map((c) => ({ ...c, steps: parseJsonPath(c.jsonPath) ?? [] }));
  const withRules = hasRules(schema);
  const validate = (obj: KubeObject, old?: KubeObject, status = false): FieldError[] => {
    const errors = validateValue(withoutMetadata(obj), schema, '', old && { value: withoutMetadata(old) }, old !== undefined && !jsonEqual(obj.metadata, old.metadata));
    if (scale) {
      if (!status) errors.push(...scaleSpecErrors(obj, scale));
      errors.push(...scaleStatusErrors(obj, scale));
    }
    // The status strategy does not check embedded resources; create and update do, without ratcheting.
    if (!status) errors.push(...embeddedResourceErrors(withoutMetadata(obj), schema));
    // An update keeps list-type errors the stored object already had (ratcheting), as upstream does.
    const listErrors = validateListSetsAndMaps(withoutMetadata(obj), schema, '');
    if (listErrors.length > 0 && !(old && validateListSetsAndMaps(withoutMetadata(old), schema, '').length > 0)) errors.push(...listErrors);
    if (!withRules) return errors;
    const blocked = blockingError(errors);
    if (blocked) return [...errors, blocked];
    return [...errors, ...validateRules(ruleView(obj), old && ruleView(old), schema, '', old !== undefined && !jsonEqual(obj.metadata, old.metadata))];
  };
  // Conversion None: a version other than the storage version differs from it by apiVersion alone.
  const storageVersion = spec.versions.find((v) => v.storage)?.name ?? version.name;
  const asVersion = (obj: KubeObject, name: string): KubeObject => ({ ...obj, apiVersion: `${spec.group}/${name}` });
  const def: ResourceDefinition = {
    group: spec.group,
    version: version.name,
    ...(version.name === storageVersion ? {} : { storedAs: { group: spec.group, resource: spec.names.plural, toStored: (obj: KubeObject) => asVersion(obj, storageVersion), fromStored: (obj: KubeObject) => asVersion(obj, version.name) } }),
    ...(version.deprecated ? { deprecationWarning: version.deprecationWarning ?? defaultDeprecationWarning(crd, version.name) } : {}),
    kind: spec.names.kind,
    resource: spec.names.plural,
    singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
    namespaced: spec.scope === 'Namespaced',
    ...(spec.names.shortNames?.length ? { shortNames: spec.names.shortNames } : {}),
    ...(spec.names.categories?.length ? { categories: spec.names.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
    hasStatus,
    // customResourceStrategy sets generation 1 on create and bumps it on any change but metadata's, status
    // subresource or not.
    tracksGeneration: true,
    defaults: (obj) => applyDefaults(obj, schema),
    prepareForCreate: (obj) => {
      if (!hasStatus) return;
      delete obj.status;
      // Upstream's read from storage defaults the object again: a status default shows from the start.
      applyDefaults(obj, schema);
    },
    validateCreate: (obj) => validate(obj),
    validateUpdate: (obj, old) => validate(obj, old),
    validateStatusUpdate: (obj, old) => validate(obj, old, true),
    // The storage codec converts through the schema coercer: what the schema does not keep is not stored.
    pruneForStorage: (obj) => {
      const json = obj as unknown as Record<string, unknown>;
      pruneUnknown(json, schema, true);
      coerceEmbedded(json, schema, true);
    },
    table: {
      columns: [nameColumn, ...columns.map((c) => ({ name: c.name, type: columnType(c.type), format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 }))],
      cells: (obj, now) => [obj.metadata.name ?? '', ...columns.map((c) => columnCell(c.type, evaluateJsonPath(c.steps, obj), now))],
    },
    patchMeta: patchMetaOf(schema, metadataMeta),
    fieldLabels: selectableFieldLabels(version.selectableFields),
  };
  infos.set(def, { crd, version, schema, scale });
  return def;
}

/** apimachinery's CompareKubeAwareVersionStrings: GA over beta over alpha, then by number; other names after, alphabetically. */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const parse = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    return [m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, Number(m[1]), Number(m[3] ?? 0)];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return b < a ? -1 : 1;
  if (!pa) return -1;
  if (!pb) return 1;
  return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
}

/** The warning a deprecated version's requests get: the newest newer served version that is not deprecated is suggested. */
function defaultDeprecationWarning(crd: CustomResourceDefinition, version: string): string {
  const { group, names } = crd.spec;
  const newer = crd.spec.versions.filter((v) => v.served && !v.deprecated && compareKubeAwareVersions(version, v.name) < 0).map((v) => v.name);
  const message = `${group}/${version} ${names.kind} is deprecated`;
  if (newer.length === 0) return message;
  newer.sort((x, y) => compareKubeAwareVersions(y, x));
  return `${message}; use ${group}/${newer[0]} ${names.kind}`;
}

function columnType(type: string): TableColumnDefinition['type'] {
  return type === 'integer' || type === 'number' || type === 'boolean' || type === 'date' ? type : 'string';
}

function withoutMetadata(obj: KubeObject): Record<string, unknown> {
  const { metadata: _m, ...rest } = obj;
  return rest;
}

/** The object as root validation rules see it: of metadata, only name and generateName. */
function ruleView(obj: KubeObject): Record<string, unknown> {
  const metadata: Record<string, string> = {};
  if (obj.metadata.name !== undefined) metadata.name = obj.metadata.name;
  if (obj.metadata.generateName !== undefined) metadata.generateName = obj.metadata.generateName;
  return { ...withoutMetadata(obj), metadata };
}

/** SSA and merge metadata from the schema's x-kubernetes-* extensions; metadata is ObjectMeta's. */
export function patchMetaOf(schema: JSONSchemaProps, metadataMeta: PatchMeta | undefined): PatchMeta {
  return schemaPatchMeta(schema, metadataMeta);
}

export { readPath, scalePathFields };

/** unstructured.SetNestedField at a scale path, creating objects on the way. */
export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const fields = scalePathFields(path);
  let node = obj;
  for (const p of fields.slice(0, -1)) {
    const next = ownValue(node, p);
    if (typeof next !== 'object' || next === null || Array.isArray(next)) setOwn(node, p, {});
    node = node[p] as Record<string, unknown>;
  }
  setOwn(node, fields[fields.length - 1] as string, value);
}
