// Label selectors: the `-l` / `labelSelector=` string grammar, metav1.LabelSelector objects, and
// matching. Parse errors carry upstream's text. Upstream: apimachinery/pkg/labels/selector.go,
// apimachinery/pkg/apis/meta/v1/helpers.go (LabelSelectorAsSelector, FormatLabelSelector).

import type { LabelSelector } from './meta.ts';
import { lookupTable } from './own-keys.ts';

// ---- Label key and value syntax (api/validation re-exports these). Upstream:
// apimachinery/pkg/api/validate/content/{kube,dns}.go, pkg/util/validation/validation.go.

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

// Every write checks its names, label keys and values against these formats. A valid value is
// recognised by a scan of its characters, which equals the anchored regex and allocates nothing;
// only a value the scan refuses goes through the regexes, for upstream's messages. (A memo of
// valid values did this before: most values are new, generated names above all, so the memo cost
// a Set insert per write, and its tables, rebuilt in V8's old generation, kept every entry alive.)

const isLowerAlphanumeric = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
const isAlphanumeric = (c: number): boolean => isLowerAlphanumeric(c) || (c >= 0x41 && c <= 0x5a);

/**
 * Whether value[start, end) matches dns1123SubdomainFmt (dots allowed) or, with `dots` false, the
 * DNS-1123 label format: labels of [a-z0-9-], each starting and ending alphanumeric.
 */
export function scansAsDNS1123(value: string, dots: boolean, start = 0, end = value.length): boolean {
  if (end <= start) return false;
  let labelStart = true;
  let previous = 0;
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i);
    if (isLowerAlphanumeric(c)) labelStart = false;
    else if (c === 0x2d /* - */) {
      if (labelStart) return false;
    } else if (c === 0x2e /* . */ && dots) {
      if (labelStart || previous === 0x2d) return false;
      labelStart = true;
    } else return false;
    previous = c;
  }
  return !labelStart && previous !== 0x2d;
}

/** Whether value[start, end) matches labelKeyFmt: [A-Za-z0-9-_.], starting and ending alphanumeric. */
function scansAsLabelName(value: string, start: number, end: number): boolean {
  if (end <= start || !isAlphanumeric(value.charCodeAt(start)) || !isAlphanumeric(value.charCodeAt(end - 1))) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const c = value.charCodeAt(i);
    if (!isAlphanumeric(c) && c !== 0x2d && c !== 0x5f && c !== 0x2e) return false;
  }
  return true;
}

