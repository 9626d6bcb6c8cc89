// The swagger 2.0 document in the protobuf form kubectl asks /openapi/v2 for (gnostic's openapi.v2.Document,
// `application/com.github.proto-openapi.spec.v2@v1.0+protobuf`): kubectl validates a kind without a
// PATCH operation (the review kinds) against its definitions before `create -f`, and fails without them.
// The definitions are what clients read (kube-openapi's proto models); paths are left out.
// Upstream: github.com/google/gnostic-models openapiv2/OpenAPIv2.proto, kube-openapi pkg/util/proto.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The media type the document is served as; clients ask for it, or for the older `...spec.v2@v1.0+protobuf` (not a valid media type to send back). */
export const openApiV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const acceptedProtobufTypes = [openApiV2ProtobufType, 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf'];

/** Whether an Accept header asks /openapi/v2 for the protobuf form (kube-openapi's handler serves the first match). */
export function acceptsOpenApiV2Protobuf(accept: string): boolean {
  for (const clause of accept.split(',')) {
    const type = clause.split(';')[0]?.trim() ?? '';
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return false;
    if (acceptedProtobufTypes.includes(type)) return true;
  }
  return false;
}

/** Encodes `doc` (swagger 2.0 as JSON values): swagger, info and every definition. */
export function swagger2Protobuf(doc: JsonObject): Uint8Array {
  const w = new BinaryWriter();
  if (typeof doc.swagger === 'string') w.tag(1, WireType.LengthDelimited).string(doc.swagger);
  const info = asObject(doc.info);
  if (info) {
    w.tag(2, WireType.LengthDelimited).fork();
    if (typeof info.title === 'string') w.tag(1, WireType.LengthDelimited).string(info.title);
    if (typeof info.version === 'string') w.tag(2, WireType.LengthDelimited).string(info.version);
    w.join();
  }
  const definitions = asObject(doc.definitions);
  if (definitions) {
    w.tag(9, WireType.LengthDelimited).fork();
    for (const [name, schema] of Object.entries(definitions)) namedSchema(w, 1, name, schema);
    w.join();
  }
  return w.finish();
}

const asObject = (v: Json | undefined): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined);

/** NamedSchema{name = 1, value = 2} as field `field` of the enclosing message. */
function namedSchema(w: BinaryWriter, field: number, name: string, value: Json): void {
  w.tag(field, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(name);
  schemaField(w, 2, value);
  w.join();
}

function schemaField(w: BinaryWriter, field: number, value: Json): void {
  w.tag(field, WireType.LengthDelimited).fork();
  schema(w, asObject(value) ?? {});
  w.join();
}

/** gnostic's Any keeps a value as its YAML text (field 2); JSON is YAML. */
function anyField(w: BinaryWriter, field: number, value: Json): void {
  w.tag(field, WireType.LengthDelimited).fork();
  w.tag(2, WireType.LengthDelimited).string(JSON.stringify(value));
  w.join();
}

const stringFields: Record<string, number> = { $ref: 1, format: 2, title: 3, description: 4, pattern: 13, discriminator: 26 };
const doubleFields: Record<string, number> = { multipleOf: 6, maximum: 7, minimum: 9 };
const boolFields: Record<string, number> = { exclusiveMaximum: 8, exclusiveMinimum: 10, uniqueItems: 16, readOnly: 27 };
const int64Fields: Record<string, number> = { maxLength: 11, minLength: 12, maxItems: 14, minItems: 15, maxProperties: 17, minProperties: 18 };

/** openapi.v2.Schema's fields by their swagger names; keys swagger 2.0 has no place for are dropped. */
function schema(w: BinaryWriter, s: JsonObject): void {
  for (const [key, value] of Object.entries(s)) {
    if (value === null) continue;
    if (key in stringFields && typeof value === 'string') w.tag(stringFields[key] as number, WireType.LengthDelimited).string(value);
    else if (key in doubleFields && typeof value === 'number') w.tag(doubleFields[key] as number, WireType.Bit64).double(value);
    else if (key in boolFields && typeof value === 'boolean') w.tag(boolFields[key] as number, WireType.Varint).bool(value);
    else if (key in int64Fields && typeof value === 'number') w.tag(int64Fields[key] as number, WireType.Varint).int64(value);
    else if (key === 'default') anyField(w, 5, value);
    else if (key === 'example') anyField(w, 30, value);
    else if (key === 'required' && Array.isArray(value)) for (const r of value) w.tag(19, WireType.LengthDelimited).string(String(r));
    else if (key === 'enum' && Array.isArray(value)) for (const e of value) anyField(w, 20, e);
    else if (key === 'additionalProperties') additionalProperties(w, value);
    else if (key === 'type') repeatedStrings(w, 22, Array.isArray(value) ? value : [value]);
    else if (key === 'items') schemas(w, 23, Array.isArray(value) ? value : [value]);
    else if (key === 'allOf' && Array.isArray(value)) for (const item of value) schemaField(w, 24, item);
    else if (key === 'properties') properties(w, asObject(value) ?? {});
    else if (key.startsWith('x-')) namedAny(w, 31, key, value);
  }
}

/** AdditionalPropertiesItem: oneof schema = 1 | boolean = 2. */
function additionalProperties(w: BinaryWriter, value: Json): void {
  w.tag(21, WireType.LengthDelimited).fork();
  if (typeof value === 'boolean') w.tag(2, WireType.Varint).bool(value);
  else schemaField(w, 1, value);
  w.join();
}

/** TypeItem{repeated string value = 1}. */
function repeatedStrings(w: BinaryWriter, field: number, values: readonly Json[]): void {
  w.tag(field, WireType.LengthDelimited).fork();
  for (const v of values) w.tag(1, WireType.LengthDelimited).string(String(v));
  w.join();
}

/** ItemsItem{repeated Schema schema = 1}. */
function schemas(w: BinaryWriter, field: number, values: readonly Json[]): void {
  w.tag(field, WireType.LengthDelimited).fork();
  for (const v of values) schemaField(w, 1, v);
  w.join();
}

/** Properties{repeated NamedSchema additional_properties = 1}. */
function properties(w: BinaryWriter, props: JsonObject): void {
  w.tag(25, WireType.LengthDelimited).fork();
  for (const [name, value] of Object.entries(props)) namedSchema(w, 1, name, value);
  w.join();
}

/** NamedAny{name = 1, value = 2}: a vendor extension. */
function namedAny(w: BinaryWriter, field: number, name: string, value: Json): void {
  w.tag(field, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(name);
  anyField(w, 2, value);
  w.join();
}
