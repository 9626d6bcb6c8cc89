// The syntax of the `sh -c` subset a simulated container's command is run in (shell-run.ts runs it):
// POSIX quoting (' " \), parameters ($NAME ${NAME} ${NAME:-word} ${#NAME} $? $# $$ $0-$9 $@ $*),
// $((arithmetic)), $(command) and `command` substitution, `;` `&` `&&` `||` `!` and newlines,
// NAME=value assignments, while/until/for/if/{ } compound commands, comments, redirections of a simple
// command's output (>/dev/null, 2>&1, >&2, > FILE, >> FILE), case ... esac, ( ... ) subshells, NAME() { ...; }
// functions; `cat FILE`, `ls [-aA1lR] [PATH]`, `pwd`, `cd [DIR]` (shell-cd.ts), `id`, `touch FILE`, `rm [-f] FILE` and `nslookup HOST` where the kubelet answers them
// (containerCommands), and `tail [-fF] [-n N] FILE` over the files the kubelet gives the shell; pipelines
// `A | B` into the filters of shell-text.ts (rev, grep, wc, head, sort, tr), cat and tail; and, when the
// shell is bash, indexed arrays (NAME=(WORD...), ${NAME[i]}, ${NAME[@]}, ${#NAME[@]}; shell-arrays.ts).
// Everything else (file name globs, reading redirections, a command reading the container's own standard
// input, commands not simulated) is outside the subset: parseScript throws, so the caller falls back to
// the behaviour model's default as for any other command. Its message is ash's where ash has one
// (`unexpected "("` for an array in sh, `bad substitution`), for kubectl exec to print.
// Upstream: POSIX.1-2024 XCU 2 (Shell Command Language), checked against dash and busybox ash
// (shell/ash.c: raise_error_unexpected_syntax, tokname); bash 5.2's manual for arrays.
// Here the grammar; the tree is shell-ast.ts, tokens and words shell-lexer.ts, $((...)) shell-arith-syntax.ts,
// and which commands and arguments the subset takes shell-allowed.ts.
import { checkCommand, scriptCommands, specialBuiltins, substCommands, waitingCommands } from './shell-allowed.ts';
import { literal, OutsideSubset, usesCommand } from './shell-ast.ts';
import type { AndOr, Assignment, Command, Dialect, Item, List, Pipeline, Redirect, Word } from './shell-ast.ts';
import { Lexer, nameRe, tokenName } from './shell-lexer.ts';
import type { Token } from './shell-lexer.ts';

const reserved = new Set(['while', 'until', 'for', 'if', 'then', 'elif', 'else', 'fi', 'do', 'done', '{', '}', '!', 'in', 'case', 'esac', 'function', 'select']);

/**
 * Parses a script; throws OutsideSubset. `open`: any command name passes (kubectl exec runs its own
 * commands and reports the ones it does not simulate when they run).
 */
export function parseScript(text: string, open = false, dialect: Dialect = 'sh'): List {
  const p = new Parser(text, false, 0, open, new Set(), dialect);
  const list = p.list(new Set());
  const end = p.next();
  if (end.t !== 'eof') throw new OutsideSubset(`unexpected ${end.t === 'op' ? end.v : 'word'}`);
  return list;
}

/** A command line given as argv (no shell): one simple command of literal words. */
export function argvCommand(argv: readonly string[], allowed: ReadonlySet<string> | undefined): List {
  const words = argv.map((a): Word => [{ k: 'lit', text: a, quoted: true }]);
  if (allowed) checkCommand(words, allowed, checkScript);
  return [{ andOr: { first: { bang: false, cmds: [{ k: 'simple', assigns: [], words, redirects: [] }] }, rest: [] }, background: false }];
}

function checkScript(script: string): void {
  parseScript(script);
}

class Parser extends Lexer {
  readonly #inSubst: boolean;
  readonly #open: boolean;
  /** Functions defined so far: commands the script may run. */
  readonly #functions: Set<string>;
  /** Parsing a pipeline's second command or a later one, whose standard input is the pipe. */
  #piped = false;
  constructor(s: string, inSubst: boolean, pos = 0, open = false, functions = new Set<string>(), dialect: Dialect = 'sh') {
    super(s, pos, dialect);
    this.#inSubst = inSubst;
    this.#open = open;
    this.#functions = functions;
  }

