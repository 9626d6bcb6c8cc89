// How objects are kept in the Store and read back. As in upstream's etcd3 storage, the
// stored bytes carry no resourceVersion: it is the key's modRevision, stamped on read.
// Encoding once and splicing the version in keeps reads and watch fan-out free of
// JSON.stringify: every list, get and watch event reuses the stored text.
import { isDeepStrictEqual } from 'node:util';
import type { KeyValue } from '../storage/index.ts';
import type { KubeObject } from '../core/index.ts';
import { readAtProcessStart, setOwn } from '../core/index.ts';
import type { ResourceDefinition } from '../api/index.ts';

const metadataMarker = '"metadata":{';

// ObjectMeta's lists and maps are `omitempty` in Go: an emptied one is not stored.
const omitEmptyFields: ReadonlySet<string> = new Set(['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields']);

/** Serializes with apiVersion, kind and metadata first and metadata.resourceVersion removed. */
export function encodeForStorage(obj: KubeObject): string {
  return stringifyStored(obj, storableMetadata(obj.metadata));
}

/**
 * encodeForStorage for the object a write owns and will store: its metadata is first replaced by
 * the storable one, which rememberStoredObject then stamps with the revision rather than rebuilding.
 * An update passes the live object and its stored text: the top-level values it keeps as they are
 * (a status write keeps spec, a spec write keeps status) are copied from that text, not encoded again.
 */
export function encodeOwnedForStorage(obj: KubeObject, live?: { object: KubeObject; text: string }): string {
  const managedFields = obj.metadata.managedFields;
  const meta = storableMetadataHead(obj.metadata);
  // A create encodes in one call: most created objects (Events) are never updated.
  if (live === undefined) {
    obj.metadata = withManagedFields(meta, managedFields);
    return stringifyStored(obj, obj.metadata);
  }
  // The head is encoded before managedFields joins it (last, as storableMetadata puts it).
  const head = JSON.stringify(meta);
  obj.metadata = withManagedFields(meta, managedFields);
  return encodeWithSpans(obj, live, head);
}

function stringifyStored(obj: KubeObject, metadata: KubeObject['metadata']): string {
  // A loop rather than a rest pattern and a spread, which V8 runs as slower runtime calls (~0.4 us a
  // pod); setOwn keeps a top-level `__proto__` key an own field, as the spread did.
  const ordered: Record<string, unknown> = { apiVersion: obj.apiVersion, kind: obj.kind, metadata };
  for (const key in obj) if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata') setOwn(ordered, key, (obj as Record<string, unknown>)[key]);
  return flattened(JSON.stringify(ordered));
}

/**
 * `text`, made one flat string while it is young. V8's JSON.stringify returns a text of more than
 * a few dozen characters as a rope of its builder's pieces (32, 64, 128, ... characters), and a
 * stored text nobody reads (an Event's) stayed one: a fifth larger than flat, seven objects for
 * every scavenge to copy and every full collection to trace instead of one. Reading a character
 * makes V8 flatten a rope in place; the next scavenge keeps only the flat copy.
 */
function flattened(text: string): string {
  text.charCodeAt(0);
  return text;
}

/**
 * Where reusable values sit in an updated object's stored text, as [key, start, end, ...]: for the
 * object-valued top-level fields but metadata the key is the field's name, for the managed fields
 * it is the entry's FieldsV1 object. Held while the decoded object is, so the next update of that
 * object finds the text of what it keeps. Only objects encoded by an update have them; a create's
 * or a decoded text's do not, and their first update encodes in full.
 */
const valueSpans = new WeakMap<KubeObject, (string | number | object)[]>();

/**
 * stringifyStored's text for an object whose metadata is already storable (its text but
 * managedFields is `metadataHead`), built field by field to record valueSpans and to reuse the
 * live object's text for the values it shares by identity: the spec a status write keeps, the
 * FieldsV1 of every manager the write leaves alone (most of the metadata's text).
 */
