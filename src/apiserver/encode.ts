// Encodes results for the wire. Stored objects reuse their stored JSON (see stored-object.ts);
// only objects built on the fly are stringified.
import { stringify as stringifyYaml } from 'yaml';
import type { ResourceDefinition } from '../api/index.ts';
import { apiVersionOf } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { KeyValue } from '../storage/index.ts';
import type { ListPage } from './list.ts';
import type { ObjectResult } from './server.ts';
import { TurnCache, storedJson, storedObject } from './stored-object.ts';

export function resultJson(result: ObjectResult): string {
  return result.kind === 'stored' ? storedJson(result.kv) : JSON.stringify(result.object);
}

export function resultObject(result: ObjectResult): KubeObject {
  return result.kind === 'stored' ? storedObject(result.kv) : result.object;
}

export function listMetadata(page: ListPage): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceVersion: String(page.revision) };
  if (page.continue) meta.continue = page.continue;
  if (page.remainingItemCount !== undefined) meta.remainingItemCount = page.remainingItemCount;
  return meta;
}

/**
 * `prefix`, the JSON of `count` array elements and `suffix`, in pieces of about `pieceLength`
 * characters each, made as they are asked for. A large response as one string (2.5 MB for 1,000
 * pods) lands in V8's large-object space, in freshly mapped pages, is copied whole again by the byte
 * count and the socket write, and cannot exceed V8's longest string (2^29 - 24 characters, ~537 MB
 * of ASCII: an unpaginated LIST of 150,000 pods is longer). Pieces are young and small, and a slow
 * reader holds only those not yet sent.
 */
function* arrayPieces(prefix: string, count: number, elementJson: (i: number) => string, suffix: string, pieceLength = 32 * 1024): Generator<string, void, undefined> {
  let parts: string[] = [prefix];
  let length = 0;
  for (let i = 0; i < count; i++) {
    const json = elementJson(i);
    parts.push(i > 0 ? `,${json}` : json);
    length += json.length;
    if (length >= pieceLength) {
      yield parts.join('');
      parts = [];
      length = 0;
    }
  }
  parts.push(suffix);
  yield parts.join('');
}

/** A list's JSON in pieces (arrayPieces), its items' stored text reused. */
export function listJsonPieces(def: ResourceDefinition, page: ListPage): IterableIterator<string> {
  const head = `{"kind":"${def.kind}List","apiVersion":"${apiVersionOf(def)}","metadata":${JSON.stringify(listMetadata(page))},"items":[`;
  return arrayPieces(head, page.items.length, (i) => storedJson(page.items[i] as KeyValue), ']}');
}

/** JSON.stringify(object) in pieces (arrayPieces), when its last field is the array that makes it large (a Table's rows, a list's items). */
export function jsonPieces(object: object, arrayField: string): IterableIterator<string> {
  const elements = (object as Record<string, unknown>)[arrayField];
  const keys = Object.keys(object);
  if (!Array.isArray(elements) || keys[keys.length - 1] !== arrayField) return [JSON.stringify(object)][Symbol.iterator]();
  const empty = JSON.stringify({ ...object, [arrayField]: [] });
  return arrayPieces(empty.slice(0, -2), elements.length, (i) => JSON.stringify(elements[i]) ?? 'null', ']}');
}

/** A list's whole JSON, for the representations that re-encode it (YAML). */
export function listJson(def: ResourceDefinition, page: ListPage): string {
  return [...listJsonPieces(def, page)].join('');
}

export function toYaml(json: string): string {
  return stringifyYaml(JSON.parse(json) as unknown);
}

const lineCache = new TurnCache<Partial<Record<string, Buffer>>>(256);

/**
 * `{"type":"ADDED","object":{...}}\n` as UTF-8 bytes, built once per stored value and event type.
 * Bytes rather than text: a socket write copies a string into native memory, so 100 watchers of a
 * line made 100 copies; every socket writes the same buffer without copying it.
 */
export function watchLine(type: string, kv: KeyValue): Buffer {
  let lines = lineCache.get(kv);
  if (!lines) {
    lines = {};
    lineCache.set(kv, lines);
  }
  let line = lines[type];
  if (line === undefined) {
    line = Buffer.from(`{"type":"${type}","object":${storedJson(kv)}}\n`);
    lines[type] = line;
  }
  return line;
}
