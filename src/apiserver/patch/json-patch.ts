// JSON patch (RFC 6902) with the semantics and error texts of the library the
// apiserver uses: `replace` of a missing object key adds it, negative array indices
// count from the end, `test` compares the document's keys only. Inputs are never mutated.
// Written here rather than on fast-json-patch because its semantics and messages differ.
// Upstream: gopkg.in/evanphx/json-patch.v4 patch.go; apiserver/pkg/endpoints/handlers/patch.go (applyJSPatch).
import { maxNestingDepth, setOwn, valueTooDeep } from '../../core/index.ts';
import { hasOwn, isJsonObject } from './json-value.ts';
import type { JsonObject, JsonValue } from './json-value.ts';

/**
 * - malformed: the body is not a patch document → 400 BadRequest with the message;
 * - tooLarge: over maxJSONPatchOperations → 413 `Request entity too large: <message>`;
 * - failed: an operation did not apply → 422 Invalid. Upstream answers NewGenericServerResponse(422),
 *   whose message is "the server rejected our request due to an error in our request" and drops this text.
 */
export type JsonPatchResult =
  | { ok: true; value: unknown }
  | { ok: false; kind: 'malformed' | 'tooLarge' | 'failed'; message: string }
  /**
   * The patched document nests deeper than a body may (nesting-depth.ts): `add` and `copy` place a
   * whole body's depth under a path as deep, so a patch grows an object past what its body could.
   * Upstream's decoding of the patched JSON fails the same way at its own limit.
   */
  | { ok: false; kind: 'tooDeep'; message: string; patched: unknown };

export const maxJSONPatchOperations = 10000;

class PatchFailure extends Error {}
class TooDeep extends Error {}

/**
 * The document being patched, and what its copies have added so far: upstream caps that at
 * JSONPatchMaxCopyBytes (jsonpatch.AccumulatedCopySizeLimit, 3 MiB), so that copying a subtree onto
 * itself cannot double the object a few dozen times.
 */
interface Document {
  doc: JsonValue;
  copiedBytes: number;
}

const accumulatedCopySizeLimit = 3 * 1024 * 1024;

/** A value just placed at `path` must not take the document deeper than a body may nest. */
function checkDepth(path: string, value: JsonValue): void {
  let segments = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) segments++;
  if (valueTooDeep(value, maxNestingDepth - segments)) throw new TooDeep();
}

const wrap = (message: string, cause: string): PatchFailure => new PatchFailure(`${message}: ${cause}`);
const errMissing = 'missing value';
const errTestFailed = 'test failed';
const errInvalidIndex = 'invalid index referenced';

type Operation = Record<string, JsonValue>;

export function applyJsonPatch(original: unknown, operations: unknown): JsonPatchResult {
  if (operations === null) return { ok: true, value: structuredClone(original) };
  if (!Array.isArray(operations)) {
    return { ok: false, kind: 'malformed', message: `json: cannot unmarshal ${goJsonType(operations)} into Go value of type jsonpatch.Patch` };
  }
  for (const op of operations) {
    if (op !== null && !isJsonObject(op)) {
      return { ok: false, kind: 'malformed', message: `json: cannot unmarshal ${goJsonType(op)} into Go value of type jsonpatch.Operation` };
    }
  }
  if (operations.length > maxJSONPatchOperations) {
    return {
      ok: false,
      kind: 'tooLarge',
      message: `The allowed maximum operations in a JSON patch is ${maxJSONPatchOperations}, got ${operations.length}`,
    };
  }
  const root: Document = { doc: structuredClone(original) as JsonValue, copiedBytes: 0 };
  try {
    for (const op of operations as (Operation | null)[]) applyOperation(root, op ?? {});
  } catch (err) {
    if (err instanceof PatchFailure) return { ok: false, kind: 'failed', message: err.message };
    if (err instanceof TooDeep) return { ok: false, kind: 'tooDeep', message: "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth", patched: root.doc };
    throw err;
  }
  return { ok: true, value: root.doc };
}

function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

function stringField(op: Operation, name: 'op' | 'path' | 'from', missing: string): string {
  const v = op[name];
  if (v === undefined || v === null) throw new PatchFailure(missing);
  if (typeof v !== 'string') throw new PatchFailure(`json: cannot unmarshal ${goJsonType(v)} into Go value of type string`);
  return v;
}

