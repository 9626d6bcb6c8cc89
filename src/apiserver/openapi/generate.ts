// Build-time generator: turns @kubernetes/client-node's generated models (from the upstream v1.34.0 spec)
// into upstream-named OpenAPI v3 component schemas, adds the struct-tag extensions and the 1.35 overlay,
// and writes their structure to generated/schemas.ts and their descriptions to
// generated/openapi-descriptions.json (descriptions.ts says why they are apart).
// Run: `npx tsx src/apiserver/openapi/generate.ts` (docs/dependencies.md).
// Nothing at run time imports this file; client-node stays a devDependency.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { GroupVersionKind, OpenApiSchema } from './schema.ts';
import { descriptionsFileName, splitDescriptions } from './descriptions.ts';
import { atomicStructs, fieldPatchStrategies, listTags, mapTypes, quantityFields, untypedFieldDefinitions } from './struct-tags.ts';
import { overlayDefinitions, overlayProperties } from './overlay-1-35.ts';
import { coreTypeNames, rootKinds, metaTypeNames, specialDefinitions, packageOfGroup } from './generate-roots.ts';
import { fieldDocs, kubernetesModelsDirs, type RefDescriptionSource } from './ref-descriptions.ts';

interface Attribute {
  /** The TypeScript property (`x_kubernetes_validations`, `_continue`); baseName is the JSON field. */
  name: string;
  baseName: string;
  type: string;
  format: string;
}
interface Model {
  attributes: Attribute[];
  description?: string;
  fieldDescriptions: Map<string, string>;
  required: string[];
}

const refTo = (name: string): OpenApiSchema => ({ $ref: `#/components/schemas/${name}` });

export function clientNodeModelsDir(): string {
  const entry = fileURLToPath(import.meta.resolve('@kubernetes/client-node'));
  return join(dirname(entry), 'gen', 'models');
}

