// What Go's typed decoding does to a request body, done on the decoded JSON with the kind's schema:
// unknown fields are dropped (and reported for fieldValidation), and a value of the wrong JSON type
// fails the request the way encoding/json words it, so no strategy hook ever sees a mistyped field.
// Upstream: sigs.k8s.io/json (UnmarshalTypeError, strict unknown-field errors), apimachinery runtime/serializer/json.
import { allSchemas, definitionNameFor } from './definitions.ts';
import { refName, resolve, type OpenApiSchema, type SchemaMap } from './schema.ts';
import { apiextensionsSchemas, customResourceDefinitionName } from './apiextensions-decoding.ts';
import { tokenRequestName, tokenRequestSchemas } from './token-request-decoding.ts';
import { canonicalizeQuantityText, goJsonKind, ownValue, quantityParseError } from '../../core/index.ts';
import { goSyntax, goTypeName, goValue } from '../patch/go-format.ts';

export interface DecodeCheck {
  /** Unknown fields in document order, as upstream names them: `spec.containers[0].imagePullPolicyy`. */
  unknown: string[];
  /** The first type mismatch: `json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`. */
  typeError: string | undefined;
  /**
   * What structured-merge-diff's typed conversion finds, in document order: every unknown field
   * and every value of the wrong type, each with its error (`expected string, got ...`). Server-side
   * apply fails its typed patch with them; absent when there are none.
   */
  typed?: { path: string; message: string }[];
}

export type Expected = 'string' | 'numeric' | 'boolean' | 'map' | 'list';

/** validateScalar, listValue and mapValue's words (structured-merge-diff typed/validate.go, helpers.go). */
export function typedMismatch(expected: Expected, value: unknown): string {
  switch (expected) {
    case 'string':
      return `expected string, got &value.valueUnstructured{Value:${goSyntax(value)}}`;
    case 'numeric':
      return `expected numeric (int or float), got ${goTypeName(value)}`;
    case 'boolean':
      return `expected boolean, got &{${goValue(value)}}`;
    case 'map':
      return `expected map, got &{${goValue(value)}}`;
    case 'list':
      return `expected list, got &{${goValue(value)}}`;
  }
}

function addTyped(w: Walk, path: string, message: string): void {
  (w.result.typed ??= []).push({ path, message });
}

// Types with their own UnmarshalJSON: they accept or reject values in their own words.
const customTypes = new Set([
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
]);

interface Walk {
  schemas: SchemaMap;
  prune: boolean;
  keep: ReadonlySet<string> | undefined;
  result: DecodeCheck;
  /**
   * Where the walk is, made into text only for what is reported: field names and map keys, list
   * indexes as numbers (`spec.containers[0].image`). Building each field's path as it went was a
   * fifth of the walk, for the rare body with something to report.
   */
  path: (string | number)[];
  /** The struct fields only, as encoding/json names a field (`spec.containers.image`). */
  goPath: string[];
}

function pathText(w: Walk): string {
  let text = '';
  for (const segment of w.path) text += typeof segment === 'number' ? `[${segment}]` : text === '' ? segment : `.${segment}`;
  return text;
}

const goPathText = (w: Walk): string => w.goPath.join('.');

function newWalk(schemas: SchemaMap, options: { prune: boolean; keep?: ReadonlySet<string> | undefined }, result: DecodeCheck): Walk {
  return { schemas, prune: options.prune, keep: options.keep, result, path: [], goPath: [] };
}

/**
 * Checks `obj` against the kind's schema; with `prune`, unknown fields are deleted in place, except
 * those listed in `keep` (which are not reported either). Unknown kinds pass.
 */