function encodeWithSpans(obj: KubeObject, live: { object: KubeObject; text: string }, metadataHead: string): string {
  const reusable = valueSpans.get(live.object);
  const spans: (string | number | object)[] = [];
  // Joined from its parts at the end, into a flat string that holds none of them. Built with +=, the
  // text was a tree of its parts, those copied from the live text were slices of that text, and a
  // text nobody flattened (a pod status nobody reads as text) kept every earlier revision of its
  // object alive: ~10 KB a running pod in pod-memory.
  const parts: string[] = ['{'];
  let length = 1;
  const add = (part: string): void => {
    parts.push(part);
    length += part.length;
  };
  const put = (field: string, json: string | undefined, recorded: boolean): void => {
    if (json === undefined) return;
    add(`${length > 1 ? ',' : ''}${JSON.stringify(field)}:`);
    if (recorded) spans.push(field, length, length + json.length);
    add(json);
  };
  put('apiVersion', JSON.stringify(obj.apiVersion), false);
  put('kind', JSON.stringify(obj.kind), false);
  add(`${length > 1 ? ',' : ''}"metadata":`);
  const metadataAt = length;
  add(
    managedFieldsAppended(metadataHead, obj.metadata.managedFields, (fieldsV1, at) => {
      const json = (reusable && keptSpan(reusable, live.text, fieldsV1)) ?? JSON.stringify(fieldsV1);
      spans.push(fieldsV1, metadataAt + at, metadataAt + at + json.length);
      return json;
    }),
  );
  for (const field in obj) {
    if (field === 'apiVersion' || field === 'kind' || field === 'metadata') continue;
    const value = (obj as Record<string, unknown>)[field];
    if (typeof value !== 'object' || value === null) {
      put(field, JSON.stringify(value), false);
      continue;
    }
    put(field, (reusable && (live.object as Record<string, unknown>)[field] === value && keptSpan(reusable, live.text, field)) || JSON.stringify(value), true);
  }
  add('}');
  if (spans.length > 0) valueSpans.set(obj, spans);
  return parts.join('');
}

/**
 * The metadata's text: its head (the text of all but managedFields) with the entries appended,
 * each entry's FieldsV1 text from `fieldsText` (given where in the result it goes).
 */
function managedFieldsAppended(head: string, entries: KubeObject['metadata']['managedFields'], fieldsText: (fieldsV1: object, at: number) => string): string {
  if (entries === undefined || entries.length === 0) return head;
  let text = head.length > 2 ? `${head.slice(0, -1)},"managedFields":[` : '{"managedFields":[';
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Record<string, unknown> | undefined;
    if (i > 0) text += ',';
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      text += JSON.stringify(entry) ?? 'null';
      continue;
    }
    let fields = '{';
    for (const key in entry) {
      const value = entry[key];
      const prefix = `${fields.length > 1 ? ',' : ''}${JSON.stringify(key)}:`;
      if (key === 'fieldsV1' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        fields += prefix;
        fields += fieldsText(value, text.length + fields.length);
        continue;
      }
      const json = JSON.stringify(value);
      if (json !== undefined) fields += prefix + json;
    }
    text += `${fields}}`;
  }
  return `${text}]}`;
}

/** The live text recorded for `key` (a field name or a FieldsV1 object), when there is one. */
function keptSpan(spans: (string | number | object)[], liveText: string, key: string | object): string | undefined {
  for (let i = 0; i < spans.length; i += 3) {
    if (spans[i] === key) return liveText.slice(spans[i + 1] as number, spans[i + 2] as number);
  }
  return undefined;
}

/**
 * ObjectMeta as stored: no resourceVersion, no empty omitempty fields, built afresh. The write
 * path deletes fields of the metadata it edits, which leaves V8 a dictionary-mode object that
 * JSON.stringify walks at about half speed; a fresh object in the same key order is fast again.
 */
function storableMetadata(metadata: KubeObject['metadata']): KubeObject['metadata'] {
  return withManagedFields(storableMetadataHead(metadata), metadata.managedFields);
}

/** storableMetadata without managedFields. */
function storableMetadataHead(metadata: KubeObject['metadata']): KubeObject['metadata'] {
  const meta: Record<string, unknown> = {};
  for (const key in metadata) {
    if (key === 'resourceVersion' || key === 'managedFields') continue;
    const value = (metadata as Record<string, unknown>)[key];
    if (value === undefined || (omitEmptyFields.has(key) && isEmpty(value))) continue;
    meta[key] = value;
  }
  return meta as KubeObject['metadata'];
}

