// The tokens of the `sh -c` subset: operators, redirection operators and words, with a word's quoting,
// parameters, $((...)) and command substitutions (read by a sub-parser, shell-syntax.ts).
// Upstream: POSIX.1-2024 XCU 2.2-2.3 (Quoting, Token Recognition), 2.6 (Word Expansions), checked
// against busybox ash (shell/ash.c: readtoken1, parsesub).
import { ArithParser } from './shell-arith-syntax.ts';
import { OutsideSubset } from './shell-ast.ts';
import type { Dialect, List, ParamOp, Part, Subscript, Word } from './shell-ast.ts';

export type Token = { t: 'op'; v: string } | { t: 'word'; w: Word; raw: string | undefined } | { t: 'redir'; fd: number; op: string } | { t: 'eof' };

export const nameRe = /^[A-Za-z_][A-Za-z0-9_]*/;

/** What a command substitution's text is read with: the script's parser, from `pos` on. */
export interface SubParser {
  pos: number;
  list(stop: ReadonlySet<string>): List;
  next(): Token;
}

export abstract class Lexer {
  protected readonly s: string;
  protected readonly dialect: Dialect;
  /** Reading a case arm's pattern, whose * and ? match rather than glob. */
  protected inPattern = false;
  pos: number;
  constructor(s: string, pos: number, dialect: Dialect) {
    this.s = s;
    this.pos = pos;
    this.dialect = dialect;
  }

  /** A parser of the same script for a $(...) or `...` body in `text`, from `pos` on. */
  protected abstract subParser(text: string, pos: number): SubParser;

  peek(): Token {
    const at = this.pos;
    const tok = this.next();
    this.pos = at;
    return tok;
  }

  /** The next token; words are read here (they need a parser for $(...)). */
  next(): Token {
    const s = this.s;
    for (;;) {
      const ch = s[this.pos];
      if (ch === ' ' || ch === '\t') this.pos++;
      else if (ch === '\\' && s[this.pos + 1] === '\n') this.pos += 2;
      else if (ch === '#') {
        while (this.pos < s.length && s[this.pos] !== '\n') this.pos++;
      } else break;
    }
    if (this.pos >= s.length) return { t: 'eof' };
    const rest = s.slice(this.pos, this.pos + 3);
    const redir = /^(\d?)(>>|>&|<&|>\||>|<)/.exec(s.slice(this.pos, this.pos + 4));
    if (redir) {
      this.pos += redir[0].length;
      const op = redir[2] as string;
      return { t: 'redir', fd: redir[1] ? Number(redir[1]) : op.startsWith('<') ? 0 : 1, op };
    }
    for (const op of ['&&', '||', ';;', ';', '&', '|', '\n', '(', ')']) {
      if (rest.startsWith(op)) {
        this.pos += op.length;
        return { t: 'op', v: op };
      }
    }
    return this.#word();
  }

  #word(): Token {
    const parts: Part[] = [];
    let raw: string | undefined = '';
    const s = this.s;
    const lit = (text: string, quoted: boolean): void => {
      const last = parts.at(-1);
      if (last?.k === 'lit' && last.quoted === quoted) parts[parts.length - 1] = { k: 'lit', text: last.text + text, quoted };
      else parts.push({ k: 'lit', text, quoted });
    };
    while (this.pos < s.length) {
      const ch = s[this.pos] as string;
      if (' \t\n;&|<>()'.includes(ch)) break;
      if (ch === "'") {
        const end = s.indexOf("'", this.pos + 1);
        if (end < 0) throw new OutsideSubset('unterminated quoted string');
        lit(s.slice(this.pos + 1, end), true);
        this.pos = end + 1;
        raw = undefined;
      } else if (ch === '"') {
        this.pos++;
        this.#doubleQuoted(parts, lit);
        raw = undefined;
      } else if (ch === '\\') {
        const next = s[this.pos + 1];
        this.pos += 2;
        if (next !== '\n' && next !== undefined) lit(next, true);
        raw = undefined;
      } else if (ch === '$' || ch === '`') {
        parts.push(this.#expansion(false) ?? { k: 'lit', text: '$', quoted: false });
        raw = undefined;
      } else {
        if ((ch === '*' || ch === '?') && !this.inPattern) throw new OutsideSubset('globs are not simulated');
        lit(ch, false);
        if (raw !== undefined) raw += ch;
        this.pos++;
      }
    }
    return { t: 'word', w: parts, raw };
  }

  #doubleQuoted(parts: Part[], lit: (text: string, quoted: boolean) => void): void {
    const s = this.s;
    for (;;) {
      const ch = s[this.pos];
      if (ch === undefined) throw new OutsideSubset('unterminated quoted string');
      if (ch === '"') {
        this.pos++;
        if (parts.length === 0) lit('', true);
        return;
      }
      if (ch === '\\' && '$`"\\\n'.includes(s[this.pos + 1] ?? 'x')) {
        if (s[this.pos + 1] !== '\n') lit(s[this.pos + 1] as string, true);
        this.pos += 2;
      } else if (ch === '$' || ch === '`') {
        parts.push(this.#expansion(true) ?? { k: 'lit', text: '$', quoted: true });
      } else {
        lit(ch, true);
        this.pos++;
      }
    }
  }