  protected subParser(text: string, pos: number): Parser {
    return new Parser(text, true, pos, this.#open, this.#functions, this.dialect);
  }

  #isReserved(tok: Token, word: string): boolean {
    return tok.t === 'word' && tok.raw === word;
  }

  /** Items until EOF, `)` or a reserved word in `stop` at the start of a command. */
  list(stop: ReadonlySet<string>): List {
    const items: Item[] = [];
    for (;;) {
      this.#skipNewlines();
      const tok = this.peek();
      if (tok.t === 'eof' || (tok.t === 'op' && (tok.v === ')' || tok.v === ';;')) || (tok.t === 'word' && tok.raw !== undefined && stop.has(tok.raw))) return items;
      const andOr = this.#andOr();
      const sep = this.peek();
      let background = false;
      if (sep.t === 'op' && (sep.v === ';' || sep.v === '&' || sep.v === '\n')) {
        this.next();
        background = sep.v === '&';
      } else if (!(sep.t === 'eof' || (sep.t === 'op' && (sep.v === ')' || sep.v === ';;')) || (sep.t === 'word' && sep.raw !== undefined && stop.has(sep.raw)))) {
        throw new OutsideSubset(`unexpected ${tokenName(sep)}`);
      }
      if (background && this.#inSubst) throw new OutsideSubset('a background job in a command substitution');
      items.push({ andOr, background });
    }
  }

  #skipNewlines(): void {
    for (let tok = this.peek(); tok.t === 'op' && tok.v === '\n'; tok = this.peek()) this.next();
  }

  #andOr(): AndOr {
    const first = this.#pipeline();
    const rest: { op: '&&' | '||'; p: Pipeline }[] = [];
    for (let tok = this.peek(); tok.t === 'op' && (tok.v === '&&' || tok.v === '||'); tok = this.peek()) {
      this.next();
      this.#skipNewlines();
      rest.push({ op: tok.v as '&&' | '||', p: this.#pipeline() });
    }
    return { first, rest };
  }

  #pipeline(): Pipeline {
    let bang = false;
    if (this.#isReserved(this.peek(), '!')) {
      this.next();
      bang = true;
    }
    const piped = this.#piped;
    try {
      const cmds: [Command, ...Command[]] = [this.#command()];
      for (let tok = this.peek(); tok.t === 'op' && tok.v === '|'; tok = this.peek()) {
        // The commands of a pipe run one after another: a writer that waits would hold its reader back, and one that never ends would starve it.
        if (usesCommand(asList(cmds.at(-1) as Command), waitingCommands)) throw new OutsideSubset('a pipe from a command that waits (sleep, wait, tail) is not simulated');
        this.next();
        this.#skipNewlines();
        this.#piped = true;
        cmds.push(this.#command());
      }
      return { bang, cmds };
    } finally {
      this.#piped = piped;
    }
  }

  #expect(word: string): void {
    this.#skipNewlines();
    if (!this.#isReserved(this.next(), word)) throw new OutsideSubset(`expected ${word}`);
  }

  #command(): Command {
    const tok = this.peek();
    if (tok.t === 'op' && tok.v === '(') {
      this.next();
      const body = this.#nonEmpty(this.list(new Set()));
      this.#expectOp(')');
      return { k: 'subshell', body };
    }
    if (tok.t === 'op') throw new OutsideSubset(`unexpected ${tok.v}`);
    const raw = tok.t === 'word' ? tok.raw : undefined;
    // `NAME=(` is an assignment, never a function: bash's array, or ash's `unexpected "("`.
    const fn = raw !== undefined && !reserved.has(raw) && !raw.includes('=') ? this.#functionDefinition(raw) : undefined;
    if (fn) return fn;
    switch (raw) {
      case 'case':
        return this.#case();
      case 'while':
      case 'until': {
        this.next();
        const cond = this.#nonEmpty(this.list(new Set(['do'])));
        this.#expect('do');
        const body = this.#nonEmpty(this.list(new Set(['done'])));
        this.#expect('done');
        return { k: 'loop', until: raw === 'until', cond, body };
      }
      case 'for':
        return this.#for();
      case 'if':
        return this.#if();
      case '{': {
        this.next();
        const body = this.#nonEmpty(this.list(new Set(['}'])));
        this.#expect('}');
        return { k: 'group', body };
      }
      default:
        if (raw !== undefined && reserved.has(raw)) throw new OutsideSubset(`${raw}: not in the subset here`);
        return this.#simple();
    }
  }

  #expectOp(op: string): void {
    const tok = this.next();
    if (tok.t !== 'op' || tok.v !== op) throw new OutsideSubset(`expected ${op}`);
  }