export function checkDecoded(obj: unknown, group: string, version: string, kind: string, options: { prune: boolean; keep?: ReadonlySet<string> }): DecodeCheck {
  const result: DecodeCheck = { unknown: [], typeError: undefined };
  const crd = group === 'apiextensions.k8s.io' && version === 'v1' && kind === 'CustomResourceDefinition';
  const decodedOnly = crd ? undefined : decodedOnlyName(group, version, kind);
  const name = crd ? customResourceDefinitionName : (decodedOnly ?? definitionNameFor(group, version, kind));
  const schemas = crd || decodedOnly ? withDecodingTypes() : allSchemas();
  const schema = name === undefined ? undefined : schemas[name];
  const walk = newWalk(schemas, options, result);
  if (schema && name !== undefined) walkStruct(walk, schema, goName(name), obj as Record<string, unknown>);
  // A kind without a schema here (metrics.k8s.io's) still has an ObjectMeta.
  else checkMetadata(walk, obj, true);
  return result;
}

/** Kinds decoded without being served as resources: DeleteOptions, and a subresource's TokenRequest. */
function decodedOnlyName(group: string, version: string, kind: string): string | undefined {
  if (group === '' && version === 'v1' && kind === 'DeleteOptions') return 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
  if (group === 'authentication.k8s.io' && version === 'v1' && kind === 'TokenRequest') return tokenRequestName;
  return undefined;
}

let merged: SchemaMap | undefined;

/**
 * The generated schemas with the decoding-only types: apiextensions' (which give JSONSchemaProps'
 * untyped values their shapes) and TokenRequest's (which the generated schemas lack).
 */
function withDecodingTypes(): SchemaMap {
  merged ??= { ...allSchemas(), ...apiextensionsSchemas, ...tokenRequestSchemas };
  return merged;
}

const objectMetaDefinition = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/**
 * A custom object's metadata, decoded as ObjectMeta on its own (apiextensions' schemaobjectmeta.GetObjectMeta):
 * unknown fields as `metadata.x`, and a mistyped one in encoding/json's words relative to ObjectMeta
 * (`Go struct field ObjectMeta.name of type string`).
 */
export function checkObjectMeta(obj: unknown, options: { prune: boolean; keep?: ReadonlySet<string> }): DecodeCheck {
  const result: DecodeCheck = { unknown: [], typeError: undefined };
  checkMetadata(newWalk(allSchemas(), options, result), obj, false);
  return result;
}

/** `named`: metadata is a field of the decoded struct (`.metadata` in encoding/json's words), not the value decoded. */
function checkMetadata(w: Walk, obj: unknown, named: boolean): void {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return;
  const metadata = (obj as Record<string, unknown>).metadata;
  const schema = w.schemas[objectMetaDefinition];
  if (metadata === undefined || metadata === null || !schema) return;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) {
    const what = goJsonKind(metadata);
    w.result.typeError ??= named ? `json: cannot unmarshal ${what} into Go struct field .metadata of type v1.ObjectMeta` : `json: cannot unmarshal ${what} into Go value of type v1.ObjectMeta`;
    addTyped(w, 'metadata', typedMismatch('map', metadata));
    return;
  }
  w.path.push('metadata');
  if (named) w.goPath.push('metadata');
  walkStruct(w, schema, goName(objectMetaDefinition), metadata as Record<string, unknown>);
}

// Asked for at every struct of every body; the definitions are a fixed set.
const goNames = new Map<string, string>();

/** `io.k8s.api.core.v1.PodSpec` -> `v1.PodSpec`, as reflect prints a named type. */
function goName(definition: string): string {
  let name = goNames.get(definition);
  if (name === undefined) {
    name = definition.split('.').slice(-2).join('.');
    goNames.set(definition, name);
  }
  return name;
}

function goType(w: Walk, schema: OpenApiSchema): string | undefined {
  const ref = refName(schema);
  if (ref !== undefined) return customTypes.has(ref) ? undefined : goName(ref);
  const s = resolve(w.schemas, schema);
  if (!s || s['x-kubernetes-int-or-string'] || s.oneOf || s.format === 'date-time') return undefined;
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'boolean':
      return 'bool';
    case 'integer':
      return s.format === 'int64' ? 'int64' : 'int32';
    case 'number':
      return 'float64';
    case 'array': {
      const item = s.items ? goType(w, s.items) : undefined;
      return item === undefined ? undefined : `[]${item}`;
    }
    case 'object': {
      if (s.properties || !s.additionalProperties) return undefined;
      // core/v1's named map of quantities (requests, limits, capacity, allocatable, hard, ...).
      if (refName(s.additionalProperties) === quantityRef) return 'v1.ResourceList';
      const value = goType(w, s.additionalProperties);
      return value === undefined ? undefined : `map[string]${value}`;
    }
    default:
      return undefined;
  }
}