  /** At `$` or a backquote; undefined for a `$` that is just a dollar sign (it is consumed). */
  #expansion(quoted: boolean): Part | undefined {
    const s = this.s;
    if (s[this.pos] === '`') return this.#backquoted(quoted);
    const next = s[this.pos + 1] ?? '';
    if (s.startsWith('$((', this.pos)) {
      this.pos += 3;
      const expr = new ArithParser(s, this.pos);
      const node = expr.parse();
      this.pos = expr.pos;
      if (!s.startsWith('))', this.pos)) throw new OutsideSubset('arithmetic: expected ))');
      this.pos += 2;
      return { k: 'arith', expr: node, quoted };
    }
    if (next === '(') {
      const sub = this.subParser(s, this.pos + 2);
      const body = sub.list(new Set());
      const close = sub.next();
      if (close.t !== 'op' || close.v !== ')') throw new OutsideSubset('command substitution: expected )');
      this.pos = sub.pos;
      return { k: 'subst', body, quoted };
    }
    if (next === '{') return this.#braced(quoted);
    const name = nameRe.exec(s.slice(this.pos + 1))?.[0] ?? (/[?#$@*0-9]/.test(next) ? next : undefined);
    if (name === undefined) {
      if (next === '!' || next === '-') throw new OutsideSubset(`$${next}`);
      this.pos++;
      return undefined;
    }
    this.pos += 1 + name.length;
    return { k: 'param', name, quoted };
  }

  #backquoted(quoted: boolean): Part {
    const s = this.s;
    let inner = '';
    let i = this.pos + 1;
    for (; i < s.length && s[i] !== '`'; i++) {
      if (s[i] === '\\' && '$`\\'.includes(s[i + 1] ?? 'x')) i++;
      inner += s[i];
    }
    if (i >= s.length) throw new OutsideSubset('unterminated `');
    this.pos = i + 1;
    const sub = this.subParser(inner, 0);
    const body = sub.list(new Set());
    if (sub.next().t !== 'eof') throw new OutsideSubset('command substitution: unexpected token');
    return { k: 'subst', body, quoted };
  }

  #braced(quoted: boolean): Part {
    const s = this.s;
    this.pos += 2;
    const length = s[this.pos] === '#' && s[this.pos + 1] !== '}';
    if (length) this.pos++;
    const name = nameRe.exec(s.slice(this.pos))?.[0] ?? (/[?#$0-9]/.test(s[this.pos] ?? '') ? s[this.pos] : undefined);
    if (name === undefined) throw new OutsideSubset('bad substitution');
    this.pos += name.length;
    const index = this.#subscript(name);
    const sub = index === undefined ? {} : { index };
    if (length || s[this.pos] === '}') {
      if (s[this.pos] !== '}') throw new OutsideSubset('bad substitution');
      this.pos++;
      return length ? { k: 'param', name, quoted, op: '#', ...sub } : { k: 'param', name, quoted, ...sub };
    }
    const op = /^(:?[-=+])/.exec(s.slice(this.pos))?.[1] as ParamOp | undefined;
    if (!op) throw new OutsideSubset('parameter expansion other than ${NAME:-word}');
    this.pos += op.length;
    const arg: Part[] = [];
    while (s[this.pos] !== '}') {
      const ch = s[this.pos];
      if (ch === undefined) throw new OutsideSubset('bad substitution');
      if (ch === '$' || ch === '`') arg.push(this.#expansion(quoted) ?? { k: 'lit', text: '$', quoted });
      else if (ch === "'" && !quoted) {
        const end = s.indexOf("'", this.pos + 1);
        if (end < 0) throw new OutsideSubset('unterminated quoted string');
        arg.push({ k: 'lit', text: s.slice(this.pos + 1, end), quoted: true });
        this.pos = end + 1;
      } else if (ch === '"') {
        this.pos++;
        this.#doubleQuoted(arg, (text, q) => arg.push({ k: 'lit', text, quoted: q }));
      } else {
        arg.push({ k: 'lit', text: ch === '\\' ? (s[++this.pos] ?? '') : ch, quoted: quoted || ch === '\\' });
        this.pos++;
      }
    }
    this.pos++;
    return { k: 'param', name, quoted, op, arg, ...sub };
  }

  /** bash's `[i]`, `[@]` or `[*]` after a name in ${...}; ash has no arrays: a bad substitution. */
  #subscript(name: string): Subscript | undefined {
    const s = this.s;
    if (s[this.pos] !== '[') return undefined;
    if (this.dialect !== 'bash' || !nameRe.test(name)) throw new OutsideSubset('bad substitution');
    const all = /^\[([@*])\]/.exec(s.slice(this.pos))?.[1];
    if (all === '@' || all === '*') {
      this.pos += 3;
      return all;
    }
    const expr = new ArithParser(s, this.pos + 1);
    const index = expr.parse();
    expr.skipBlanks();
    if (s[expr.pos] !== ']') throw new OutsideSubset('bad array subscript');
    this.pos = expr.pos + 1;
    return index;
  }
}

/** A token as ash's syntax errors name it (tokname): `unexpected "("`, `unexpected newline`. */
export function tokenName(tok: Token): string {
  if (tok.t === 'eof') return 'end of file';
  if (tok.t === 'redir') return 'redirection';
  if (tok.t === 'word') return 'word';
  return tok.v === '\n' ? 'newline' : `"${tok.v}"`;
}
