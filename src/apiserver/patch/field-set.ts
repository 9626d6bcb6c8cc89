// Field sets of server-side apply: a tree of path elements, stored as FieldsV1.
//
// Worked example — a manager owning a container's image and the element itself:
//   FieldsV1 {"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{}}}}}
//   tree     spec → containers → k:{"name":"c"} (member) → image (member)
//   paths    .spec.containers[name="c"], .spec.containers[name="c"].image
// Keys are the FieldsV1 element strings: f:<field>, k:<json key>, v:<json value>, i:<index>.
// Upstream: structured-merge-diff fieldpath/set.go, serialize.go, serialize-pe.go, path.go.

export interface FieldSet {
  member: boolean;
  children: Map<string, FieldSet>;
}

/**
 * The children of every set that has none yet: most nodes of a field set are leaves, and a Map
 * apiece was most of what a write's set algebra allocated. child() gives a node its own Map before
 * adding to it; writing to this one throws, so a missed case cannot spread children to every leaf.
 */
class NoChildren extends Map<string, FieldSet> {
  override set(): this {
    throw new Error('field set: a node without children was written to; child() gives it its own map');
  }
  override delete(): boolean {
    throw new Error('field set: a node without children was written to');
  }
  override clear(): void {
    throw new Error('field set: a node without children was written to');
  }
}
const noChildren: Map<string, FieldSet> = new NoChildren();

export function emptySet(): FieldSet {
  return { member: false, children: noChildren };
}

export function isEmptySet(s: FieldSet): boolean {
  return !s.member && s.children.size === 0;
}

export function child(s: FieldSet, key: string): FieldSet {
  let c = s.children.get(key);
  if (!c) {
    c = emptySet();
    if (s.children === noChildren) s.children = new Map();
    s.children.set(key, c);
  }
  return c;
}

export function insertPath(s: FieldSet, path: readonly string[]): void {
  let node = s;
  for (const k of path) node = child(node, k);
  node.member = true;
}

// Sets are persistent: once built (by the walks of typed-value.ts or by decoding) no set is
// changed, so the algebra below returns its inputs, or shares their subtrees, wherever the result
// is the same. A write that touches status then leaves every spec owner's set as it was, which
// lets encodeManagedFields reuse its FieldsV1.

export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (a === b || isEmptySet(b)) return a;
  if (isEmptySet(a)) return b;
  let children: Map<string, FieldSet> | undefined;
  for (const [k, d] of b.children) {
    const c = a.children.get(k);
    const u = c ? union(c, d) : d;
    if (u === c) continue;
    children ??= changeableCopy(a.children);
    children.set(k, u);
  }
  const member = a.member || b.member;
  if (!children && member === a.member) return a;
  return { member, children: children ?? copyOf(a.children) };
}

function copyOf(children: Map<string, FieldSet>): Map<string, FieldSet> {
  return children.size === 0 ? noChildren : changeableCopy(children);
}

/**
 * A new Map of `children`, copied by a loop: `new Map(map)` takes the iterator protocol's generic
 * path, which allocated an entry array and a result object per child.
 */
function changeableCopy(children: Map<string, FieldSet>): Map<string, FieldSet> {
  const copy = new Map<string, FieldSet>();
  for (const [k, c] of children) copy.set(k, c);
  return copy;
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  if (a === b) return a;
  let children = noChildren;
  const [small, large] = a.children.size <= b.children.size ? [a, b] : [b, a];
  for (const [k, c] of small.children) {
    const d = large.children.get(k);
    if (!d) continue;
    const i = intersection(c, d);
    if (isEmptySet(i)) continue;
    if (children === noChildren) children = new Map();
    children.set(k, i);
  }
  return { member: a.member && b.member, children };
}

