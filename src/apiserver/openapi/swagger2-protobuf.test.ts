import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { builtinDefinitions } from '../../api/index.ts';
import { buildOpenApi } from './documents.ts';
import { acceptsOpenApiV2Protobuf } from './swagger2-protobuf.ts';

// A reader of the few openapi.v2 messages the test looks into: every field as [number, bytes|number].
function fields(bytes: Uint8Array): [number, Uint8Array | number][] {
  const r = new BinaryReader(bytes);
  const out: [number, Uint8Array | number][] = [];
  while (r.pos < r.len) {
    const [no, type] = r.tag();
    if (type === WireType.LengthDelimited) out.push([no, r.bytes()]);
    else if (type === WireType.Varint) out.push([no, Number(r.int64())]);
    else if (type === WireType.Bit64) out.push([no, r.double()]);
    else throw new Error(`unexpected wire type ${type}`);
  }
  return out;
}
const text = (b: Uint8Array | number | undefined): string => new TextDecoder().decode(b as Uint8Array);
const field = (bytes: Uint8Array, no: number): (Uint8Array | number)[] => fields(bytes).filter(([n]) => n === no).map(([, v]) => v);

/** Definitions (Document field 9) as name -> Schema bytes. */
function definitions(doc: Uint8Array): Map<string, Uint8Array> {
  const defs = field(doc, 9)[0] as Uint8Array;
  return new Map(field(defs, 1).map((named) => [text(field(named as Uint8Array, 1)[0]), field(named as Uint8Array, 2)[0] as Uint8Array]));
}

test('/openapi/v2 in protobuf carries every definition, with its references, types, required fields and GVK extension', () => {
  const docs = buildOpenApi(builtinDefinitions());
  const doc = docs.v2Protobuf();
  assert.equal(text(field(doc, 1)[0]), '2.0');
  const defs = definitions(doc);
  const json = JSON.parse(docs.v2().toString()) as { definitions: Record<string, unknown> };
  assert.deepEqual([...defs.keys()], Object.keys(json.definitions), 'the same definitions, in the same order');

  const review = defs.get('io.k8s.api.authentication.v1.TokenReview') as Uint8Array;
  const props = new Map(field(field(review, 25)[0] as Uint8Array, 1).map((named) => [text(field(named as Uint8Array, 1)[0]), field(named as Uint8Array, 2)[0] as Uint8Array]));
  assert.deepEqual([...props.keys()], ['apiVersion', 'kind', 'metadata', 'spec', 'status']);
  assert.equal(text(field(props.get('spec') as Uint8Array, 1)[0]), '#/definitions/io.k8s.api.authentication.v1.TokenReviewSpec', 'a reference ($ref, field 1)');
  assert.deepEqual(field(review, 19).map(text), ['spec'], 'required');
  const typeItem = field(props.get('kind') as Uint8Array, 22)[0] as Uint8Array;
  assert.deepEqual(field(typeItem, 1).map(text), ['string']);
  const extension = field(review, 31)[0] as Uint8Array;
  assert.equal(text(field(extension, 1)[0]), 'x-kubernetes-group-version-kind');
  assert.deepEqual(JSON.parse(text(field(field(extension, 2)[0] as Uint8Array, 2)[0])), [{ group: 'authentication.k8s.io', kind: 'TokenReview', version: 'v1' }], 'the value as YAML (Any.yaml)');
});

test('kubectl gets protobuf for the media types it asks for, anyone else JSON', () => {
  assert.equal(acceptsOpenApiV2Protobuf('application/com.github.proto-openapi.spec.v2@v1.0+protobuf'), true);
  assert.equal(acceptsOpenApiV2Protobuf('application/com.github.proto-openapi.spec.v2.v1.0+protobuf'), true);
  assert.equal(acceptsOpenApiV2Protobuf('application/json, application/com.github.proto-openapi.spec.v2@v1.0+protobuf'), false, 'the first match is served');
  assert.equal(acceptsOpenApiV2Protobuf(''), false);
  assert.equal(acceptsOpenApiV2Protobuf('application/vnd.kubernetes.protobuf'), false);
});
