// The syntax of the `sh -c` subset a simulated container's command is run in (shell-run.ts runs it):
// POSIX quoting (' " \), parameters ($NAME ${NAME} ${NAME:-word} ${#NAME} $? $# $$ $0-$9 $@ $*),
// $((arithmetic)), $(command) and `command` substitution, `;` `&` `&&` `||` `!` and newlines,
// NAME=value assignments, while/until/for/if/{ } compound commands, comments, redirections of a simple
// command's output (>/dev/null, 2>&1, >&2, > FILE, >> FILE), case ... esac, ( ... ) subshells, NAME() { ...; }
// functions; `cat FILE`, `ls [-aA1] [PATH]`, `pwd`, `id`, `touch FILE`, `rm [-f] FILE` and `nslookup HOST` where the kubelet answers them
// (containerCommands), and `tail [-fF] [-n N] FILE` over the files the kubelet gives the shell; pipelines
// `A | B` into the filters of shell-text.ts (rev, grep, wc, head, sort, tr), cat and tail; and, when the
// shell is bash, indexed arrays (NAME=(WORD...), ${NAME[i]}, ${NAME[@]}, ${#NAME[@]}; shell-arrays.ts).
// Everything else (file name globs, reading redirections, a command reading the container's own standard
// input, commands not simulated) is outside the subset: parseScript throws, so the caller falls back to
// the behaviour model's default as for any other command. Its message is ash's where ash has one
// (`unexpected "("` for an array in sh, `bad substitution`), for kubectl exec to print.
// Upstream: POSIX.1-2024 XCU 2 (Shell Command Language), checked against dash and busybox ash
// (shell/ash.c: raise_error_unexpected_syntax, tokname); bash 5.2's manual for arrays.
import { isIP } from 'node:net';
import { date, sleepMs, testsFiles } from './shell-commands.ts';
import { pipedTail, tailOptions } from './shell-tail.ts';
import { textCommandRefusal, textCommands } from './shell-text.ts';

/**
 * A word is the parts it was written in; `quoted` parts are not field-split. Example: `"$i: $(date)"x`
 * is [param i (quoted), lit ': ' (quoted), subst date (quoted), lit 'x'].
 */
export type Word = readonly Part[];
export type Part =
  | { readonly k: 'lit'; readonly text: string; readonly quoted: boolean }
  | { readonly k: 'param'; readonly name: string; readonly quoted: boolean; readonly op?: ParamOp; readonly arg?: Word; readonly index?: Subscript }
  | { readonly k: 'arith'; readonly expr: Arith; readonly quoted: boolean }
  | { readonly k: 'subst'; readonly body: List; readonly quoted: boolean };
/** ${NAME-word} and friends; `#` is ${#NAME}, the length. */
/** bash's ${NAME[i]} (i arithmetic; negative counts from the end), ${NAME[@]} and ${NAME[*]}. */
export type Subscript = Arith | '@' | '*';
export type ParamOp = '-' | ':-' | '=' | ':=' | '+' | ':+' | '#';

export type Arith =
  | { readonly k: 'num'; readonly v: number }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'un'; readonly op: string; readonly a: Arith }
  | { readonly k: 'bin'; readonly op: string; readonly a: Arith; readonly b: Arith }
  | { readonly k: 'set'; readonly name: string; readonly op: string; readonly b: Arith };

export interface Assignment {
  readonly name: string;
  readonly value: Word;
  /** bash's NAME=(WORD...): the words, expanded and split, are the array's elements from 0. */
  readonly array?: readonly Word[];
}
export type Command =
  | { readonly k: 'simple'; readonly assigns: readonly Assignment[]; readonly words: readonly Word[]; readonly redirects: readonly Redirect[] }
  | { readonly k: 'loop'; readonly until: boolean; readonly cond: List; readonly body: List }
  | { readonly k: 'for'; readonly name: string; readonly items: readonly Word[] | undefined; readonly body: List }
  | { readonly k: 'if'; readonly arms: readonly { readonly cond: List; readonly body: List }[]; readonly otherwise: List | undefined }
  | { readonly k: 'group'; readonly body: List }
  | { readonly k: 'subshell'; readonly body: List }
  | { readonly k: 'case'; readonly subject: Word; readonly arms: readonly { readonly patterns: readonly Word[]; readonly body: List }[] }
  | { readonly k: 'function'; readonly name: string; readonly body: Command };