/** Adds managedFields last, as Go serializes ObjectMeta, and as the field tracker leaves it on every write. */
function withManagedFields(meta: KubeObject['metadata'], managedFields: KubeObject['metadata']['managedFields']): KubeObject['metadata'] {
  if (managedFields !== undefined && managedFields.length > 0) meta.managedFields = managedFields;
  return meta;
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== 'object' || value === null) return false;
  for (const _ in value) return false;
  return true;
}

/**
 * A computation per stored value, kept for the event-loop turn that made it. A write's watch
 * fan-out encodes its event for every watcher in the turn of the write, so that turn is all the
 * sharing there is; an entry kept longer outlived V8's young generation and was copied out of it by
 * the next scavenge (a write's response and watch line, ~3 KB a pod, kept for nobody). A WeakMap
 * keyed by the stored value would keep a second copy of every object any HTTP client ever read or
 * watched for as long as that revision is the live one.
 *
 * The entries sit in fixed arrays, one slot per revision modulo the size (a later value in the same
 * slot replaces the earlier), emptied at the end of the turn. Not a Map: once a Map's table is in
 * the old generation V8 allocates its every later table there too, and a table it left behind
 * (cleared, or outgrown) still points at the entries, so a scavenge kept every entry the Map had
 * held since the last one (measured: 2.7 KB promoted per pod created for a cache of 16 objects).
 */
export class TurnCache<V> {
  readonly #keys: (KeyValue | undefined)[];
  readonly #values: (V | undefined)[];
  readonly #mask: number;
  readonly #used: number[] = [];
  readonly #clear = (): void => {
    for (const slot of this.#used) {
      this.#keys[slot] = undefined;
      this.#values[slot] = undefined;
    }
    this.#used.length = 0;
  };

  /** `size` is rounded up to a power of two. */
  constructor(size: number) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(1, size)));
    this.#keys = new Array<KeyValue | undefined>(slots).fill(undefined);
    this.#values = new Array<V | undefined>(slots).fill(undefined);
    this.#mask = slots - 1;
  }

  get(kv: KeyValue): V | undefined {
    const slot = kv.modRevision & this.#mask;
    return this.#keys[slot] === kv ? this.#values[slot] : undefined;
  }

  set(kv: KeyValue, value: V): void {
    const slot = kv.modRevision & this.#mask;
    if (this.#keys[slot] === undefined) {
      if (this.#used.length === 0) setImmediate(this.#clear);
      this.#used.push(slot);
    }
    this.#keys[slot] = kv;
    this.#values[slot] = value;
  }
}

const jsonCache = new TurnCache<string>(256);
// Weakly held: the decoded object lives while some reader (an informer's cache) holds it, and is
// decoded again if read after every holder let go. Values nobody keeps (events, old revisions in the
// watch history) would otherwise carry a decoded copy several times their stored size.
const objectCache = new WeakMap<KeyValue, WeakRef<KubeObject>>();
// What writes stored this turn, strongly held until a reader takes it into objectCache: V8's
// scavenges keep every WeakRef's target, so a written object that nobody reads (a create answered
// with its stored text, an Event nobody watches in process) would be copied out of the young
// generation and live until the next full collection.
const justStored = new TurnCache<KubeObject>(1024);

/** The wire JSON of a stored object, with its resourceVersion. Cached per stored value. */
export function storedJson(kv: KeyValue): string {
  let json = jsonCache.get(kv);
  if (json === undefined) {
    const at = kv.value.indexOf(metadataMarker);
    if (at < 0) throw new Error(`stored value for ${kv.key} has no metadata`);
    const cut = at + metadataMarker.length;
    const empty = kv.value[cut] === '}';
    json = `${kv.value.slice(0, cut)}"resourceVersion":"${kv.modRevision}"${empty ? '' : ','}${kv.value.slice(cut)}`;
    jsonCache.set(kv, json);
  }
  return json;
}

