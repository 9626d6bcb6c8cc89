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

export function emptySet(): FieldSet {
  return { member: false, children: new Map() };
}

export function isEmptySet(s: FieldSet): boolean {
  return !s.member && s.children.size === 0;
}

export function child(s: FieldSet, key: string): FieldSet {
  let c = s.children.get(key);
  if (!c) {
    c = emptySet();
    s.children.set(key, c);
  }
  return c;
}

export function insertPath(s: FieldSet, path: readonly string[]): void {
  let node = s;
  for (const k of path) node = child(node, k);
  node.member = true;
}

function prune(s: FieldSet): FieldSet {
  for (const [k, c] of s.children) if (isEmptySet(prune(c))) s.children.delete(k);
  return s;
}

/** A deep copy (every write to managedFields unions, so this runs for each field of each object). */
export function cloneSet(a: FieldSet): FieldSet {
  const out: FieldSet = { member: a.member, children: new Map() };
  for (const [k, c] of a.children) out.children.set(k, cloneSet(c));
  return out;
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  if (b.children.size === 0) return b.member && !a.member ? { ...cloneSet(a), member: true } : cloneSet(a);
  if (a.children.size === 0) return a.member && !b.member ? { ...cloneSet(b), member: true } : cloneSet(b);
  const out: FieldSet = { member: a.member || b.member, children: new Map() };
  for (const [k, c] of a.children) {
    const d = b.children.get(k);
    out.children.set(k, d ? union(c, d) : cloneSet(c));
  }
  for (const [k, d] of b.children) if (!a.children.has(k)) out.children.set(k, cloneSet(d));
  return out;
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { member: a.member && b.member, children: new Map() };
  for (const [k, c] of a.children) {
    const d = b.children.get(k);
    if (d) out.children.set(k, intersection(c, d));
  }
  return prune(out);
}

export function difference(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = { member: a.member && !b.member, children: new Map() };
  for (const [k, c] of a.children) {
    const d = b.children.get(k);
    out.children.set(k, d ? difference(c, d) : cloneSet(c));
  }
  return prune(out);
}

export function setEquals(a: FieldSet, b: FieldSet): boolean {
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

export function toFieldsV1(s: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (s.member && s.children.size > 0) out['.'] = {};
  for (const k of [...s.children.keys()].sort()) out[k] = toFieldsV1(s.children.get(k) as FieldSet);
  return out;
}

export function fromFieldsV1(v: unknown): FieldSet {
  const s = emptySet();
  if (typeof v !== 'object' || v === null) return s;
  for (const [k, c] of Object.entries(v)) {
    if (k === '.') s.member = true;
    else {
      const node = fromFieldsV1(c);
      // A key with no children is itself a member: {"f:image":{}}.
      if (node.children.size === 0) node.member = true;
      s.children.set(k, node);
    }
  }
  return s;
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