function mismatch(w: Walk, struct: string, value: unknown, type: string | undefined, expected: Expected): void {
  addTyped(w, pathText(w), typedMismatch(expected, value));
  if (w.result.typeError !== undefined || type === undefined) return;
  const what = typeof value === 'number' ? 'number' : goJsonKind(value);
  w.result.typeError = `json: cannot unmarshal ${what} into ${structField(w, struct)} of type ${type}`;
}

/** encoding/json's name for the field being decoded: the innermost struct's type and the field path. */
function structField(w: Walk, struct: string): string {
  return struct ? `Go struct field ${struct.slice(struct.indexOf('.') + 1)}.${goPathText(w)}` : 'Go value';
}

/** Walks a struct's fields; pops the path segments its caller pushed for it. */
function walkStruct(w: Walk, schema: OpenApiSchema, struct: string, value: Record<string, unknown>): void {
  const fields = fieldsOf(w.schemas, schema);
  for (const key of Object.keys(value)) {
    const sub = fields.get(key);
    // encoding/json leaves a field it reads null at its zero value, which marshals as absent (an
    // omitempty field) or fails validation as a missing one: a stored object never holds a null.
    if (value[key] === null && w.prune && sub) {
      delete value[key];
      continue;
    }
    w.path.push(key);
    if (!sub) {
      const at = pathText(w);
      w.path.pop();
      if (w.keep?.has(at)) continue;
      w.result.unknown.push(at);
      addTyped(w, at, 'field not declared in schema');
      if (w.prune) delete value[key];
      continue;
    }
    w.goPath.push(key);
    const decoded = decodedScalar(w, sub, value[key]);
    // Written only when it changes: parts of the checked object may be shared, read-only live data.
    if (decoded !== value[key]) value[key] = decoded;
    walkValue(w, sub, struct, value[key]);
    w.path.pop();
    w.goPath.pop();
  }
}

const quantityRef = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const intOrStringRef = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const timeRef = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
const rfc3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * IntOrString.UnmarshalJSON: a string, else an int32. What is neither fails as an int32 does, named
 * by the field (encoding/json puts the outer field on an inner UnmarshalTypeError).
 */
function checkIntOrString(w: Walk, struct: string, value: unknown): void {
  if (typeof value === 'string' || w.result.typeError !== undefined) return;
  if (typeof value === 'number') {
    if (!fitsInteger(value, 'int32')) w.result.typeError = `json: cannot unmarshal number ${value} into ${structField(w, struct)} of type int32`;
    return;
  }
  w.result.typeError = `json: cannot unmarshal ${goJsonKind(value)} into ${structField(w, struct)} of type int32`;
}

/**
 * metav1.Time as it marshals what it parsed: UTC, whole seconds (a fraction is dropped, an offset
 * applied). Text RFC 3339 does not describe is left to the checks after decoding.
 */