export function difference(a: FieldSet, b: FieldSet): FieldSet {
  if (isEmptySet(b)) return a;
  if (a === b) return emptySet();
  let children: Map<string, FieldSet> | undefined;
  for (const [k, d] of b.children) {
    const c = a.children.get(k);
    if (!c) continue;
    const x = difference(c, d);
    if (x === c) continue;
    children ??= changeableCopy(a.children);
    if (isEmptySet(x)) children.delete(k);
    else children.set(k, x);
  }
  const member = a.member && !b.member;
  if (!children && member === a.member) return a;
  return { member, children: children ?? copyOf(a.children) };
}

/** `s` without the node at `path` and everything below it. */
export function withoutPath(s: FieldSet, path: readonly string[]): FieldSet {
  const [k, ...rest] = path;
  if (k === undefined) return s;
  const c = s.children.get(k);
  if (!c) return s;
  const children = changeableCopy(s.children);
  if (rest.length === 0) children.delete(k);
  else {
    const x = withoutPath(c, rest);
    if (x === c) return s;
    children.set(k, x);
  }
  return { member: s.member, children };
}

export function setEquals(a: FieldSet, b: FieldSet): boolean {
  if (a === b) return true;
  // Two decodings of one FieldsV1 object (a live entry and the same entry written back).
  if (a instanceof DecodedSet && b instanceof DecodedSet && a.source === b.source) return true;
  if (a.member !== b.member || a.children.size !== b.children.size) return false;
  for (const [k, c] of a.children) {
    const d = b.children.get(k);
    if (!d || !setEquals(c, d)) return false;
  }
  return true;
}

/** Every member path, parents before children, children in FieldsV1 key order. */
export function memberPaths(s: FieldSet, prefix: readonly string[] = []): string[][] {
  const out: string[][] = [];
  if (s.member && prefix.length > 0) out.push([...prefix]);
  for (const k of [...s.children.keys()].sort()) out.push(...memberPaths(s.children.get(k) as FieldSet, [...prefix, k]));
  return out;
}

// A decoded set keeps the FieldsV1 it came from and encodes back to that very object when it is
// canonical, so a manager whose fields a write leaves alone costs no encoding. Decoded sets are not
// kept beyond the write that made them: held for every stored object they would cost more memory
// than the object itself. A built set is encoded once (in P12's 21,000 encodings of built nodes,
// none was encoded twice), so its encoding is not remembered.

/**
 * The `{}` of every leaf and every "." marker: one frozen object instead of one per field of every
 * manager of every stored object (most FieldsV1 nodes are leaves).
 */
export const emptyFields: Readonly<Record<string, unknown>> = Object.freeze({});

export function toFieldsV1(s: FieldSet): Record<string, unknown> {
  const out = encodeSet(s);
  // Written in order: when the entry comes back from storage, decoding it finds it canonical
  // unchecked. Only the root is marked (a mark costs more than building the node, and most built
  // nodes are never looked at again); a node below it that a later write reuses on its own is
  // checked then, once. A decoded set encoded as its own source was marked when found canonical.
  if (out !== emptyFields && !(s instanceof DecodedSet && out === s.source)) canonicalSources.add(out);
  return out;
}

function encodeSet(s: FieldSet): Record<string, unknown> {
  if (s instanceof DecodedSet && (s.inCanonical || isCanonical(s.source))) return s.source;
  if (s.member && s.children.size === 0) return emptyFields as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (s.member && s.children.size > 0) out['.'] = emptyFields;
  for (const k of sortedKeys(s.children)) out[k] = encodeSet(s.children.get(k) as FieldSet);
  return out;
}

function sortedKeys(children: Map<string, FieldSet>): string[] {
  const keys: string[] = [];
  for (const k of children.keys()) keys.push(k);
  return sortStrings(keys);
}

/**
 * Sorts in place by UTF-16 code units, as Array.prototype.sort does strings; by insertion, which
 * for a node's few keys is faster and, unlike the built-in sort, copies nothing.
 */