/**
 * `N>/dev/null` (to: null), `N>&M`, or `N> FILE` / `N>> FILE` (file: the word, expanded when the command
 * runs), applied left to right: `>/dev/null 2>&1` drops both streams, `>>log 2>&1` appends both to log.
 */
export type Redirect = { readonly fd: 1 | 2; readonly to: 1 | 2 | null } | { readonly fd: 1 | 2; readonly file: Word; readonly append: boolean };
/** `[!] A | B | C`: each command's standard output is the next one's standard input; the status is the last's. */
export interface Pipeline {
  readonly bang: boolean;
  readonly cmds: readonly [Command, ...Command[]];
}
export interface AndOr {
  readonly first: Pipeline;
  readonly rest: readonly { readonly op: '&&' | '||'; readonly p: Pipeline }[];
}
export interface Item {
  readonly andOr: AndOr;
  readonly background: boolean;
}
export type List = readonly Item[];

/** Thrown for anything outside the subset (and for syntax errors, which a real shell would report). */
export class OutsideSubset extends Error {}

/**
 * Commands that read or write the container's files or ask the cluster (cat, touch, rm, nslookup): the kubelet answers them
 * (ShellContext.command) for a running container; a script using one is never evaluated ahead.
 */
export const containerCommands: ReadonlySet<string> = new Set(['cat', 'ls', 'pwd', 'id', 'nslookup', 'touch', 'rm']);
const testCommands = new Set(['test', '[', '[[']);
/** Whether the kubelet answers `argv`: a container command, or a test that asks about files. */
export function asksContainer(argv: readonly string[]): boolean {
  const name = basename(argv[0] ?? '');
  return containerCommands.has(name) || (testCommands.has(name) && testsFiles(argv.slice(1)));
}
/** Commands the subset runs; in $(...) only those that print at once. */
export const scriptCommands = new Set([':', 'true', 'false', 'echo', 'printf', 'sleep', 'exit', 'trap', 'wait', 'nvidia-smi', '[', '[[', 'test', 'env', 'printenv', 'break', 'continue', 'export', 'unset', 'date', 'hostname', 'seq', 'expr', 'set', 'exec', 'return', 'tail', ...containerCommands, ...textCommands]);
const substCommands = new Set([':', 'true', 'false', 'echo', 'printf', 'date', 'hostname', 'seq', 'expr', 'test', '[', '[[', 'env', 'printenv', ...containerCommands, ...textCommands]);
/** Special built-ins: found before functions, so no function may take their names. */
const specialBuiltins = new Set([':', 'break', 'continue', 'exit', 'export', 'return', 'set', 'trap', 'unset', 'exec', 'wait', '.', 'eval', 'readonly', 'shift', 'times']);
/** Whether a redirection error ends the shell, as for a special built-in (XCU 2.8.1), rather than failing the command. */
export function isSpecialBuiltin(name: string): boolean {
  return specialBuiltins.has(name);
}
const reserved = new Set(['while', 'until', 'for', 'if', 'then', 'elif', 'else', 'fi', 'do', 'done', '{', '}', '!', 'in', 'case', 'esac', 'function', 'select']);
const nameRe = /^[A-Za-z_][A-Za-z0-9_]*/;

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

type Token = { t: 'op'; v: string } | { t: 'word'; w: Word; raw: string | undefined } | { t: 'redir'; fd: number; op: string } | { t: 'eof' };

/** Which shell reads the script: busybox ash (sh, ash, dash) or bash, whose arrays ash refuses. */
export type Dialect = 'sh' | 'bash';

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
  if (allowed) checkCommand(words, allowed);
  return [{ andOr: { first: { bang: false, cmds: [{ k: 'simple', assigns: [], words, redirects: [] }] }, rest: [] }, background: false }];
}

/** The literal text of a word with no expansions, else undefined. */
export function literal(w: Word): string | undefined {
  let s = '';
  for (const part of w) {
    if (part.k !== 'lit') return undefined;
    s += part.text;
  }
  return s;
}

function checkCommand(words: readonly Word[], allowed: ReadonlySet<string>, piped = false): void {
  const first = words[0];
  if (!first) return;
  const name = literal(first);
  if (name === undefined) throw new OutsideSubset('a command name that is expanded');
  if (!allowed.has(basename(name))) throw new OutsideSubset(`${name}: not simulated`);
  checkArgs(basename(name), words.slice(1), piped);
}

