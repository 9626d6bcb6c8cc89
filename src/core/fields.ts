// Field selectors (`fieldSelector=spec.nodeName=n1,status.phase!=Failed`): parsing with upstream's
// escaping rules and error texts, and matching against a field getter.
// Upstream: apimachinery/pkg/fields/selector.go.

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

export interface FieldSelectorMatcher {
  /** In upstream's order: terms sorted by their raw text. */
  readonly requirements: readonly FieldRequirement[];
  /** A field the object does not have reads as "", as upstream's fields.Set does. */
  matches(get: (field: string) => string | undefined): boolean;
  readonly empty: boolean;
  /** Canonical form: `==` printed as `=`, values re-escaped. */
  toString(): string;
}

/** Splits on commas not preceded by a backslash; escapes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

// `==` is tried before `=` so it does not leave a leading '=' on the value; the left side
// has no escaping, so the first operator found splits the term.
const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: (typeof termOperators)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.EscapeValue: makes any literal usable as a selector value. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue, with its error texts (a bare ',' or '=' is reported by code point, as Go's %v prints a rune). */
export function unescapeFieldValue(s: string): { ok: true; value: string } | { ok: false; message: string } {
  if (!/[\\,=]/.test(s)) return { ok: true, value: s };
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') return { ok: false, message: `invalid field selector: invalid escape sequence: \\${c}` };
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') return { ok: false, message: `invalid field selector: unescaped character in value: ${c.codePointAt(0)}` };
    else out += c;
  }
  if (inSlash) return { ok: false, message: 'invalid field selector: invalid escape sequence: \\' };
  return { ok: true, value: out };
}

function selectorOf(requirements: FieldRequirement[]): FieldSelectorMatcher {
  return {
    requirements,
    matches: (get) => requirements.every((r) => ((get(r.field) ?? '') === r.value) === (r.operator === '=')),
    empty: requirements.length === 0,
    toString: () => requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(','),
  };
}

export const everythingFieldSelector: FieldSelectorMatcher = selectorOf([]);

/** fields.ParseSelector. */
export function parseFieldSelector(text: string): { ok: true; selector: FieldSelectorMatcher } | { ok: false; message: string } {
  // Go sorts the raw terms by byte value; these terms are compared the same way for ASCII.
  const parts = splitTerms(text).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const term = splitTerm(part);
    if (!term) return { ok: false, message: `invalid selector: '${text}'; can't understand '${part}'` };
    const value = unescapeFieldValue(term.rhs);
    if (!value.ok) return value;
    reqs.push({ field: term.lhs, operator: term.op === '!=' ? '!=' : '=', value: value.value });
  }
  return { ok: true, selector: selectorOf(reqs) };
}

/** RequiresExactMatch: the value an `=` term pins `field` to, for index lookups. */
export function fieldSelectorRequiresExactMatch(selector: FieldSelectorMatcher, field: string): string | undefined {
  return selector.requirements.find((r) => r.field === field && r.operator === '=')?.value;
}

/**
 * The selector's field labels outside `supported`, in selector order without repeats. The
 * API server reports the first as `field label not supported: <label>`.
 */
export function unsupportedFieldLabels(selector: FieldSelectorMatcher, supported: ReadonlySet<string>): string[] {
  return [...new Set(selector.requirements.map((r) => r.field))].filter((f) => !supported.has(f));
}