async function loadModel(dir: string, name: string): Promise<Model | undefined> {
  const js = join(dir, `${name}.js`);
  if (!existsSync(js)) return undefined;
  const mod: Record<string, unknown> = await import(pathToFileURL(js).href);
  const cls = mod[name] as { attributeTypeMap?: unknown } | undefined;
  const attributes = Array.isArray(cls?.attributeTypeMap) ? (cls.attributeTypeMap as Attribute[]) : [];
  const dts = existsSync(join(dir, `${name}.d.ts`)) ? readFileSync(join(dir, `${name}.d.ts`), 'utf8') : '';
  const clean = (doc: string): string =>
    doc
      .split('\n')
      .map((l) => l.replace(/^\s*\* ?/, ''))
      .join('\n')
      .trim()
      // The JSDoc text is escaped as in a JavaScript string (a backslash before quotes and backslashes);
      // upstream's schema holds the text itself.
      .replace(/\\(["'\\])/g, '$1');
  const classDoc = /\/\*\*\n((?:(?!\*\/)[\s\S])*?)\*\/\nexport declare class/.exec(dts);
  const fieldDescriptions = new Map<string, string>();
  for (const m of dts.matchAll(/\/\*\*\n((?:(?!\*\/)[\s\S])*?)\*\/\n\s*'([^']+)'\??:/g)) {
    if (m[1] !== undefined && m[2] !== undefined) fieldDescriptions.set(m[2], clean(m[1]));
  }
  const jsonName = new Map(attributes.map((a) => [a.name, a.baseName]));
  const required = [...dts.matchAll(/^\s*'([^']+)':/gm)].map((m) => jsonName.get(m[1]!) ?? m[1]!);
  const description = classDoc?.[1] !== undefined ? clean(classDoc[1]) : undefined;
  return { attributes, fieldDescriptions, required, ...(description ? { description } : {}) };
}

const prefixed = /^(Core|Events|Resource|Storage|Discovery|Authentication|Rbac|Admissionregistration|Apiregistration|Apiextensions|Flowcontrol|Certificates)(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)$/;
// The aggregator's types live in k8s.io/kube-aggregator, CustomResourceDefinition's in
// k8s.io/apiextensions-apiserver, the rest in k8s.io/api.
const outsidePackages: Readonly<Record<string, string>> = {
  apiregistration: 'io.k8s.kube-aggregator.pkg.apis.',
  apiextensions: 'io.k8s.apiextensions-apiserver.pkg.apis.',
};
const packagePrefix = (pkg: string): string => `${outsidePackages[pkg] ?? 'io.k8s.api.'}${pkg}`;
const plain = /^(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)$/;

/** A definition's name without its repository prefix, as the struct-tag tables key it: `core.v1.PodSpec`. */
export function shortDefinitionName(name: string): string {
  return name.replace(/^io\.k8s\.(api|apimachinery\.pkg\.apis|kube-aggregator\.pkg\.apis|apiextensions-apiserver\.pkg\.apis)\./, '');
}

/** Generates the component schemas, keyed by upstream definition name. */
export async function generateSchemas(dir = clientNodeModelsDir(), refSource: RefDescriptionSource = kubernetesModelsDirs()): Promise<Record<string, OpenApiSchema>> {
  const out: Record<string, OpenApiSchema> = { ...specialDefinitions };
  const upstreamName = new Map<string, string>();
  const pending: { model: string; pkg: string }[] = [];
  const nameFor = (model: string, pkg: string): string => {
    const known = upstreamName.get(model);
    if (known) return known;
    const p = prefixed.exec(model);
    const q = plain.exec(model);
    let name: string;
    if (p) name = `${packagePrefix(p[1]!.toLowerCase())}.${p[2]!.toLowerCase()}.${p[3]}`;
    else if (q && metaTypeNames.has(q[2]!)) name = `io.k8s.apimachinery.pkg.apis.meta.${q[1]!.toLowerCase()}.${q[2]}`;
    else if (q) name = `${packagePrefix(coreTypeNames.has(q[2]!) ? 'core' : pkg)}.${q[1]!.toLowerCase()}.${q[2]}`;
    else throw new Error(`unexpected model name ${model}`);
    upstreamName.set(model, name);
    const pkgOf = name.startsWith('io.k8s.apimachinery.') ? 'meta' : shortDefinitionName(name).split('.')[0]!;
    pending.push({ model, pkg: pkgOf });
    return name;
  };

  const convert = (type: string, format: string, field: string, pkg: string): OpenApiSchema => {
    const array = /^Array<(.+)>$/.exec(type);
    if (array) return { type: 'array', items: item(convert(array[1]!, format, field, pkg)) };
    const dict = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (dict) return { type: 'object', additionalProperties: convert(dict[1]!, format, field, pkg) };
    switch (type) {
      case 'string':
        if (quantityFields.has(field)) return refTo('io.k8s.apimachinery.pkg.api.resource.Quantity');
        return format ? { type: 'string', format } : { type: 'string' };
      case 'number':
        return format === 'double' || format === 'float' ? { type: 'number', format } : { type: 'integer', format: format || 'int32' };
      case 'boolean':
        return { type: 'boolean' };
      case 'Date':
        return refTo('io.k8s.apimachinery.pkg.apis.meta.v1.Time');
      case 'V1MicroTime':
        return refTo('io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime');
      case 'IntOrString':
        return refTo('io.k8s.apimachinery.pkg.util.intstr.IntOrString');
      case 'any': {
        // The definition sits in the field's own package and version (`apiextensions.v1.`).
        const own = untypedFieldDefinitions[field];
        const [fieldPackage, fieldVersion] = field.split('.');
        if (own) return refTo(`${packagePrefix(fieldPackage!)}.${fieldVersion!}.${own}`);
        return refTo(field.endsWith('.fieldsV1') ? 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1' : 'io.k8s.apimachinery.pkg.runtime.RawExtension');
      }
      default:
        return refTo(nameFor(type, pkg));
    }
  };
  // Upstream v3 writes struct items as allOf + default {}, scalars with their zero default.
  const item = (s: OpenApiSchema): OpenApiSchema =>
    s.$ref && !s.$ref.includes('apimachinery.pkg.api') && !s.$ref.includes('intstr') ? { allOf: [s], default: {} } : s;

  const rootNames = rootKinds.map((root) => ({ root, name: nameFor(root.model, packageOfGroup(root.group)) }));
  const roots = new Set(rootNames.map((r) => r.name));
  for (let i = 0; i < pending.length; i++) {
    const { model, pkg } = pending[i]!;
    const name = upstreamName.get(model)!;
    const loaded = await loadModel(dir, model);
    if (!loaded) throw new Error(`client-node has no model ${model} (for ${name})`);
    const typeKey = shortDefinitionName(name);
    const properties: Record<string, OpenApiSchema> = {};
    let refDocs: ReadonlyMap<string, string> | undefined;
    for (const a of loaded.attributes) {
      const field = `${typeKey}.${a.baseName}`;
      let s = convert(a.type, a.format, field, pkg);
      let description = fieldDescription(loaded, a, field);
      if (s.$ref) {
        if (description === undefined) description = (refDocs ??= fieldDocs(refSource, name)).get(a.baseName);
        s = { allOf: [s], ...(isValueStruct(s.$ref, a.baseName, roots.has(name)) ? { default: {} } : {}) };
      }
      if (description) s.description = description;
      if (s.type === 'array') Object.assign(s, listExtensions(field));
      const mapType = mapTypes[field];
      if (mapType) s['x-kubernetes-map-type'] = mapType;
      const strategy = fieldPatchStrategies[field];
      if (strategy) s['x-kubernetes-patch-strategy'] = strategy;
      properties[a.baseName] = s;
    }
    const schema: OpenApiSchema = {
      ...(loaded.description ? { description: loaded.description } : {}),
      properties,
      ...(loaded.required.length > 0 ? { required: loaded.required } : {}),
      type: 'object',
      ...(atomicStructs.has(typeKey) ? { 'x-kubernetes-map-type': 'atomic' as const } : {}),
    };
    out[name] = schema;
  }
  attachGroupVersionKinds(out, rootNames);
  for (const [name, s] of Object.entries(overlayDefinitions)) out[name] = s;
  for (const [name, props] of Object.entries(overlayProperties)) {
    const target = out[name];
    if (target) target.properties = sortKeys({ ...target.properties, ...props });
  }
  return sortKeys(out);
}

/**
 * Whether upstream gives the property `default: {}`, which openapi-gen writes for a struct field that is
 * not a pointer. The sources do not say which fields are pointers, so this holds the cases API
 * conventions fix: ObjectMeta and ListMeta are always values, and so are a kind's spec and status.
 */
function isValueStruct(ref: string, field: string, isRoot: boolean): boolean {
  if (ref.endsWith('.meta.v1.ObjectMeta') || ref.endsWith('.meta.v1.ListMeta')) return true;
  return isRoot && (field === 'spec' || field === 'status');
}

/**
 * A field's doc comment, but not the one the source's generator copies from the definition of an
 * untyped field upstream leaves without a description (JSONSchemaProps' additionalItems, items).
 */
function fieldDescription(model: Model, attribute: Attribute, field: string): string | undefined {
  const text = model.fieldDescriptions.get(attribute.name);
  const own = untypedFieldDefinitions[field];
  const copied = own === undefined ? undefined : Object.entries(specialDefinitions).find(([name]) => name.endsWith(`.${own}`))?.[1].description;
  return text === copied ? undefined : text;
}

function listExtensions(field: string): OpenApiSchema {
  const tag = listTags[field] ?? { listType: 'atomic' };
  return {
    'x-kubernetes-list-type': tag.listType,
    ...(tag.listMapKeys ? { 'x-kubernetes-list-map-keys': [...tag.listMapKeys] } : {}),
    ...(tag.patchMergeKey ? { 'x-kubernetes-patch-merge-key': tag.patchMergeKey } : {}),
    ...(tag.patchStrategy ? { 'x-kubernetes-patch-strategy': tag.patchStrategy } : {}),
  };
}

function attachGroupVersionKinds(
  out: Record<string, OpenApiSchema>,
  roots: readonly { root: (typeof rootKinds)[number]; name: string }[],
): void {
  const everyGroupVersion = new Map<string, GroupVersionKind>();
  for (const { root, name } of roots) {
    const schema = out[name];
    if (!schema || root.meta) continue;
    schema['x-kubernetes-group-version-kind'] = [{ group: root.group, kind: root.kind, version: root.version }];
    everyGroupVersion.set(`${root.group}/${root.version}`, { group: root.group, kind: '', version: root.version });
  }
  for (const kind of ['DeleteOptions', 'WatchEvent']) {
    const schema = out[`io.k8s.apimachinery.pkg.apis.meta.v1.${kind}`];
    if (schema) schema['x-kubernetes-group-version-kind'] = [...everyGroupVersion.values()].map((gv) => ({ ...gv, kind }));
  }
  const status = out['io.k8s.apimachinery.pkg.apis.meta.v1.Status'];
  if (status) status['x-kubernetes-group-version-kind'] = [{ group: '', kind: 'Status', version: 'v1' }];
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * JSON with its few non-ASCII characters escaped (\\u escapes that JSON.parse reads back), so the
 * string is one byte a character in V8's heap and the executable's startup snapshot, not two, and
 * the descriptions' file reads as latin1 without decoding UTF-8.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The text of generated/schemas.ts for a schema map whose descriptions are taken out (0.23 MB, in every start's snapshot). */
export function renderSchemasModule(structural: Record<string, OpenApiSchema>, source: string): string {
  return [
    `// GENERATED by src/apiserver/openapi/generate.ts from ${source}; do not edit.`,
    '// Upstream-named OpenAPI v3 component schemas for the kinds Drydock serves, without their',
    '// descriptions (generated/openapi-descriptions.json); parsed on first use.',
    `export const schemasJson = ${JSON.stringify(asciiJson(structural))};`,
    '',
  ].join('\n');
}

export function clientNodeVersion(): string {
  const pkg = join(clientNodeModelsDir(), '..', '..', '..', 'package.json');
  const parsed = JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string };
  return `@kubernetes/client-node@${parsed.version ?? 'unknown'}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { structural, descriptions } = splitDescriptions(await generateSchemas());
  const generated = join(dirname(fileURLToPath(import.meta.url)), 'generated');
  writeFileSync(join(generated, 'schemas.ts'), renderSchemasModule(structural, clientNodeVersion()));
  writeFileSync(join(generated, descriptionsFileName), `${asciiJson(descriptions)}\n`);
  console.log(`wrote ${Object.keys(structural).length} schemas and their descriptions to ${generated}`);
}
