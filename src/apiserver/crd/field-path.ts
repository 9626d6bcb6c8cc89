// A JSON path through a CRD schema, as rules' fieldPath and selectableFields write one: `.spec.size`,
// `.spec.labels.team`, and (where allowed) `['name']` steps. Each step follows the schema's properties,
// or a map's additionalProperties, and the path names the field the last step reaches.
// Upstream: apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go (ValidFieldPath).
import { ownValue } from '../../core/index.ts';
import type { JSONSchemaProps } from './types.ts';

/** One step: a property (`spec`) or a map key (printed in brackets, as field.Path's Key). */
export interface FieldPathStep {
  readonly name: string;
  readonly key: boolean;
}

export type FieldPathResult =
  | { readonly ok: true; readonly steps: readonly FieldPathStep[]; readonly schema: JSONSchemaProps | undefined }
  | { readonly ok: false; readonly message: string };

/**
 * The path's tokens as upstream's scanner splits them: each of `.`, `[` and `]` alone, a single-quoted
 * string (up to a quote with no backslash before it) whole, and any other run between delimiters.
 */
function tokenize(path: string): string[] {
  const tokens: string[] = [];
  let at = 0;
  while (at < path.length) {
    let end = path.length;
    if (path[at] === "'") {
      for (let i = at + 1; i < path.length; i++) {
        if (path[i] === "'" && path[i - 1] !== '\\') {
          end = i + 1;
          break;
        }
      }
    } else if ('.[]'.includes(path[at] ?? '')) {
      end = at + 1;
    } else {
      for (let i = at + 1; i < path.length; i++) {
        if ('.[]'.includes(path[i] ?? '')) {
          end = i;
          break;
        }
      }
    }
    tokens.push(path.slice(at, end));
    at = end;
  }
  return tokens;
}

const quoteEscapes: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): { ok: true; value: string } | { ok: false; message: string } {
  let bad: string | undefined;
  // Go's `\\.` matches any character after the backslash but a newline.
  const value = s.replace(/\\[^\n]/g, (m) => {
    const c = quoteEscapes[m[1] ?? ''];
    if (c === undefined) bad ??= m;
    return c ?? '';
  });
  return bad === undefined ? { ok: true, value } : { ok: false, message: `invalid escape char ${bad}` };
}

/** ValidFieldPath: the steps of `jsonPath` and the schema it ends at, or upstream's reason it is not a field of `schema`. */
export function validFieldPath(jsonPath: string, schema: JSONSchemaProps, options: { allowArrayNotation?: boolean } = {}): FieldPathResult {
  const allowArrayNotation = options.allowArrayNotation ?? true;
  const steps: FieldPathStep[] = [];
  let s: JSONSchemaProps | undefined = schema;
  const notAField = { ok: false, message: 'does not refer to a valid field' } as const;
  // A node with properties is a struct, one with additionalProperties a map; a schema that is neither has no fields.
  const step = (name: string): boolean => {
    if (s?.properties !== undefined) {
      steps.push({ name, key: false });
      s = ownValue(s.properties, name);
      return s !== undefined;
    }
    if (s?.additionalProperties !== undefined) {
      steps.push({ name, key: true });
      s = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      return true;
    }
    return false;
  };
  const tokens = tokenize(jsonPath);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] ?? '';
    if (tok === '[') {
      if (!allowArrayNotation) return { ok: false, message: 'array notation is not allowed' };
      const quoted = tokens[++i];
      if (quoted === undefined) return { ok: false, message: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { ok: false, message: `expected single quoted string but got ${quoted}` };
      const name = unescapeSingleQuote(quoted.slice(1, -1));
      if (!name.ok) return { ok: false, message: `invalid string literal: ${name.message}` };
      if (!step(name.value)) return notAField;
      const close = tokens[++i];
      if (close === undefined) return { ok: false, message: 'unexpected end of JSON path' };
      if (close !== ']') return { ok: false, message: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) return { ok: false, message: 'unexpected end of JSON path' };
      if (!step(name)) return notAField;
    } else {
      return { ok: false, message: `expected [ or . but got: ${tok}` };
    }
  }
  return { ok: true, steps, schema: s };
}

/** field.Path's String(): `spec.labels[team]`. */
export function fieldPathString(steps: readonly FieldPathStep[]): string {
  let out = '';
  steps.forEach((st, i) => {
    if (st.key) out += `[${st.name}]`;
    else out += i > 0 ? `.${st.name}` : st.name;
  });
  return out;
}
