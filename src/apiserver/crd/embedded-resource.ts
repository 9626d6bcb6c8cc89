// Objects marked x-kubernetes-embedded-resource inside a custom resource: their apiVersion, kind and
// metadata are decoded and validated as a resource's own. Decoding (a request body, and the storage
// codec) refuses a non-string apiVersion or kind and a metadata that is no ObjectMeta, and keeps of
// metadata only ObjectMeta's fields, as encoding the ObjectMeta back leaves them (empty ones dropped,
// no creationTimestamp unless set). Validation requires apiVersion and kind and checks metadata with
// ObjectMeta's rules (a name is not required; a namespace is checked only when set).
// Upstream: apiextensions-apiserver/pkg/apiserver/schema/objectmeta/{algorithm.go (Coerce), coerce.go,
// validation.go}.
import type { FieldError } from '../../core/index.ts';
import { GoSyntax, formatFieldError, invalidValue, ownValue, required } from '../../core/index.ts';
import { isDNS1035Label, isValidPathSegmentName, validateObjectMeta } from '../../api/index.ts';
import type { ValidateNameFunc } from '../../api/index.ts';
import { checkObjectMeta } from '../openapi/index.ts';
import { goSyntax } from '../patch/go-format.ts';
import { isObject } from './correlation.ts';
import type { Json } from './correlation.ts';
import type { JSONSchemaProps } from './types.ts';

/** Where an embedded resource sits: as field errors name it (`spec.templates[a]`) and as unknown-field paths do (`spec.templates.a`). */
interface At {
  field: string;
  dotted: string;
}

const child = (parent: string, key: string): string => (parent === '' ? key : `${parent}.${key}`);

/** Calls `visit` for each embedded resource below the root, walking properties, additionalProperties and items. */
function eachEmbedded(value: unknown, s: JSONSchemaProps | undefined, at: At, visit: (node: Json, at: At) => void): void {
  if (!s) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => eachEmbedded(v, s.items, { field: `${at.field}[${i}]`, dotted: `${at.dotted}[${i}]` }, visit));
    return;
  }
  if (!isObject(value)) return;
  if (s['x-kubernetes-embedded-resource'] === true) visit(value, at);
  for (const [key, v] of Object.entries(value)) {
    const prop = ownValue(s.properties, key);
    if (prop) eachEmbedded(v, prop, { field: child(at.field, key), dotted: child(at.dotted, key) }, visit);
    else if (isObject(s.additionalProperties)) eachEmbedded(v, s.additionalProperties as JSONSchemaProps, { field: `${at.field}[${key}]`, dotted: child(at.dotted, key) }, visit);
  }
}

/** A bad value as field.Error prints it: maps and lists in Go syntax. */
const badValue = (v: unknown): unknown => (typeof v === 'object' && v !== null ? new GoSyntax(goSyntax(v)) : v);

export interface EmbeddedCoercion {
  /** Unknown metadata fields (`spec.template.metadata.foo`), dropped with `prune`. */
  unknown: string[];
  /** The first decoding failure, as field.Error prints it: `spec.template.kind: Invalid value: 1: must be a string`. */
  typeError: string | undefined;
  /** What server-side apply's typing finds in embedded metadata (ObjectMeta), with paths as `unknown`'s. */
  typed: { path: string; message: string }[];
}

/** Coerces every embedded resource of `obj` in place (with `prune`); `keep` holds unknown paths left alone. */
export function coerceEmbedded(obj: Json, schema: JSONSchemaProps, prune: boolean, keep?: ReadonlySet<string>): EmbeddedCoercion {
  const out: EmbeddedCoercion = { unknown: [], typeError: undefined, typed: [] };
  eachEmbedded(obj, schema, { field: '', dotted: '' }, (node, at) => {
    for (const key of ['apiVersion', 'kind']) {
      const v = node[key];
      if (v !== undefined && typeof v !== 'string') out.typeError ??= formatFieldError(invalidValue(child(at.field, key), badValue(v), 'must be a string'), { withField: true });
    }
    if (node.metadata === undefined) return;
    const prefix = `${at.dotted}.`;
    const inner = keep && new Set([...keep].filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length)));
    const check = checkObjectMeta(node, inner ? { prune, keep: inner } : { prune });
    out.unknown.push(...check.unknown.map((p) => prefix + p));
    out.typed.push(...(check.typed ?? []).map((t) => ({ ...t, path: prefix + t.path })));
    if (check.typeError !== undefined) out.typeError ??= formatFieldError(invalidValue(child(at.field, 'metadata'), badValue(node.metadata), check.typeError), { withField: true });
    else if (prune && isObject(node.metadata)) dropEmptyFields(node.metadata);
  });
  return out;
}

/**
 * ObjectMeta's fields are all omitempty but creationTimestamp, which coercion removes when zero: an
 * empty value does not survive the round trip (deletionGracePeriodSeconds, a pointer, keeps its 0).
 */
function dropEmptyFields(meta: Json): void {
  for (const [key, v] of Object.entries(meta)) {
    const empty = v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0) || (key === 'generation' && v === 0);
    if (empty) delete meta[key];
  }
}

// path.ValidatePathSegmentName: a generateName prefix is checked for the illegal characters only.
const pathSegmentName: ValidateNameFunc = (name, prefix) => (prefix ? isValidPathSegmentName(`x${name}`) : isValidPathSegmentName(name));

/** objectmeta.Validate below the root: the embedded resources' type meta and metadata. */
export function embeddedResourceErrors(obj: Json, schema: JSONSchemaProps): FieldError[] {
  const errors: FieldError[] = [];
  eachEmbedded(obj, schema, { field: '', dotted: '' }, (node, at) => {
    // apiVersion and kind are required; metadata is not.
    if (!Object.hasOwn(node, 'apiVersion')) errors.push(required(child(at.field, 'apiVersion')));
    if (!Object.hasOwn(node, 'kind')) errors.push(required(child(at.field, 'kind')));
    for (const [key, v] of Object.entries(node)) {
      const path = child(at.field, key);
      if (key === 'apiVersion') errors.push(...apiVersionErrors(path, v));
      else if (key === 'kind') errors.push(...kindErrors(path, v));
      else if (key === 'metadata') errors.push(...metadataErrors(path, node));
    }
  });
  return errors;
}

function apiVersionErrors(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [invalidValue(path, badValue(v), 'must be a string')];
  if (v === '') return [required(path)];
  // schema.ParseGroupVersion: "v1" and "group/v1" parse, more slashes do not.
  if (v !== '/' && v.split('/').length > 2) return [invalidValue(path, v, `unexpected GroupVersion string: ${v}`)];
  return [];
}

function kindErrors(path: string, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [invalidValue(path, badValue(v), 'must be a string')];
  if (v === '') return [required(path)];
  const problems = isDNS1035Label(v.toLowerCase());
  return problems.length > 0 ? [invalidValue(path, v, `may have mixed case, but should otherwise match: ${problems.join(',')}`)] : [];
}

function metadataErrors(path: string, node: Json): FieldError[] {
  const check = checkObjectMeta(node, { prune: false });
  if (check.typeError !== undefined) return [invalidValue(path, badValue(node.metadata), check.typeError)];
  if (!isObject(node.metadata)) return [];
  const meta = node.metadata as Parameters<typeof validateObjectMeta>[0];
  // A name is not required of an embedded resource: upstream validates a stand-in.
  return validateObjectMeta({ ...meta, name: meta.name || 'fakename' }, { namespaced: Boolean(meta.namespace), nameValidator: pathSegmentName }, path);
}