export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((e, i) => {
    if (i > 0) out += ' or ';
    out += `'${e}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
export const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainRe = new RegExp(`^(?:${dns1123SubdomainFmt})$`);
const dns1123SubdomainErrorMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

export function isDNS1123Subdomain(given: string): string[] {
  const value = given ?? '';
  // A value the scan accepts is ASCII, so its length is its byte length.
  if (value.length <= 253 && scansAsDNS1123(value, true)) return [];
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(maxLenError(253));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

const labelKeyFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const labelKeyErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelKeyRe = new RegExp(`^(?:${labelKeyFmt})$`);
const labelValueFmt = `(${labelKeyFmt})?`;
const labelValueRe = new RegExp(`^(?:${labelValueFmt})$`);
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** IsQualifiedName / IsLabelKey: `[prefix/]name`, for label and annotation keys and finalizers. */
export function isQualifiedName(given: string): string[] {
  // A required string a body left out is Go's "" (decoding leaves no field undefined there).
  const value = given ?? '';
  if (scansAsQualifiedName(value)) return [];
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = value;
  else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  } else {
    return [
      `a valid label key ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (byteLength(name) > 63) errs.push(`name part ${maxLenError(63)}`);
  if (!labelKeyRe.test(name)) errs.push(`name part ${regexError(labelKeyErrMsg, labelKeyFmt, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** isQualifiedName's valid values: a name of at most 63, after an optional subdomain prefix and '/'. */
function scansAsQualifiedName(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return value.length <= 63 && scansAsLabelName(value, 0, value.length);
  if (value.indexOf('/', slash + 1) >= 0 || slash > 253 || value.length - slash - 1 > 63) return false;
  return scansAsDNS1123(value, true, 0, slash) && scansAsLabelName(value, slash + 1, value.length);
}

export function isValidLabelValue(given: string): string[] {
  const value = given ?? '';
  if (value.length === 0 || (value.length <= 63 && scansAsLabelName(value, 0, value.length))) return [];
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!labelValueRe.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** Go's %q for the ASCII-ish strings selectors hold. */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

// ---- Selectors

/** selection.Operator spellings. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

export interface LabelSelectorMatcher {
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** true when it does not restrict anything (Everything); false for Nothing. */
  readonly empty: boolean;
  /** Sorted by key, as upstream keeps them. */
  readonly requirements: readonly LabelRequirement[];
  toString(): string;
}

type Labels = Readonly<Record<string, string>> | undefined;
const has = (ls: Labels, k: string): boolean => ls !== undefined && Object.hasOwn(ls, k);
const int64 = /^[+-]?[0-9]+$/;

function parseInt64(s: string): bigint | undefined {
  if (!int64.test(s)) return undefined;
  const n = BigInt(s);
  return n > 9223372036854775807n || n < -9223372036854775808n ? undefined : n;
}

export function requirementMatches(r: LabelRequirement, ls: Labels): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(ls, r.key) && r.values.includes(ls?.[r.key] ?? '');
    case 'notin':
    case '!=':
      return !has(ls, r.key) || !r.values.includes(ls?.[r.key] ?? '');
    case 'exists':
      return has(ls, r.key);
    case '!':
      return !has(ls, r.key);
    case 'gt':
    case 'lt': {
      if (!has(ls, r.key) || r.values.length !== 1) return false;
      const actual = parseInt64(ls?.[r.key] ?? '');
      const bound = parseInt64(r.values[0] ?? '');
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
    default: {
      const never: never = r.operator;
      return never;
    }
  }
}

const opText: Record<LabelOperator, string> = { '=': '=', '==': '==', '!=': '!=', in: ' in ', notin: ' notin ', gt: '>', lt: '<', exists: '', '!': '' };

export function formatRequirement(r: LabelRequirement): string {
  let s = (r.operator === '!' ? '!' : '') + r.key + opText[r.operator];
  if (r.operator === 'exists' || r.operator === '!') return s;
  const set = r.operator === 'in' || r.operator === 'notin';
  if (set) s += '(';
  s += r.values.length === 1 ? (r.values[0] ?? '') : [...r.values].sort().join(',');
  return set ? `${s})` : s;
}

/**
 * `requirements` sorted by key in place, stably. Selectors have a handful of requirements: an
 * insertion sort makes none of the work array Array.prototype.sort allocates on every call.
 */
function sortByKey(requirements: LabelRequirement[]): LabelRequirement[] {
  for (let i = 1; i < requirements.length; i++) {
    const r = requirements[i] as LabelRequirement;
    let j = i - 1;
    for (; j >= 0 && (requirements[j] as LabelRequirement).key > r.key; j--) requirements[j + 1] = requirements[j] as LabelRequirement;
    requirements[j + 1] = r;
  }
  return requirements;
}

/** The matcher of `requirements`, an array of the caller's own, which it sorts in place. */
function selectorOf(requirements: LabelRequirement[]): LabelSelectorMatcher {
  // Stable sort by key; upstream's sort.Sort may order equal keys either way. Every caller builds the
  // array for this call (controllers parse a selector on every sync), so it is not copied first.
  const sorted = sortByKey(requirements);
  return {
    matches: (ls) => {
      for (const r of sorted) if (!requirementMatches(r, ls)) return false;
      return true;
    },
    empty: sorted.length === 0,
    requirements: sorted,
    toString: () => sorted.map(formatRequirement).join(','),
  };
}

/** labels.Everything(): matches every object. */
export const everythingSelector: LabelSelectorMatcher = selectorOf([]);

/** labels.Nothing(): matches no object; what a nil metav1.LabelSelector means. */
export const nothingSelector: LabelSelectorMatcher = {
  matches: () => false,
  empty: false,
  requirements: [],
  toString: () => '',
};

/** SelectorFromSet: equality on every pair; an empty or missing set selects everything. */
export function selectorFromSet(set: Readonly<Record<string, string>> | undefined): LabelSelectorMatcher {
  return selectorOf(Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=' as const, values: [v] })));
}

/**
 * NewRequirement's checks, producing upstream's aggregated error text (fields are named
 * relative to no path, as when the API server parses a query string).
 */
export function checkRequirement(key: string, op: LabelOperator, values: readonly string[]): string | undefined {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(`key: Invalid value: ${goQuote(key)}: ${keyErrs.join('; ')}`);
  const bad = (v: string): string => `values: Invalid value: ${goStringSlice(values)}: ${v}`;
  if ((op === 'in' || op === 'notin') && values.length === 0) errs.push(bad("for 'in', 'notin' operators, values set can't be empty"));
  if ((op === '=' || op === '==' || op === '!=') && values.length !== 1) errs.push(bad('exact-match compatibility requires one single value'));
  if ((op === 'exists' || op === '!') && values.length !== 0) errs.push(bad('values set must be empty for exists and does not exist'));
  if (op === 'gt' || op === 'lt') {
    if (values.length !== 1) errs.push(bad("for 'Gt', 'Lt' operators, exactly one value is required"));
    values.forEach((v, i) => {
      if (parseInt64(v) === undefined) errs.push(`values[${i}]: Invalid value: ${goQuote(v)}: for 'Gt', 'Lt' operators, the value must be an integer`);
    });
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(`values[${i}][${key}]: Invalid value: ${goQuote(v)}: ${msgs.join('; ')}`);
  });
  return aggregate(errs);
}

/** utilerrors.NewAggregate(...).Error(): one message bare, several deduplicated in brackets. */
export function aggregate(errs: readonly string[]): string | undefined {
  if (errs.length === 0) return undefined;
  const unique = [...new Set(errs)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** A string slice as Go's `%#v` prints it. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

const labelSelectorOps: Readonly<Record<string, LabelOperator>> = lookupTable({ In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' });

/**
 * LabelSelectorAsSelector: a missing selector matches nothing, an empty one `{}` matches
 * everything. Errors carry upstream's text.
 */
export function labelSelectorFromObject(ls: Readonly<LabelSelector> | undefined): LabelSelectorMatcher | { error: string } {
  if (!ls) return nothingSelector;
  const matchLabels = Object.entries(ls.matchLabels ?? {});
  const expressions = ls.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return everythingSelector;
  const reqs: LabelRequirement[] = [];
  for (const [key, v] of matchLabels) {
    const error = checkRequirement(key, '=', [v]);
    if (error) return { error };
    reqs.push({ key, operator: '=', values: [v] });
  }
  for (const expr of expressions) {
    const op = labelSelectorOps[expr.operator];
    if (!op) return { error: `${JSON.stringify(expr.operator)} is not a valid label selector operator` };
    const values = [...(expr.values ?? [])];
    const error = checkRequirement(expr.key, op, values);
    if (error) return { error };
    reqs.push({ key: expr.key, operator: op, values });
  }
  return selectorOf(reqs);
}

/** metav1.FormatLabelSelector, as printed in Selector columns and Scale.status.selector. */
export function formatLabelSelector(ls: Readonly<LabelSelector> | undefined): string {
  const s = labelSelectorFromObject(ls);
  if ('error' in s) return '<error>';
  return s.toString() || '<none>';
}

/**
 * The generated protobuf String() of a *metav1.LabelSelector, which `%v` prints in upstream's
 * messages (ValidatingAdmissionPolicyBinding's ParamRef column, the UnmanagedPods event).
 */
export function goLabelSelectorString(selector: Readonly<LabelSelector>): string {
  const labels = Object.keys(selector.matchLabels ?? {}).sort().map((k) => `${k}: ${selector.matchLabels?.[k] ?? ''},`).join('');
  const expressions = (selector.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}


// ---- The string grammar: a port of upstream's Lexer and Parser, whose error texts users see.

const Tok = {
  Error: 0,
  End: 1,
  ClosedPar: 2,
  Comma: 3,
  DoesNotExist: 4,
  DoubleEquals: 5,
  Equals: 6,
  GreaterThan: 7,
  Identifier: 8,
  In: 9,
  LessThan: 10,
  NotEquals: 11,
  NotIn: 12,
  OpenPar: 13,
} as const;
type Tok = (typeof Tok)[keyof typeof Tok];

// Without a prototype: a label key such as `constructor` or `toString` would find Object.prototype's.
const string2token: Readonly<Record<string, Tok>> = lookupTable({
  ')': Tok.ClosedPar,
  ',': Tok.Comma,
  '!': Tok.DoesNotExist,
  '==': Tok.DoubleEquals,
  '=': Tok.Equals,
  '>': Tok.GreaterThan,
  in: Tok.In,
  '<': Tok.LessThan,
  '!=': Tok.NotEquals,
  notin: Tok.NotIn,
  '(': Tok.OpenPar,
});

const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => '=!(),><'.includes(c) && c !== '';

interface Item {
  tok: Tok;
  lit: string;
}

function lex(s: string): Item[] {
  let pos = 0;
  // Upstream reads bytes and treats NUL as the end of input.
  const read = (): string => {
    if (pos >= s.length || s[pos] === '\0') return '';
    return s[pos++] ?? '';
  };
  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    if (ch === '') {
      items.push({ tok: Tok.End, lit: '' });
      return items;
    }
    pos--;
    if (isSpecial(ch)) {
      let buffer = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (!isSpecial(c)) {
          pos--;
          break;
        }
        buffer += c;
        const t = string2token[buffer];
        if (t !== undefined) last = { tok: t, lit: buffer };
        else if (last) {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buffer}'` });
    } else {
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecial(c) || isWhitespace(c)) {
          pos--;
          break;
        }
        buffer += c;
      }
      items.push({ tok: string2token[buffer] ?? Tok.Identifier, lit: buffer });
    }
  }
}

class SelectorSyntaxError extends Error {}

function parseItems(items: Item[]): LabelRequirement[] {
  let position = 0;
  // In the Values context the keywords `in` and `notin` are ordinary identifiers.
  const asValue = (t: Tok): Tok => (t === Tok.In || t === Tok.NotIn ? Tok.Identifier : t);
  const at = (i: number): Item => items[Math.min(i, items.length - 1)] ?? { tok: Tok.End, lit: '' };
  const lookahead = (): Item => ({ ...at(position), tok: asValue(at(position).tok) });
  const consume = (values: boolean): Item => {
    const it = at(position++);
    return values ? { ...it, tok: asValue(it.tok) } : it;
  };
  const fail = (msg: string): never => {
    throw new SelectorSyntaxError(msg);
  };

  const parseKeyAndInferOperator = (): { key: string; op: LabelOperator | undefined } => {
    let op: LabelOperator | undefined;
    let it = consume(true);
    if (it.tok === Tok.DoesNotExist) {
      op = '!';
      it = consume(true);
    }
    if (it.tok !== Tok.Identifier) fail(`found '${it.lit}', expected: identifier`);
    const keyErrs = isQualifiedName(it.lit);
    if (keyErrs.length) fail(`<nil>: Invalid value: ${goQuote(it.lit)}: ${keyErrs.join('; ')}`);
    const next = lookahead().tok;
    if ((next === Tok.End || next === Tok.Comma) && op !== '!') op = 'exists';
    return { key: it.lit, op };
  };

  const parseOperator = (): LabelOperator => {
    const it = consume(false);
    switch (it.tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        return fail(`found '${it.lit}', expected: '=', '!=', '==', 'in', notin'`);
    }
  };

  const parseIdentifiersList = (): Set<string> => {
    const s = new Set<string>();
    for (;;) {
      const it = consume(true);
      if (it.tok === Tok.Identifier) {
        s.add(it.lit);
        const next = lookahead();
        if (next.tok === Tok.Comma) continue;
        if (next.tok === Tok.ClosedPar) return s;
        fail(`found '${next.lit}', expected: ',' or ')'`);
      } else if (it.tok === Tok.Comma) {
        if (s.size === 0) s.add('');
        const next = lookahead().tok;
        if (next === Tok.ClosedPar) {
          s.add('');
          return s;
        }
        if (next === Tok.Comma) {
          consume(true);
          s.add('');
        }
      } else fail(`found '${it.lit}', expected: ',', or identifier`);
    }
  };

  const parseValues = (): Set<string> => {
    const open = consume(true);
    if (open.tok !== Tok.OpenPar) fail(`found '${open.lit}' expected: '('`);
    const first = lookahead();
    if (first.tok === Tok.Identifier || first.tok === Tok.Comma) {
      const s = parseIdentifiersList();
      if (consume(true).tok !== Tok.ClosedPar) fail(`found '${first.lit}', expected: ')'`);
      return s;
    }
    if (first.tok === Tok.ClosedPar) {
      consume(true);
      return new Set(['']);
    }
    return fail(`found '${first.lit}', expected: ',', ')' or identifier`);
  };

  const parseExactValue = (): Set<string> => {
    const next = lookahead().tok;
    if (next === Tok.End || next === Tok.Comma) return new Set(['']);
    const it = consume(true);
    if (it.tok === Tok.Identifier) return new Set([it.lit]);
    return fail(`found '${it.lit}', expected: identifier`);
  };

  const parseRequirement = (): LabelRequirement => {
    const { key, op: inferred } = parseKeyAndInferOperator();
    let op: LabelOperator;
    let values: string[];
    if (inferred === 'exists' || inferred === '!') {
      op = inferred;
      values = [];
    } else {
      op = parseOperator();
      values = [...(op === 'in' || op === 'notin' ? parseValues() : parseExactValue())].sort();
    }
    const error = checkRequirement(key, op, values);
    if (error) fail(error);
    return { key, operator: op, values };
  };

  const requirements: LabelRequirement[] = [];
  for (;;) {
    const it = lookahead();
    if (it.tok === Tok.End) return requirements;
    if (it.tok !== Tok.Identifier && it.tok !== Tok.DoesNotExist) fail(`found '${it.lit}', expected: !, identifier, or 'end of string'`);
    try {
      requirements.push(parseRequirement());
    } catch (e) {
      if (e instanceof SelectorSyntaxError) throw new SelectorSyntaxError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
    const sep = consume(true);
    if (sep.tok === Tok.End) return requirements;
    if (sep.tok !== Tok.Comma) fail(`found '${sep.lit}', expected: ',' or 'end of string'`);
    const next = lookahead();
    if (next.tok !== Tok.Identifier && next.tok !== Tok.DoesNotExist) fail(`found '${next.lit}', expected: identifier after ','`);
  }
}

/** labels.Parse: the `-l` grammar (`a=b,c!=d,e in (f,g),!h,i`). */
export function parseLabelSelector(text: string): { ok: true; selector: LabelSelectorMatcher } | { ok: false; message: string } {
  try {
    return { ok: true, selector: selectorOf(parseItems(lex(text))) };
  } catch (e) {
    if (e instanceof SelectorSyntaxError) return { ok: false, message: e.message };
    throw e;
  }
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
export function formatLabels(labels: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels?.[k] ?? ''}`).join(',');
}