function canonicalTime(text: string): string {
  const m = rfc3339.exec(text);
  if (!m || (m[3] === 'Z' && m[2] === undefined)) return text;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  return Number.isNaN(ms) ? text : `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * A Time is written back as it marshals (canonicalTime). Quantity's UnmarshalJSON: a bare JSON
 * number (`nvidia.com/gpu: 1` in YAML) is the quantity it spells, and a string is trimmed and
 * parsed; the server writes either back as the Quantity marshals, the canonical form unless the
 * text already was one ("0.5" is "500m", "1024Mi" "1Gi"). A string that does not parse fails the
 * decoding, with ParseQuantity's words.
 */
function decodedScalar(w: Walk, node: SchemaNode, value: unknown): unknown {
  // Most fields are plain strings and numbers, named by no reference: they pass at once.
  if ((typeof value !== 'number' && typeof value !== 'string') || node.scalar === undefined) return value;
  if (node.scalar === 'time') return typeof value === 'string' ? canonicalTime(value) : value;
  const text = typeof value === 'number' ? String(value) : value.trim();
  const canonical = canonicalizeQuantityText(text);
  if (canonical === undefined && typeof value === 'string') w.result.typeError ??= quantityParseError(text);
  return canonical ?? text;
}

/** Whether `value` is of the JSON shape `schema` describes (an object, an array or a scalar's type). */
function holdsShape(w: Walk, schema: OpenApiSchema, value: unknown): boolean {
  const type = resolve(w.schemas, schema)?.type;
  if (Array.isArray(value)) return type === 'array';
  if (typeof value === 'object' && value !== null) return type === 'object';
  return type === (typeof value === 'number' ? 'number' : typeof value);
}

/** The zero value encoding/json leaves in a list item or map value it reads null: `{}` for a struct, `""` for a string. */
function zeroValue(w: Walk, node: SchemaNode): unknown {
  const schema = node.schema;
  const ref = refName(schema);
  if (ref !== undefined && customTypes.has(ref)) return null;
  const s = resolve(w.schemas, schema);
  if (!s || s['x-kubernetes-int-or-string'] || s.oneOf) return null;
  switch (s.type) {
    case 'string':
      return '';
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return 0;
    default:
      return s.properties ? {} : null;
  }
}

/** Walks the value at the walk's path (which it leaves as it found it). */
function walkValue(w: Walk, node: SchemaNode, struct: string, value: unknown): void {
  if (value === null || value === undefined) return;
  const schema = node.schema;
  if (node.intOrString) return checkIntOrString(w, struct, value);
  const s = node.resolved;
  if (s === undefined) return;
  if (s.anyOf) {
    // A type that unmarshals itself as one of several shapes (JSONSchemaPropsOrArray): the shape the
    // value has is decoded; a value of none of them is left as such a type leaves it.
    const shape = s.anyOf.find((branch) => holdsShape(w, branch, value));
    if (shape) walkValue(w, nodeOf(w.schemas, shape), struct, value);
    return;
  }
  switch (s.type) {
    case 'string':
      if (typeof value !== 'string') mismatch(w, struct, value, goType(w, schema), 'string');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') mismatch(w, struct, value, goType(w, schema), 'boolean');
      return;
    case 'integer':
      if (typeof value !== 'number') mismatch(w, struct, value, goType(w, schema), 'numeric');
      else if (!fitsInteger(value, s.format) && w.result.typeError === undefined) {
        w.result.typeError = `json: cannot unmarshal number ${value} into ${structField(w, struct)} of type ${goType(w, schema) ?? 'int32'}`;
      }
      return;
    case 'number':
      if (typeof value !== 'number') mismatch(w, struct, value, goType(w, schema), 'numeric');
      return;
    case 'array':
      if (!Array.isArray(value)) {
        mismatch(w, struct, value, goType(w, schema), 'list');
        return;
      }
      if (s.items) {
        const items = nodeOf(w.schemas, s.items);
        const itemStruct = items.structName ?? struct;
        for (let i = 0; i < value.length; i++) {
          let v: unknown = value[i];
          if (v === null && w.prune) v = value[i] = zeroValue(w, items);
          const decoded = decodedScalar(w, items, v);
          if (decoded !== v) value[i] = decoded;
          w.path.push(i);
          walkValue(w, items, itemStruct, decoded);
          w.path.pop();
        }
      }
      return;
    case 'object':
    case undefined: {
      if (typeof value !== 'object' || Array.isArray(value)) {
        if (s.type === 'object') mismatch(w, struct, value, goType(w, schema), 'map');
        return;
      }
      const obj = value as Record<string, unknown>;
      if (s.properties) {
        walkStruct(w, s, node.structName ?? struct, obj);
      } else if (s.additionalProperties) {
        const values = nodeOf(w.schemas, s.additionalProperties);
        // encoding/json names no map keys in a field path.
        for (const k of Object.keys(obj)) {
          const read = obj[k];
          const v = read === null && w.prune ? (obj[k] = zeroValue(w, values)) : read;
          const decoded = decodedScalar(w, values, v);
          if (decoded !== v) obj[k] = decoded;
          w.path.push(k);
          walkValue(w, values, struct, decoded);
          w.path.pop();
        }
      }
      // An object schema with neither (RawExtension, FieldsV1) is opaque: anything goes.
      return;
    }
    default:
      return;
  }
}

/**
 * Whether encoding/json stores `value` in the Go integer the format names: strconv.ParseInt and
 * OverflowInt fail a fraction and a number past the type's range (`replicas: 1e308` is not an
 * int32 upstream; here it would have asked the controllers for that many pods).
 */
function fitsInteger(value: number, format: string | undefined): boolean {
  if (!Number.isInteger(value)) return false;
  if (format === 'int64') return value >= -(2 ** 63) && value < 2 ** 63;
  return value >= -2147483648 && value <= 2147483647;
}

/** What the walk needs of a schema, worked out once: every body of a kind meets the same schemas. */
interface SchemaNode {
  readonly schema: OpenApiSchema;
  /** A scalar the decoding rewrites: a Time as it marshals, a Quantity in its canonical form. */
  scalar: 'time' | 'quantity' | undefined;
  /** An IntOrString: a string, else an int32. */
  intOrString: boolean;
  /** The schema to walk the value with; undefined for what decodes itself (a custom type, preserved unknown fields, int-or-string, oneOf). */
  resolved: OpenApiSchema | undefined;
  /** The Go name of the struct a reference with properties names (`v1.Container`). */
  structName: string | undefined;
}

const schemaNodes = new WeakMap<SchemaMap, WeakMap<OpenApiSchema, SchemaNode>>();

function nodeOf(schemas: SchemaMap, schema: OpenApiSchema): SchemaNode {
  let nodes = schemaNodes.get(schemas);
  if (nodes === undefined) schemaNodes.set(schemas, (nodes = new WeakMap()));
  let node = nodes.get(schema);
  if (node === undefined) {
    node = schemaNode(schemas, schema);
    nodes.set(schema, node);
  }
  return node;
}

function schemaNode(schemas: SchemaMap, schema: OpenApiSchema): SchemaNode {
  const ref = refName(schema);
  const scalar = ref === timeRef ? 'time' : ref === quantityRef ? 'quantity' : undefined;
  if (ref === intOrStringRef) return { schema, scalar, intOrString: true, resolved: undefined, structName: undefined };
  const s = ref !== undefined && customTypes.has(ref) ? undefined : resolve(schemas, schema);
  const walked = s && !s['x-kubernetes-preserve-unknown-fields'] && !s['x-kubernetes-int-or-string'] && !s.oneOf ? s : undefined;
  return { schema, scalar, intOrString: false, resolved: walked, structName: ref !== undefined && s?.properties ? goName(ref) : undefined };
}

const structFields = new WeakMap<SchemaMap, WeakMap<OpenApiSchema, Map<string, SchemaNode>>>();

/**
 * A struct's fields by name with what the walk needs of each, worked out once per struct: a body's
 * every field was a property lookup and two WeakMap lookups. A Map, so that a key such as
 * `__proto__` or `constructor` finds no field.
 */
function fieldsOf(schemas: SchemaMap, schema: OpenApiSchema): Map<string, SchemaNode> {
  let byStruct = structFields.get(schemas);
  if (byStruct === undefined) structFields.set(schemas, (byStruct = new WeakMap()));
  let fields = byStruct.get(schema);
  if (fields === undefined) {
    fields = new Map();
    const props = schema.properties ?? {};
    for (const key of Object.keys(props)) {
      const sub = ownValue(props, key);
      if (sub) fields.set(key, nodeOf(schemas, sub));
    }
    byStruct.set(schema, fields);
  }
  return fields;
}
