// The AST validators Kubernetes' base environment runs after type-checking (1.29+): a duration or
// timestamp literal that does not parse, a regex literal of matches() that does not compile, and list or
// map literals mixing element types are compilation errors, so a CRD rule or a policy holding one is
// refused when it is written rather than failing on every request.
// Upstream: cel-go cel/validator.go (ExtendedValidations), apiserver/pkg/cel/environment/base.go.
import { goDuration, isDate } from './validation/index.ts';
import { celGoTypeName } from './cel-extensions.ts';

interface Node {
  readonly op: string;
  readonly args: unknown;
  readonly start: number;
  readonly checkedType?: { readonly name: string };
}

/** A validation issue: cel-go's message and the offset of the expression it is reported at. */
export interface ValidationIssue {
  message: string;
  offset: number;
}

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as { op?: unknown }).op === 'string' && 'args' in v;

/** time.Parse(time.RFC3339, s) as timestamp() reads it: a real date, then a time of day and a zone. */
function isRFC3339(s: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/.exec(s);
  if (!m || !isDate(m[1] ?? '')) return false;
  return Number(m[2]) <= 23 && Number(m[3]) <= 59 && Number(m[4]) <= 59 && Number(m[7] ?? 0) <= 23 && Number(m[8] ?? 0) <= 59;
}

// RE2 syntax JavaScript lacks: a pattern using any is not judged here (this engine cannot tell).
const re2Only = /\(\?[a-zA-Z]|\(\?P<|\[\[:|\\[zACQE]|\\p[A-Za-z]/;

function compiles(pattern: string): boolean {
  if (re2Only.test(pattern)) return true;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A call's name and arguments (the receiver's not among them), for `call` and `rcall` nodes. */
function callOf(n: Node): { name: string; args: readonly Node[] } | undefined {
  const a = n.args as unknown[];
  if (n.op === 'call') return { name: String(a[0]), args: (a[1] ?? []) as Node[] };
  if (n.op === 'rcall') return { name: String(a[0]), args: (a[2] ?? []) as Node[] };
  return undefined;
}

const literal = (n: Node | undefined): string | undefined => (n?.op === 'value' && typeof n.args === 'string' ? n.args : undefined);

/** A checked type that says what the value is (dyn says nothing, so it mismatches nothing). */
const known = (n: Node): string | undefined => {
  const name = n.checkedType?.name;
  return name === undefined || /\bdyn\b/.test(name) ? undefined : name;
};

function literalIssues(n: Node, out: ValidationIssue[]): void {
  const call = callOf(n);
  if (!call) return;
  const first = call.args[0];
  const text = literal(first);
  if (text === undefined || !first) return;
  if (call.name === 'duration' && goDuration(text) === undefined) out.push({ message: 'invalid duration argument', offset: first.start });
  if (call.name === 'timestamp' && !isRFC3339(text)) out.push({ message: 'invalid timestamp argument', offset: first.start });
  // cel-go checks argument 0: the pattern of the member form (the global form's is its second).
  if (call.name === 'matches' && n.op === 'rcall' && !compiles(text)) out.push({ message: 'invalid matches argument', offset: first.start });
}

const mismatch = (expected: string, actual: string, at: Node): ValidationIssue => ({ message: `expected type '${celGoTypeName(expected)}' but found '${celGoTypeName(actual)}'`, offset: at.start });

function aggregateIssues(n: Node, out: ValidationIssue[]): void {
  if (n.op === 'list') {
    let first: string | undefined;
    for (const e of n.args as Node[]) {
      const t = known(e);
      if (t === undefined) continue;
      if (first === undefined) first = t;
      else if (t !== first) {
        out.push(mismatch(first, t, e));
        break;
      }
    }
  } else if (n.op === 'map') {
    let key: string | undefined;
    let value: string | undefined;
    for (const [k, v] of n.args as [Node, Node][]) {
      const kt = known(k);
      const vt = known(v);
      if (kt !== undefined && key !== undefined && kt !== key) out.push(mismatch(key, kt, k));
      if (vt !== undefined && value !== undefined && vt !== value) out.push(mismatch(value, vt, v));
      key ??= kt;
      value ??= vt;
    }
  }
}

/** The issues of a checked AST, in the order cel-go's validators report them (literals, then aggregates). */
export function validateCheckedAst(root: unknown): ValidationIssue[] {
  const literals: ValidationIssue[] = [];
  const aggregates: ValidationIssue[] = [];
  const walk = (n: unknown, inFormat: boolean, seen: Set<object>): void => {
    if (Array.isArray(n)) {
      for (const c of n) walk(c, inFormat, seen);
      return;
    }
    if (!isNode(n) || seen.has(n)) return;
    seen.add(n);
    literalIssues(n, literals);
    // Literals within a string.format call's arguments mix types by design.
    if (!inFormat) aggregateIssues(n, aggregates);
    const call = callOf(n);
    const format = call?.name === 'format' && n.op === 'rcall';
    const args = n.args;
    if (Array.isArray(args)) for (const c of args) walk(c, format || (inFormat && (n.op === 'list' || n.op === 'map')), seen);
    else if (typeof args === 'object' && args !== null) walk(Object.values(args), false, seen);
  };
  walk(root, false, new Set());
  return [...literals, ...aggregates];
}