/**
 * Literal arguments a command would take outside the subset (it would read files, print its state, trace).
 * `piped`: the command reads a pipe, not the container's standard input, when it reads its standard input.
 */
function checkArgs(name: string, words: readonly Word[], piped: boolean): void {
  const args = words.map(literal);
  const known = args.every((a) => a !== undefined) ? (args as string[]) : undefined;
  const outside = (why: string): never => {
    throw new OutsideSubset(`${name}: ${why}`);
  };
  switch (name) {
    case 'trap': {
      const action = args[0];
      if (action === undefined || args.length < 2) outside('an action and signals are needed');
      else if (action !== '-' && action !== '') parseScript(action);
      return;
    }
    case 'wait':
      if (args.length > 0) outside('waiting for one job');
      return;
    case 'env':
      if (args.length > 0) outside('running a command');
      return;
    case 'nvidia-smi':
      if (!known || known.length !== 1 || (known[0] !== '-L' && known[0] !== '--list-gpus')) outside('only -L');
      return;
    case 'test':
    case '[':
    case '[[':
      if (args.some((a) => a === '-a' || a === '-o')) outside('-a and -o');
      return;
    case 'date':
      if (known && date(known, 0) === undefined) outside('an option outside the subset');
      return;
    case 'sleep':
      if (known && sleepMs(known) === undefined) outside('not a duration');
      return;
    case 'set':
      if (args.length === 0 || args.some((a) => a === undefined || /^[-+][a-z]*[xvn]/.test(a))) outside('tracing or listing');
      return;
    case 'exec':
      checkCommand(words, scriptCommands);
      return;
    case 'cat':
      // The container's standard input (no operand, `-`) and options are outside, as is anything but reading whole files.
      if (piped ? args.some((a) => a !== undefined && a.startsWith('-') && a !== '-') : args.length === 0 || args.some((a) => a !== undefined && a.startsWith('-'))) outside('standard input or an option');
      return;
    case 'tail':
      if (piped && known !== undefined && pipedTail(known)) return;
      if (known === undefined || 'error' in tailOptions(known)) outside('options outside -f, -F, -n, -c, -s, or not one file');
      return;
    case 'rev':
    case 'grep':
    case 'wc':
    case 'head':
    case 'sort':
    case 'tr': {
      const why = known && textCommandRefusal(name, known, piped);
      if (why) outside(why);
      return;
    }
    case 'ls':
      if (args.some((a) => a !== undefined && /^-.*[^aA1-]/.test(a))) outside('options outside -a, -A and -1');
      return;
    case 'nslookup':
      if (args.length === 0 || args.length > 2 || args.some((a) => a !== undefined && (a.startsWith('-') || isIP(a) !== 0))) outside('options, a reverse lookup');
      return;
    default:
  }
}

class Parser {
  readonly #s: string;
  readonly #inSubst: boolean;
  readonly #open: boolean;
  /** Functions defined so far: commands the script may run. */
  readonly #functions: Set<string>;
  readonly #dialect: Dialect;
  #inPattern = false;
  /** Parsing a pipeline's second command or a later one, whose standard input is the pipe. */
  #piped = false;
  pos = 0;
  constructor(s: string, inSubst: boolean, pos = 0, open = false, functions = new Set<string>(), dialect: Dialect = 'sh') {
    this.#s = s;
    this.#inSubst = inSubst;
    this.pos = pos;
    this.#open = open;
    this.#functions = functions;
    this.#dialect = dialect;
  }