/**
 * The decoded object, shared by every in-process reader of this stored value. Callers must
 * not mutate it; writers edit a private copy (mutableCopy) or build new objects that share it.
 */
export function storedObject(kv: KeyValue): KubeObject {
  let obj = objectCache.get(kv)?.deref();
  if (obj === undefined) {
    obj = justStored.get(kv);
    if (obj !== undefined) {
      objectCache.set(kv, new WeakRef(obj));
      return obj;
    }
    obj = JSON.parse(kv.value) as KubeObject;
    obj.metadata.resourceVersion = String(kv.modRevision);
    // Shared by every reader. Under test, freezing makes a component's accidental mutation
    // throw at the line that does it (STYLE B4); in production it would only cost time.
    if (freezeSharedObjects) deepFreeze(obj);
    objectCache.set(kv, new WeakRef(obj));
  }
  return obj;
}

/**
 * Records `obj`, the object a write just stored as `kv` (encoded by encodeOwnedForStorage), as the
 * decoded form every reader shares, so that neither the writer's answer nor the watchers' events
 * decode the text again. The write path owns `obj` and never touches it after this; it is what
 * JSON.parse(kv.value) would give once the revision is stamped, which tests check.
 */
export function rememberStoredObject(kv: KeyValue, obj: KubeObject): void {
  obj.metadata.resourceVersion = String(kv.modRevision);
  if (freezeSharedObjects) {
    const decoded = JSON.parse(kv.value) as KubeObject;
    decoded.metadata.resourceVersion = String(kv.modRevision);
    if (!isDeepStrictEqual(decoded, obj)) throw new Error(`stored object for ${kv.key} differs from its encoding: ${JSON.stringify(obj)}`);
    deepFreeze(obj);
  }
  justStored.set(kv, obj);
}

/** Set by the test runner (scripts/run-tests.mjs) and inherited by the clusters tests start. */
let freezeSharedObjects = false;
readAtProcessStart(() => {
  freezeSharedObjects = process.env.DRYDOCK_FREEZE_OBJECTS === '1';
});

function deepFreeze(value: unknown): void {
  // A frozen subtree is shared with an older revision and was frozen with it.
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/** A fresh, mutable copy for a write path. */
export function mutableCopy(kv: KeyValue): KubeObject {
  const obj = JSON.parse(kv.value) as KubeObject;
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}

export interface StorageKeyParts {
  group: string;
  resource: string;
  namespace: string;
  name: string;
}

/** `/registry/<group|core>/<resource>/[<namespace>/]<name>`. */
export function storageKey(p: StorageKeyParts): string {
  return `${storagePrefix(p.group, p.resource, p.namespace)}${p.name}`;
}

/** The prefix under which a resource's objects live, optionally within one namespace. */
export function storagePrefix(group: string, resource: string, namespace: string): string {
  const base = `/registry/${group || 'core'}/${resource}/`;
  return namespace ? `${base}${namespace}/` : base;
}

// One cache per alias: a custom resource's versions each view the same stored values their own way.
const viewCaches = new WeakMap<object, WeakMap<KeyValue, KeyValue>>();

/**
 * The stored value as `def` serves it. For kinds stored as another kind or version (storedAs) this is a
 * converted copy, cached per stored value so every reader and watcher of that view shares it.
 */
export function viewOf(def: ResourceDefinition, kv: KeyValue): KeyValue {
  const alias = def.storedAs;
  if (!alias) return kv;
  let cache = viewCaches.get(alias);
  if (!cache) viewCaches.set(alias, (cache = new WeakMap()));
  let view = cache.get(kv);
  if (!view) {
    view = { key: kv.key, createRevision: kv.createRevision, modRevision: kv.modRevision, value: encodeForStorage(alias.fromStored(JSON.parse(kv.value) as KubeObject)) };
    cache.set(kv, view);
  }
  return view;
}

/** What `def` writes to the store: its own encoding, or the converted stored form. */
export function encodeStored(def: ResourceDefinition, obj: KubeObject): string {
  return encodeForStorage(def.storedAs ? def.storedAs.toStored(obj) : obj);
}