  /** `NAME() COMMAND`: the name is then a command the script may run (from its definition on). */
  #functionDefinition(name: string): Command | undefined {
    const at = this.pos;
    this.next();
    const open = this.peek();
    if (open.t !== 'op' || open.v !== '(') {
      this.pos = at;
      return undefined;
    }
    this.next();
    this.#expectOp(')');
    if (nameRe.exec(name)?.[0] !== name || specialBuiltins.has(name)) throw new OutsideSubset(`${name}: not a function name`);
    this.#functions.add(name);
    this.#skipNewlines();
    const body = this.#command();
    if (body.k === 'simple' || body.k === 'function') throw new OutsideSubset('a function body that is not a compound command');
    return { k: 'function', name, body };
  }

  /** case WORD in [(]PATTERN[|PATTERN]...) LIST ;; ... esac */
  #case(): Command {
    this.next();
    const subjectTok = this.next();
    if (subjectTok.t !== 'word') throw new OutsideSubset('case: expected a word');
    this.#expect('in');
    const arms: { patterns: Word[]; body: List }[] = [];
    for (;;) {
      const patterns = this.#patterns();
      if (!patterns) return { k: 'case', subject: subjectTok.w, arms };
      const body = this.list(new Set(['esac']));
      const end = this.peek();
      if (end.t === 'op' && end.v === ';;') this.next();
      else if (!this.#isReserved(end, 'esac')) throw new OutsideSubset('case: expected ;; or esac');
      arms.push({ patterns, body });
    }
  }

  /**
   * An arm's `[(]PATTERN[|PATTERN]...)`, or undefined at `esac` (consumed). A pattern's unquoted * ? and
   * [...] match; they are no file name globs here.
   */
  #patterns(): Word[] | undefined {
    this.inPattern = true;
    try {
      this.#skipNewlines();
      if (this.#isReserved(this.peek(), 'esac')) {
        this.next();
        return undefined;
      }
      const first = this.peek();
      if (first.t === 'op' && first.v === '(') this.next();
      const patterns: Word[] = [];
      for (let sep: Token = { t: 'op', v: '|' }; !(sep.t === 'op' && sep.v === ')'); sep = this.next()) {
        if (sep.t !== 'op' || sep.v !== '|') throw new OutsideSubset('case: expected | or )');
        const tok = this.next();
        if (tok.t !== 'word') throw new OutsideSubset('case: expected a pattern');
        patterns.push(tok.w);
      }
      return patterns;
    } finally {
      this.inPattern = false;
    }
  }

  #nonEmpty(list: List): List {
    if (list.length === 0) throw new OutsideSubset('an empty command list');
    return list;
  }

  #for(): Command {
    this.next();
    const nameTok = this.next();
    const name = nameTok.t === 'word' ? nameTok.raw : undefined;
    if (name === undefined || nameRe.exec(name)?.[0] !== name) throw new OutsideSubset('for: not a name');
    let items: Word[] | undefined;
    this.#skipNewlines();
    if (this.#isReserved(this.peek(), 'in')) {
      this.next();
      items = [];
      for (let tok = this.next(); ; tok = this.next()) {
        if (tok.t === 'op' && (tok.v === ';' || tok.v === '\n')) break;
        if (tok.t !== 'word') throw new OutsideSubset('for: unexpected token');
        items.push(tok.w);
      }
    } else {
      const semi = this.peek();
      if (semi.t === 'op' && semi.v === ';') this.next();
    }
    this.#expect('do');
    const body = this.#nonEmpty(this.list(new Set(['done'])));
    this.#expect('done');
    return { k: 'for', name, items, body };
  }

  #if(): Command {
    this.next();
    const arms: { cond: List; body: List }[] = [];
    let otherwise: List | undefined;
    for (;;) {
      const cond = this.#nonEmpty(this.list(new Set(['then'])));
      this.#expect('then');
      const body = this.#nonEmpty(this.list(new Set(['elif', 'else', 'fi'])));
      arms.push({ cond, body });
      const tok = this.next();
      if (this.#isReserved(tok, 'elif')) continue;
      if (this.#isReserved(tok, 'else')) {
        otherwise = this.#nonEmpty(this.list(new Set(['fi'])));
        this.#expect('fi');
      } else if (!this.#isReserved(tok, 'fi')) throw new OutsideSubset('expected fi');
      return { k: 'if', arms, otherwise };
    }
  }

  #simple(): Command {
    const assigns: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let tok = this.peek(); tok.t === 'word' || tok.t === 'redir'; tok = this.peek()) {
      this.next();
      if (tok.t === 'redir') {
        const r = this.#redirect(tok.fd, tok.op);
        if (r) redirects.push(r);
        continue;
      }
      const m = words.length === 0 ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(tok.raw ?? rawPrefix(tok.w)) : null;
      if (m?.[1] && this.dialect === 'bash' && tok.raw === m[0] && this.s[this.pos] === '(') assigns.push({ name: m[1], value: [], array: this.#arrayWords() });
      else if (m?.[1]) assigns.push({ name: m[1], value: dropPrefix(tok.w, m[0].length) });
      else words.push(tok.w);
    }
    if (assigns.length === 0 && words.length === 0 && redirects.length === 0) throw new OutsideSubset('an empty command');
    const name = words[0] && literal(words[0]);
    if (!this.#open && (name === undefined || !this.#functions.has(name))) checkCommand(words, this.#inSubst ? substCommands : scriptCommands, checkScript, this.#piped);
    return { k: 'simple', assigns, words, redirects };
  }

  /** bash's `NAME=(WORD...)`, at its `(`: words over any number of lines, up to `)`. */
  #arrayWords(): Word[] {
    this.pos++;
    const words: Word[] = [];
    for (let tok = this.next(); !(tok.t === 'op' && tok.v === ')'); tok = this.next()) {
      if (tok.t === 'word') words.push(tok.w);
      else if (!(tok.t === 'op' && tok.v === '\n')) throw new OutsideSubset(`unexpected ${tokenName(tok)}`);
    }
    return words;
  }

  /**
   * A redirection that moves output between the two streams or drops it; undefined for one that changes
   * nothing the subset writes (standard input, other descriptors). Writing or reading any real file is
   * outside the subset.
   */
  #redirect(fd: number, op: string): Redirect | undefined {
    const target = this.next();
    if (target.t !== 'word') throw new OutsideSubset('a redirection without a target');
    const to = literal(target.w);
    const out = fd === 1 || fd === 2 ? fd : undefined;
    if ((op === '>&' || op === '<&') && to !== undefined && /^[012]$/.test(to)) return op === '>&' && out && (to === '1' || to === '2') ? { fd: out, to: to === '1' ? 1 : 2 } : undefined;
    if (to === '/dev/null') return op !== '<' && out ? { fd: out, to: null } : undefined;
    if (out && (op === '>' || op === '>>' || op === '>|')) return { fd: out, file: target.w, append: op === '>>' };
    throw new OutsideSubset('reading redirections and other descriptors are not simulated');
  }
}

/** The unquoted literal text a word starts with (for NAME=value with a quoted or expanded value). */
function rawPrefix(w: Word): string {
  const first = w[0];
  return first?.k === 'lit' && !first.quoted ? first.text : '';
}

function dropPrefix(w: Word, n: number): Word {
  const [first, ...rest] = w;
  if (!first || first.k !== 'lit') return w;
  const text = first.text.slice(n);
  return text === '' ? (rest.length === 0 ? [{ k: 'lit', text: '', quoted: true }] : rest) : [{ ...first, text }, ...rest];
}

function asList(cmd: Command): List {
  return [{ andOr: { first: { bang: false, cmds: [cmd] }, rest: [] }, background: false }];
}
