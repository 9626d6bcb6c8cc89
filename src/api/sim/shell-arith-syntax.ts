// The $((...)) grammar of the `sh -c` subset (shell-expand.ts evaluates the tree).
// Upstream: POSIX.1-2024 XCU 2.6.4 (Arithmetic Expansion), ISO C's operators and precedence.
import type { Arith } from './shell-ast.ts';
import { OutsideSubset } from './shell-ast.ts';

const binaryPrecedence: Record<string, number> = { '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '<=': 7, '>': 7, '>=': 7, '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10 };
const binaryOps = Object.keys(binaryPrecedence).sort((a, b) => b.length - a.length);

/** $((...)): integers, variables (with or without $), unary - + ! ~, the C binary operators, = and op=. */
export class ArithParser {
  readonly #s: string;
  pos: number;
  constructor(s: string, pos: number) {
    this.#s = s;
    this.pos = pos;
  }

  parse(): Arith {
    return this.#binary(1);
  }

  skipBlanks(): void {
    this.#ws();
  }

  #ws(): void {
    while (/[ \t\n]/.test(this.#s[this.pos] ?? '')) this.pos++;
  }

  #binary(min: number): Arith {
    let a = this.#unary();
    for (;;) {
      this.#ws();
      if (this.#s.startsWith('))', this.pos)) return a;
      const op = binaryOps.find((o) => this.#s.startsWith(o, this.pos));
      const prec = op === undefined ? 0 : (binaryPrecedence[op] ?? 0);
      if (op === undefined || prec < min) return a;
      this.pos += op.length;
      a = { k: 'bin', op, a, b: this.#binary(prec + 1) };
    }
  }

  #unary(): Arith {
    this.#ws();
    const s = this.#s;
    const ch = s[this.pos] ?? '';
    if ('-+!~'.includes(ch) && ch !== '' && s[this.pos + 1] !== ch) {
      this.pos++;
      return { k: 'un', op: ch, a: this.#unary() };
    }
    if (ch === '(') {
      this.pos++;
      const inner = this.#binary(1);
      this.#ws();
      if (s[this.pos] !== ')') throw new OutsideSubset('arithmetic: expected )');
      this.pos++;
      return inner;
    }
    const num = /^(0[xX][0-9a-fA-F]+|\d+)/.exec(s.slice(this.pos))?.[0];
    if (num) {
      this.pos += num.length;
      return { k: 'num', v: num.length > 1 && num.startsWith('0') && !/[xX]/.test(num) ? parseInt(num, 8) : Number(num) };
    }
    const ref = /^\$?\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(s.slice(this.pos));
    if (!ref?.[1]) throw new OutsideSubset('arithmetic: unexpected text');
    this.pos += ref[0].length;
    const name = ref[1];
    this.#ws();
    const assign = /^([-+*/%]?=)(?!=)/.exec(s.slice(this.pos))?.[1];
    if (assign && !ref[0].startsWith('$')) {
      this.pos += assign.length;
      return { k: 'set', name, op: assign.slice(0, -1), b: this.#binary(1) };
    }
    return { k: 'var', name };
  }
}