  peek(): Token {
    const at = this.pos;
    const tok = this.next();
    this.pos = at;
    return tok;
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
    this.#inPattern = true;
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
      this.#inPattern = false;
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
      if (m?.[1] && this.#dialect === 'bash' && tok.raw === m[0] && this.#s[this.pos] === '(') assigns.push({ name: m[1], value: [], array: this.#arrayWords() });
      else if (m?.[1]) assigns.push({ name: m[1], value: dropPrefix(tok.w, m[0].length) });
      else words.push(tok.w);
    }
    if (assigns.length === 0 && words.length === 0 && redirects.length === 0) throw new OutsideSubset('an empty command');
    const name = words[0] && literal(words[0]);
    if (!this.#open && (name === undefined || !this.#functions.has(name))) checkCommand(words, this.#inSubst ? substCommands : scriptCommands, this.#piped);
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

  /** The next token; words are read here (they need the parser for $(...)). */
  next(): Token {
    const s = this.#s;
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
    const s = this.#s;
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
        if ((ch === '*' || ch === '?') && !this.#inPattern) throw new OutsideSubset('globs are not simulated');
        lit(ch, false);
        if (raw !== undefined) raw += ch;
        this.pos++;
      }
    }
    return { t: 'word', w: parts, raw };
  }

  #doubleQuoted(parts: Part[], lit: (text: string, quoted: boolean) => void): void {
    const s = this.#s;
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
    const s = this.#s;
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
      const sub = new Parser(s, true, this.pos + 2, this.#open, this.#functions, this.#dialect);
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
    const s = this.#s;
    let inner = '';
    let i = this.pos + 1;
    for (; i < s.length && s[i] !== '`'; i++) {
      if (s[i] === '\\' && '$`\\'.includes(s[i + 1] ?? 'x')) i++;
      inner += s[i];
    }
    if (i >= s.length) throw new OutsideSubset('unterminated `');
    this.pos = i + 1;
    const sub = new Parser(inner, true, 0, this.#open, this.#functions, this.#dialect);
    const body = sub.list(new Set());
    if (sub.next().t !== 'eof') throw new OutsideSubset('command substitution: unexpected token');
    return { k: 'subst', body, quoted };
  }

  #braced(quoted: boolean): Part {
    const s = this.#s;
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
    const s = this.#s;
    if (s[this.pos] !== '[') return undefined;
    if (this.#dialect !== 'bash' || !nameRe.test(name)) throw new OutsideSubset('bad substitution');
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
function tokenName(tok: Token): string {
  if (tok.t === 'eof') return 'end of file';
  if (tok.t === 'redir') return 'redirection';
  if (tok.t === 'word') return 'word';
  return tok.v === '\n' ? 'newline' : `"${tok.v}"`;
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

const binaryPrecedence: Record<string, number> = { '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6, '<': 7, '<=': 7, '>': 7, '>=': 7, '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10 };
const binaryOps = Object.keys(binaryPrecedence).sort((a, b) => b.length - a.length);

/** $((...)): integers, variables (with or without $), unary - + ! ~, the C binary operators, = and op=. */
class ArithParser {
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

const waitingCommands: ReadonlySet<string> = new Set(['sleep', 'wait', 'tail']);

function asList(cmd: Command): List {
  return [{ andOr: { first: { bang: false, cmds: [cmd] }, rest: [] }, background: false }];
}

/** Whether the script may run one of `names` (a command word, after `exec`, or in a $(...)), to ready what it reads. */
export function usesCommand(list: List, names: ReadonlySet<string>): boolean {
  const inWord = (w: Word): boolean => w.some((p) => (p.k === 'subst' && usesCommand(p.body, names)) || (p.k === 'param' && p.arg !== undefined && inWord(p.arg)));
  const inCommand = (c: Command): boolean => {
    switch (c.k) {
      case 'simple': {
        const [first, second] = c.words.map(literal);
        const name = first === 'exec' ? second : first;
        return (name !== undefined && names.has(basename(name))) || c.words.some(inWord) || c.assigns.some((a) => inWord(a.value) || (a.array ?? []).some(inWord));
      }
      case 'loop':
        return usesCommand(c.cond, names) || usesCommand(c.body, names);
      case 'for':
        return (c.items ?? []).some(inWord) || usesCommand(c.body, names);
      case 'if':
        return c.arms.some((a) => usesCommand(a.cond, names) || usesCommand(a.body, names)) || (c.otherwise !== undefined && usesCommand(c.otherwise, names));
      case 'group':
      case 'subshell':
        return usesCommand(c.body, names);
      case 'case':
        return inWord(c.subject) || c.arms.some((a) => usesCommand(a.body, names));
      case 'function':
        return inCommand(c.body);
      default: {
        const never: never = c;
        return Boolean(never);
      }
    }
  };
  return list.some(({ andOr }) => andOr.first.cmds.some(inCommand) || andOr.rest.some((r) => r.p.cmds.some(inCommand)));
}