export function sortStrings(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

/**
 * A set decoded from FieldsV1 one level at a time, when its children are first asked for: a write
 * that touches status never expands what a spec owner's entry holds below `f:spec`.
 */
class DecodedSet implements FieldSet {
  readonly source: Record<string, unknown>;
  member: boolean;
  /**
   * Decoded from within a FieldsV1 object known canonical, so canonical itself (a canonical object
   * is canonical at every level, and stored ones are never changed): a write that changes part of a
   * manager's set reuses the rest without checking it again, node by node.
   */
  readonly inCanonical: boolean;
  #children: Map<string, FieldSet> | undefined;
  constructor(source: Record<string, unknown>, member: boolean, inCanonical: boolean) {
    this.source = source;
    this.member = member;
    this.inCanonical = inCanonical;
  }
  get children(): Map<string, FieldSet> {
    return (this.#children ??= decodeChildren(this.source, this.inCanonical || canonicalSources.has(this.source)));
  }
}

/** The FieldsV1 object a set was decoded from, or undefined for a set built by the algebra or a walk. */
export function fieldsV1Source(s: FieldSet): object | undefined {
  return s instanceof DecodedSet ? s.source : undefined;
}

export function fromFieldsV1(v: unknown): FieldSet {
  if (typeof v !== 'object' || v === null) return emptySet();
  const source = v as Record<string, unknown>;
  return new DecodedSet(source, Object.hasOwn(source, '.'), false);
}

function decodeChildren(v: Record<string, unknown>, canonical: boolean): Map<string, FieldSet> {
  const children = new Map<string, FieldSet>();
  for (const k in v) {
    if (k === '.' || !Object.hasOwn(v, k)) continue;
    const c = v[k];
    if (typeof c === 'object' && c !== null) children.set(k, new DecodedSet(c as Record<string, unknown>, isMemberNode(c as Record<string, unknown>), canonical));
    else children.set(k, { member: true, children: noChildren });
  }
  return children;
}

/** Below the root a node is a member when it has "." or nothing else: {"f:image":{}}. */
function isMemberNode(v: Record<string, unknown>): boolean {
  for (const k in v) if (k !== '.' && Object.hasOwn(v, k)) return Object.hasOwn(v, '.');
  return true;
}

// FieldsV1 objects found to be written as toFieldsV1 writes them. Stored entries are, and stay the
// same objects from one write of an object to the next while its decoded form is cached.
const canonicalSources = new WeakSet<object>();

/** Whether toFieldsV1 would write `v` as it is: keys in order at every level, only objects, "." only beside other keys. */
function isCanonical(v: Record<string, unknown>): boolean {
  if (canonicalSources.has(v)) return true;
  if (!checkCanonical(v)) return false;
  canonicalSources.add(v);
  return true;
}

function checkCanonical(v: Record<string, unknown>): boolean {
  let previous: string | undefined;
  let kids = 0;
  for (const k in v) {
    if (!Object.hasOwn(v, k) || (previous !== undefined && k <= previous)) return false;
    previous = k;
    const c = v[k];
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return false;
    const child = c as Record<string, unknown>;
    if (k === '.') {
      for (const _ in child) return false;
      continue;
    }
    kids++;
    if (!canonicalSources.has(child) && !checkCanonical(child)) return false;
  }
  // {".": {}} alone is a member leaf, written {}.
  return !(previous === '.' && kids === 0);
}

/** fieldpath.Path.String(): `.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"]`. */
export function pathString(path: readonly string[]): string {
  return path
    .map((pe) => {
      const body = pe.slice(2);
      switch (pe.slice(0, 2)) {
        case 'f:':
          return `.${body}`;
        case 'k:': {
          const key = JSON.parse(body) as Record<string, unknown>;
          return `[${Object.entries(key).map(([n, v]) => `${n}=${JSON.stringify(v)}`).join(',')}]`;
        }
        case 'v:':
          return `[=${body}]`;
        case 'i:':
          return `[${body}]`;
        default:
          return '{{invalid path element}}';
      }
    })
    .join('');
}