function applyOperation(root: Document, op: Operation): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const value: JsonValue = op.value ?? null;
  const pathOf = (prefix: string, useCause = true): string => {
    try {
      return stringField(op, 'path', `operation missing path field: ${errMissing}`);
    } catch (err) {
      throw wrap(prefix, useCause ? (err as Error).message : errMissing);
    }
  };
  const fromOf = (prefix: string): string => {
    try {
      return stringField(op, 'from', `operation, missing from field: ${errMissing}`);
    } catch (err) {
      throw wrap(prefix, (err as Error).message);
    }
  };
  switch (kind) {
    case 'add': {
      const path = pathOf('add operation failed to decode path', false);
      const con = findObject(root, path);
      if (!con) throw wrap(`add operation does not apply: doc is missing path: "${path}"`, errMissing);
      guard(() => con.add(value), `error in add for path: '${path}'`);
      checkDepth(path, value);
      return;
    }
    case 'remove': {
      const path = pathOf('remove operation failed to decode path', false);
      const con = findObject(root, path);
      if (!con) throw wrap(`remove operation does not apply: doc is missing path: "${path}"`, errMissing);
      guard(() => con.remove(), `error in remove for path: '${path}'`);
      return;
    }
    case 'replace': {
      const path = pathOf('replace operation failed to decode path');
      if (path === '') {
        // Upstream ignores a scalar here (it wraps a nil error).
        if (typeof value === 'object' && value !== null) root.doc = value;
        checkDepth(path, value);
        return;
      }
      const con = findObject(root, path);
      if (!con) throw wrap(`replace operation does not apply: doc is missing path: ${path}`, errMissing);
      guard(() => con.get(), `replace operation does not apply: doc is missing key: ${path}`, errMissing);
      guard(() => con.set(value), `error in remove for path: '${path}'`);
      checkDepth(path, value);
      return;
    }
    case 'move': {
      const from = fromOf('move operation failed to decode from');
      const src = findObject(root, from);
      if (!src) throw wrap(`move operation does not apply: doc is missing from path: ${from}`, errMissing);
      const moved = guard(() => src.get(), `error in move for path: '${src.key}'`);
      guard(() => src.remove(), `error in move for path: '${src.key}'`);
      const path = pathOf('move operation failed to decode path');
      const dst = findObject(root, path);
      if (!dst) throw wrap(`move operation does not apply: doc is missing destination path: ${path}`, errMissing);
      guard(() => dst.add(moved), `error in move for path: '${path}'`);
      checkDepth(path, moved);
      return;
    }
    case 'copy': {
      const from = fromOf('copy operation failed to decode from');
      const src = findObject(root, from);
      if (!src) throw wrap(`copy operation does not apply: doc is missing from path: ${from}`, errMissing);
      const copied = guard(() => src.get(), `error in copy for from: '${from}'`);
      const path = pathOf('copy operation failed to decode path', false);
      const dst = findObject(root, path);
      if (!dst) throw wrap(`copy operation does not apply: doc is missing destination path: ${path}`, errMissing);
      root.copiedBytes += Buffer.byteLength(JSON.stringify(copied) ?? 'null');
      if (root.copiedBytes > accumulatedCopySizeLimit) {
        throw new PatchFailure(`Unable to complete the copy, the accumulated size increase of copy is ${root.copiedBytes}, exceeding the limit ${accumulatedCopySizeLimit}`);
      }
      guard(() => dst.add(structuredClone(copied)), 'error while adding value during copy');
      checkDepth(path, copied);
      return;
    }
    case 'test': {
      // Compared recursively: a value from a webhook's patch, which no body limit reached, is held to one.
      if (valueTooDeep(value, maxNestingDepth)) throw new TooDeep();
      const path = pathOf('test operation failed to decode path');
      const failed = wrap(`testing value ${path} failed`, errTestFailed);
      if (path === '') {
        if (!lazyEqual(root.doc, value)) throw failed;
        return;
      }
      const con = findObject(root, path);
      if (!con) throw wrap(`test operation does not apply: is missing path: ${path}`, errMissing);
      const actual = guard(() => con.get(), `error in test for path: '${path}'`);
      if (actual === null) {
        if (value === null) return;
        throw failed;
      }
      if (value === null || !lazyEqual(actual, value)) throw failed;
      return;
    }
    default:
      throw new PatchFailure(`Unexpected kind: ${kind}`);
  }
}

