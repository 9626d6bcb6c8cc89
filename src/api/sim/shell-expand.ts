// Word expansion helpers of the `sh -c` subset (shell-run.ts runs them): field splitting and $((...)).
// Upstream: POSIX.1-2024 XCU 2.6.5 (Field Splitting, IFS unset: space, tab, newline) and 2.6.4 (Arithmetic
// Expansion: C's signed integer rules, so / and % truncate toward zero).
import { OutsideSubset } from './shell-ast.ts';
import type { Arith, Part, Word } from './shell-ast.ts';

/**
 * Words expanded and field-split: unquoted expansions split on blanks, quoted ones and literals never. A
 * part whose text is a list ("$@", "${NAME[@]}") is that many fields, the first and last joined to what
 * is before and after it in its word; an empty list adds no field.
 */
export function splitFields(words: readonly Word[], partText: (p: Part) => string | readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    let cur = '';
    let have = false;
    for (const p of w) {
      const text = partText(p);
      if (typeof text !== 'string') {
        text.forEach((field, i) => {
          if (i > 0) out.push(cur);
          cur = i === 0 ? cur + field : field;
          have = true;
        });
        continue;
      }
      if (p.quoted || p.k === 'lit') {
        cur += text;
        have ||= p.quoted || text !== '';
        continue;
      }
      for (const ch of text) {
        if (ch === ' ' || ch === '\t' || ch === '\n') {
          if (have) out.push(cur);
          cur = '';
          have = false;
        } else {
          cur += ch;
          have = true;
        }
      }
    }
    if (have) out.push(cur);
  }
  return out;
}

/** What arithmetic reads and writes of the shell; `fail` reports an error and does not return. */
export interface ArithScope {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  fail(message: string): never;
}

/** Evaluates $((...)); an unset or empty variable is 0, a non-numeric one an error. */
export function arith(e: Arith, scope: ArithScope): number {
  switch (e.k) {
    case 'num':
      return e.v;
    case 'var': {
      const v = scope.get(e.name) ?? '';
      if (v.trim() === '') return 0;
      if (!/^\s*[-+]?\d+\s*$/.test(v)) return scope.fail('arithmetic syntax error');
      return Number(v);
    }
    case 'un': {
      const a = arith(e.a, scope);
      return e.op === '-' ? -a : e.op === '!' ? Number(a === 0) : e.op === '~' ? ~a : a;
    }
    case 'set': {
      const b = arith(e.b, scope);
      const v = e.op === '' ? b : arithBinary(e.op, arith({ k: 'var', name: e.name }, scope), b, scope.fail);
      scope.set(e.name, String(v));
      return v;
    }
    case 'bin': {
      const a = arith(e.a, scope);
      if (e.op === '&&') return Number(a !== 0 && arith(e.b, scope) !== 0);
      if (e.op === '||') return Number(a !== 0 || arith(e.b, scope) !== 0);
      return arithBinary(e.op, a, arith(e.b, scope), scope.fail);
    }
    default: {
      const never: never = e;
      return Number(never);
    }
  }
}

function arithBinary(op: string, a: number, b: number, fail: (m: string) => never): number {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/':
    case '%':
      if (b === 0) return fail('divide by zero');
      return op === '/' ? Math.trunc(a / b) : a % b;
    case '<': return Number(a < b);
    case '<=': return Number(a <= b);
    case '>': return Number(a > b);
    case '>=': return Number(a >= b);
    case '==': return Number(a === b);
    case '!=': return Number(a !== b);
    case '&': return a & b;
    case '|': return a | b;
    case '^': return a ^ b;
    case '<<': return a << b;
    case '>>': return a >> b;
    default: throw new OutsideSubset(`arithmetic operator ${op}`);
  }
}
