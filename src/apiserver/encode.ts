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

export function listJson(def: ResourceDefinition, page: ListPage): string {
  const head = `{"kind":"${def.kind}List","apiVersion":"${apiVersionOf(def)}","metadata":${JSON.stringify(listMetadata(page))},"items":[`;
  const parts: string[] = new Array<string>(page.items.length);
  for (let i = 0; i < page.items.length; i++) parts[i] = storedJson(page.items[i] as KeyValue);
  return `${head}${parts.join(',')}]}`;
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