/** Runs a container step, wrapping its failure as upstream's errors.Wrapf does. */
function guard<T>(step: () => T, message: string, cause?: string): T {
  try {
    return step();
  } catch (err) {
    if (err instanceof PatchFailure) throw wrap(message, cause ?? err.message);
    throw err;
  }
}

interface Container {
  key: string;
  get(): JsonValue;
  set(v: JsonValue): void;
  add(v: JsonValue): void;
  remove(): void;
}

function decodePatchKey(k: string): string {
  return k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** The container holding the last path segment; a missing or scalar parent yields none. */
function findObject(root: Document, path: string): Container | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc = root.doc;
  for (const part of split.slice(1, -1)) {
    let next: JsonValue;
    try {
      next = containerOf(doc, decodePatchKey(part))?.get() ?? null;
    } catch {
      return undefined;
    }
    if (next === null || typeof next !== 'object') return undefined;
    doc = next;
  }
  return containerOf(doc, decodePatchKey(split[split.length - 1] as string));
}

function containerOf(doc: JsonValue, key: string): Container | undefined {
  if (Array.isArray(doc)) return arrayContainer(doc, key);
  if (isJsonObject(doc)) return objectContainer(doc, key);
  return undefined;
}

function objectContainer(doc: JsonObject, key: string): Container {
  return {
    key,
    get: () => (hasOwn(doc, key) ? (doc[key] as JsonValue) : null),
    set: (v) => setOwn(doc, key, v),
    add: (v) => setOwn(doc, key, v),
    remove: () => {
      if (!hasOwn(doc, key)) throw wrap(`Unable to remove nonexistent key: ${key}`, errMissing);
      delete doc[key];
    },
  };
}

function atoi(key: string): number {
  if (!/^[+-]?\d+$/.test(key)) throw new PatchFailure(`strconv.Atoi: parsing "${key}": invalid syntax`);
  const n = Number(key);
  if (!Number.isSafeInteger(n)) throw new PatchFailure(`strconv.Atoi: parsing "${key}": value out of range`);
  return n;
}

const invalidIndex = (idx: number): PatchFailure => wrap(`Unable to access invalid index: ${idx}`, errInvalidIndex);

function arrayContainer(ary: JsonValue[], key: string): Container {
  /** Resolves a negative index against `len`, as SupportNegativeIndices does. */
  const resolve = (idx: number, len: number): number => {
    if (idx < -len) throw invalidIndex(idx);
    return idx < 0 ? idx + len : idx;
  };
  const existing = (): number => {
    const idx = atoi(key);
    const at = resolve(idx, ary.length);
    if (at >= ary.length) throw invalidIndex(idx);
    return at;
  };
  return {
    key,
    get: () => ary[existing()] as JsonValue,
    set: (v) => {
      ary[resolve(atoi(key), ary.length)] = v;
    },
    add: (v) => {
      if (key === '-') {
        ary.push(v);
        return;
      }
      let idx: number;
      try {
        idx = atoi(key);
      } catch (err) {
        throw wrap(`value was not a proper array index: '${key}'`, (err as Error).message);
      }
      if (idx >= ary.length + 1) throw invalidIndex(idx);
      ary.splice(resolve(idx, ary.length + 1), 0, v);
    },
    remove: () => {
      const idx = atoi(key);
      if (idx >= ary.length) throw invalidIndex(idx);
      ary.splice(resolve(idx, ary.length), 1);
    },
  };
}

/** lazyNode.equal: every key of the document's value must match; keys only in the operand are not compared. */
function lazyEqual(doc: JsonValue, operand: JsonValue): boolean {
  if (Array.isArray(doc)) {
    return Array.isArray(operand) && doc.length === operand.length && doc.every((x, i) => lazyEqual(x, operand[i] as JsonValue));
  }
  if (isJsonObject(doc)) {
    if (!isJsonObject(operand)) return false;
    return Object.keys(doc).every((k) => {
      if (!hasOwn(operand, k)) return false;
      const a = doc[k] as JsonValue;
      const b = operand[k] as JsonValue;
      if (a === null || b === null) return a === b;
      return lazyEqual(a, b);
    });
  }
  return doc === operand;
}
