// One shell process of the `sh -c` subset (the main shell, a `&` job, a $(...) or a nested `sh -c`):
// a generator over the syntax tree that yields only when time must pass (shell-run.ts schedules it),
// with the control flow (lists, && ||, if, loops, set -e, traps between commands) and word expansion.
import { builtin } from './shell-builtins.ts';
import { Exit, ImpureScript, LoopControl, Return } from './shell-context.ts';
import type { Block, CommandHook, Gen, ShellContext, ShellFiles, ShellProcess, Stream, Trap, WritableFile } from './shell-context.ts';
import type { CommandOutput } from './shell-commands.ts';
import { arrayElement, arrayOf, arrayValues, copyArrays } from './shell-arrays.ts';
import type { ShellArray } from './shell-arrays.ts';
import { arith, splitFields } from './shell-expand.ts';
import { isSpecialBuiltin } from './shell-allowed.ts';
import { basename } from './shell-ast.ts';
import type { AndOr, Arith, Assignment, Command, List, Part, Redirect, Subscript, Word } from './shell-ast.ts';

const escapeRegExp = (s: string): string => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** An unquoted pattern's text as a regular expression: * ? and [...] (with ! or ^ negating) match. */
function globRegExp(text: string): string {
  let re = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[' && text.indexOf(']', i + 2) > i) {
      const end = text.indexOf(']', i + 2);
      const body = text.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      re += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else re += escapeRegExp(ch);
  }
  return re;
}

/** Where descriptors 1 and 2 go: the process's own stdout and stderr, nowhere (/dev/null), or a file. */
type Fd = Stream | null | WritableFile;
type Fds = { readonly 1: Fd; readonly 2: Fd };
const baseFds: Fds = { 1: 'stdout', 2: 'stderr' };

/** ash's errmsg(errno, "nonexistent directory"): a missing directory on the way in its own words. */
function createError(error: string): string {
  return error === 'No such file or directory' || error === 'Not a directory' ? 'nonexistent directory' : error;
}

/** What a process asks of the run it belongs to (ShellRun). */
export interface ShellHost {
  readonly ctx: ShellContext;
  /** Virtual time since the run started, in ms. */
  readonly now: number;
  /** Counts a command; true when this instant has run more than the busy cap. */
  tick(): boolean;
  write(text: string | Buffer, stream?: Stream): void;
  /** Writes `nvidia-smi -L`'s lines; its status. */
  gpuLines(): number;
  spawn(parent: Sh, andOr: AndOr): void;
  hasJobs(sh: Sh): boolean;
}

export class Sh implements ShellProcess {
  readonly run: ShellHost;
  /** Variables the script set (null: unset, hiding the environment's). */
  readonly vars: Map<string, string | null>;
  args: readonly string[];
  errexit: boolean;
  status = 0;
  trap: Trap = 'default';
  exitTrap: List | undefined;
  pendingTrap = false;
  exitCalled = false;
  /** How many loops enclose the running command (break and continue are bounded by it). */
  loops = 0;
  /** Functions the script defined (a child shell starts with copies). */
  readonly functions = new Map<string, Command>();
  /** Variables `export` put in the environment besides the container's own (a child shell starts with copies). */
  readonly exported = new Set<string>();
  /** bash's indexed arrays (a child shell starts with copies). */
  arrays = new Map<string, ShellArray>();
  /** Standard output collected by a $(...) or for the next command of a pipeline, instead of written. */
  capture: string | undefined;
  /** What is left of standard input when it is a pipe (the commands of a subshell read on from one another); undefined: not a pipe. */
  stdin: { text: string } | undefined;
  /** set -o pipefail: a pipeline's status is its last failing command's. */
  pipefail = false;
  /** The working directory `cd` changed to (absolute); undefined: the container's own, which the caller knows. */
  cwd: string | undefined;
  /** Where the process's descriptors 1 and 2 write: its standard output (or capture), its standard error, nowhere. */
  #fds: Fds = baseFds;
  #substStatus: number | undefined;

  constructor(run: ShellHost, vars: Map<string, string | null>, args: readonly string[], errexit: boolean) {
    this.run = run;
    this.vars = vars;
    this.args = args;
    this.errexit = errexit;
  }

  *main(program: List): Gen {
    yield* this.#guarded(this.list(program, false));
    const onExit = this.exitTrap;
    this.exitTrap = undefined;
    if (!onExit) return;
    // The shell exits with the status it had, unless the trap's own `exit` says otherwise.
    const status = this.status;
    try {
      yield* this.list(onExit, false);
      this.status = status;
    } catch (e) {
      if (e instanceof Exit) this.status = e.code;
      else if (!(e instanceof LoopControl)) throw e;
    }
  }

  *job(andOr: AndOr): Gen {
    yield* this.#guarded(this.andOr(andOr, false));
  }

  *#guarded(gen: Gen): Gen {
    try {
      yield* gen;
    } catch (e) {
      if (e instanceof Exit) {
        this.status = e.code;
        this.exitCalled = true;
      } else if (!(e instanceof LoopControl)) throw e;
    }
  }

  *list(list: List, cond: boolean): Gen {
    for (const item of list) {
      if (item.background) {
        this.run.spawn(this, item.andOr);
        this.status = 0;
      } else yield* this.andOr(item.andOr, cond);
    }
  }

  *andOr(a: AndOr, cond: boolean): Gen {
    const n = a.rest.length;
    yield* this.#pipeline(a.first.cmds, a.first.bang, cond || n > 0);
    let last = n === 0 && !a.first.bang;
    for (let i = 0; i < n; i++) {
      const { op, p } = a.rest[i] as (typeof a.rest)[number];
      if ((op === '&&') !== (this.status === 0)) continue;
      yield* this.#pipeline(p.cmds, p.bang, cond || i < n - 1);
      last = i === n - 1 && !p.bang;
    }
    // set -e: a failure exits unless it is tested (a condition, the left of && or ||, negated by !).
    if (this.errexit && !cond && last && this.status !== 0) throw new Exit(this.status);
  }

  *#pipeline(cmds: readonly [Command, ...Command[]], bang: boolean, cond: boolean): Gen {
    if (cmds.length === 1) yield* this.#command(cmds[0], cond || bang);
    else yield* this.#piped(cmds, cond || bang);
    if (bang) this.status = this.status === 0 ? 1 : 0;
  }

  /**
   * A | B | C: each command in a subshell, its standard output the next one's standard input. They run one
   * after another, not side by side: each reads what the one before wrote once that one ended (the
   * scripts of the subset write and end; a writer that never ends leaves the next waiting for ever).
   */
  *#piped(cmds: readonly Command[], cond: boolean): Gen {
    let input = this.stdin;
    let failed = 0;
    for (const [i, cmd] of cmds.entries()) {
      const last = i === cmds.length - 1;
      const child = this.#subshellOf();
      child.stdin = input;
      if (!last) {
        child.capture = '';
        // Standard error stays where it goes here; `2>&1` around the pipeline sends it to this shell's output, not the pipe.
        const err = this.#fds[2];
        child.#fds = { 1: 'stdout', 2: err === 'stdout' ? { write: (text) => this.write(text) } : err };
      }
      yield* child.#guarded(child.#command(cmd, cond));
      if (last && this.capture !== undefined) this.capture = child.capture;
      input = { text: last ? '' : (child.capture ?? '') };
      if (child.status !== 0) failed = child.status;
      this.status = child.status;
    }
    if (this.pipefail) this.status = failed;
  }

  /** A subshell's process: copies of the variables and functions, the same descriptors and output, traps reset. */
  #subshellOf(): Sh {
    const child = this.fork();
    child.capture = this.capture;
    child.#fds = this.#fds;
    child.stdin = this.stdin;
    // Traps are reset in a subshell; an ignored signal stays ignored.
    if (this.trap === 'ignore') child.trap = 'ignore';
    return child;
  }

  /** What is left of a piped standard input, read to its end; undefined when standard input is no pipe. */
  readStdin(): string | undefined {
    const stdin = this.stdin;
    if (!stdin) return undefined;
    const text = stdin.text;
    stdin.text = '';
    return text;
  }

  *#command(c: Command, cond: boolean): Gen {
    switch (c.k) {
      case 'simple':
        return yield* this.#simple(c.words, c.assigns, c.redirects);
      case 'group':
        return yield* this.list(c.body, cond);
      case 'subshell':
        return yield* this.#subshell(c.body, cond);
      case 'case': {
        const subject = this.#string(c.subject);
        const arm = c.arms.find((a) => a.patterns.some((p) => this.#matches(subject, p)));
        this.status = 0;
        if (arm) yield* this.list(arm.body, cond);
        return;
      }
      case 'function':
        this.functions.set(c.name, c.body);
        this.status = 0;
        return;
      case 'if':
        for (const arm of c.arms) {
          yield* this.list(arm.cond, true);
          if (this.status === 0) return yield* this.list(arm.body, cond);
        }
        if (c.otherwise) return yield* this.list(c.otherwise, cond);
        this.status = 0;
        return;
      case 'loop':
        return yield* this.#loop(c.body, cond, function* (sh) {
          yield* sh.list(c.cond, true);
          return (sh.status === 0) !== c.until;
        });
      case 'for': {
        const items = c.items ? this.#fields(c.items) : this.args.slice(1);
        let i = 0;
        return yield* this.#loop(c.body, cond, function* (sh) {
          if (i >= items.length) return false;
          sh.vars.set(c.name, items[i++] as string);
          return true;
        });
      }
      default: {
        const never: never = c;
        throw new Error(`unknown command ${String(never)}`);
      }
    }
  }

  /** ( LIST ): a child with copies of the variables and functions; its exit ends only it. */
  *#subshell(body: List, cond: boolean): Gen {
    const child = this.#subshellOf();
    yield* child.#guarded(child.list(body, cond));
    if (this.capture !== undefined) this.capture = child.capture;
    this.status = child.status;
  }

  /** A subshell environment: copies of the variables and functions (a subshell, $(...), a `&` job). */
  fork(): Sh {
    const child = new Sh(this.run, new Map(this.vars), this.args, this.errexit);
    for (const [name, fn] of this.functions) child.functions.set(name, fn);
    for (const name of this.exported) child.exported.add(name);
    child.arrays = copyArrays(this.arrays);
    child.pipefail = this.pipefail;
    child.cwd = this.cwd;
    return child;
  }

  /** Runs function `body` with argv as its positional parameters; `return N` ends it with N. */
  *call(body: Command, argv: readonly string[]): Gen {
    const args = this.args;
    this.args = [args[0] ?? 'sh', ...argv.slice(1)];
    try {
      yield* this.#command(body, false);
    } catch (e) {
      if (!(e instanceof Return)) throw e;
      this.status = e.code;
    } finally {
      this.args = args;
    }
  }

  /** Case pattern matching: unquoted * ? [...] are wildcards, quoted text and backslash-escaped characters literal. */
  #matches(subject: string, pattern: Word): boolean {
    let re = '';
    for (const p of pattern) {
      const text = this.#part(p);
      re += p.quoted ? escapeRegExp(text) : globRegExp(text);
    }
    return new RegExp(`^${re}$`, 's').test(subject);
  }

  *#loop(body: List, cond: boolean, more: (sh: Sh) => Generator<Block, boolean, boolean>): Gen {
    let last = 0;
    this.loops++;
    try {
      while (yield* more(this)) {
        try {
          yield* this.list(body, cond);
        } catch (e) {
          if (!(e instanceof LoopControl)) throw e;
          if (e.levels > 1) {
            e.levels--;
            throw e;
          }
          if (e.brk) break;
        } finally {
          last = this.status;
        }
      }
    } finally {
      this.loops--;
    }
    this.status = last;
  }

  *#simple(words: readonly Word[], assigns: readonly Assignment[], redirects: readonly Redirect[]): Gen {
    if (this.run.tick()) yield* this.#spin();
    this.#substStatus = undefined;
    const argv = this.#fields(words);
    const fds = this.#fds;
    const opened = this.#redirected(redirects);
    if (!opened) {
      // A redirection that fails fails the command; for a special built-in it ends the shell (ash: status 1).
      if (argv[0] !== undefined && isSpecialBuiltin(basename(argv[0]))) throw new Exit(1);
      this.status = 1;
      return yield* this.#trapCheck();
    }
    if (argv.length === 0) {
      for (const a of assigns) this.#assign(a);
      this.status = this.#substStatus ?? 0;
      return;
    }
    this.#fds = opened;
    // `exec` with no command makes its redirections the shell's own from then on.
    const permanent = argv.length === 1 && argv[0] === 'exec';
    try {
      yield* builtin(this, argv);
    } finally {
      if (!permanent) this.#fds = fds;
    }
    yield* this.#trapCheck();
  }

  /** NAME=value, or bash's NAME=(WORD...); a plain value given to an array is its element 0, as in bash. */
  #assign(a: Assignment): void {
    const array = this.arrays.get(a.name);
    if (a.array) this.arrays.set(a.name, arrayOf(this.#fields(a.array)));
    else if (array) array.set(0, this.#string(a.value));
    else this.vars.set(a.name, this.#string(a.value));
  }

  /**
   * The descriptors after a command's redirections, left to right (`2>&1` copies where 1 goes now; a
   * file is opened, created or truncated, as it is reached); undefined when one cannot be opened, ash's
   * message written where descriptor 2 goes by then.
   */
  #redirected(redirects: readonly Redirect[]): Fds | undefined {
    const before = this.#fds;
    let out = before;
    for (const r of redirects) {
      if (!('file' in r)) {
        out = { ...out, [r.fd]: r.to === null ? null : out[r.to] };
        continue;
      }
      const path = this.#string(r.file);
      const file = path === '/dev/null' ? null : this.files().create(path, r.append);
      if (file !== null && 'error' in file) {
        this.#fds = out;
        this.write(`sh: can't create ${path}: ${createError(file.error)}\n`, 'stderr');
        this.#fds = before;
        return undefined;
      }
      out = { ...out, [r.fd]: file };
    }
    return out;
  }

  *#spin(): Generator<Block, never, boolean> {
    for (;;) {
      yield 'spin';
      yield* this.#trapCheck();
    }
  }

  *#trapCheck(): Gen {
    if (!this.pendingTrap) return;
    this.pendingTrap = false;
    const trap = this.trap;
    if (typeof trap !== 'object') return;
    const status = this.status;
    yield* this.list(trap.action, false);
    this.status = status;
  }

  write(text: string | Buffer, stream: Stream = 'stdout'): void {
    const to = this.#fds[stream === 'stdout' ? 1 : 2];
    if (text.length === 0 || to === null) return;
    if (typeof to === 'object') to.write(text, this.clockMs);
    else if (to === 'stderr') this.run.write(text, to);
    else if (this.capture !== undefined) this.capture += text.toString();
    else this.run.write(text);
  }

  /** A computed command's output written and its status taken. */
  done(out: CommandOutput): void {
    this.write(out.out);
    if (out.err) this.write(out.err, 'stderr');
    this.status = out.status;
  }

  /** A command of the caller's: its output, or its nested script run in a child shell. */
  *hooked(hook: CommandHook): Gen {
    if ('writes' in hook) {
      for (const w of hook.writes) this.write(w.text, w.stream);
      this.status = hook.status;
      return;
    }
    const child = new Sh(this.run, new Map(this.vars), hook.args, this.errexit);
    child.cwd = this.cwd;
    for (const name of this.exported) child.exported.add(name);
    child.capture = this.capture;
    child.#fds = this.#fds;
    child.stdin = this.stdin;
    yield* child.#guarded(child.list(hook.script, false));
    if (this.capture !== undefined) this.capture = child.capture;
    this.status = child.status;
  }

  /** The process's time on the cluster clock (epoch ms). */
  get clockMs(): number {
    return this.run.ctx.startedAt + this.run.now;
  }

  /** The container's files, a relative path taken from where `cd` went; a pure evaluation (or a caller that does not answer them) does not know them. */
  files(): ShellFiles {
    const files = this.run.ctx.files;
    if (!files) throw new ImpureScript('files');
    const cwd = this.cwd;
    if (cwd === undefined) return files;
    const at = (path: string): string => (path.startsWith('/') ? path : `${cwd === '/' ? '' : cwd}/${path}`);
    return { live: files.live, create: (path, append) => files.create(at(path), append), open: (path) => files.open(at(path)), directory: (path) => files.directory(at(path)) };
  }

  /**
   * The process's environment (what env prints): the container's, as the script changed or unset those
   * variables, then those it exported; a pure evaluation does not know it.
   */
  environment(): [name: string, value: string][] {
    const env = this.run.ctx.env;
    if (env === undefined) throw new ImpureScript('env');
    const out: [string, string][] = [];
    for (const [name, value] of Object.entries(env)) {
      const own = this.vars.get(name);
      if (own !== null) out.push([name, own ?? value]);
    }
    for (const name of this.exported) {
      const own = this.vars.get(name);
      if (!Object.hasOwn(env, name) && own !== undefined && own !== null) out.push([name, own]);
    }
    return out;
  }

  /** An environment variable; a pure evaluation does not know the environment. */
  env(name: string): string | undefined {
    const env = this.run.ctx.env;
    if (env === undefined) throw new ImpureScript(name);
    return env[name];
  }

  /** A parameter's value; undefined when unset. */
  #param(name: string): string | undefined {
    if (name === '?') return String(this.status);
    if (name === '#') return String(Math.max(0, this.args.length - 1));
    if (name === '$') return this.run.ctx.pid1 ? '1' : '7';
    if (name === '@' || name === '*') return this.args.slice(1).join(' ');
    if (/^\d$/.test(name)) return this.args[Number(name)];
    const array = this.arrays.get(name);
    if (array) return array.get(0);
    const v = this.vars.get(name);
    if (v !== undefined) return v ?? undefined;
    return this.env(name);
  }

  /** ${NAME[i]}'s value (a scalar is an array of one), or ${NAME[@]}'s values. */
  #indexed(name: string, index: Subscript): string | string[] | undefined {
    const scalar = this.#param(name);
    const array = this.arrays.get(name) ?? new Map(scalar === undefined ? [] : [[0, scalar]]);
    return index === '@' || index === '*' ? arrayValues(array) : arrayElement(array, this.#arith(index));
  }

  #expandParam(p: Extract<Part, { k: 'param' }>): string {
    const value = p.index === undefined ? this.#param(p.name) : this.#indexed(p.name, p.index);
    if (p.op === '#' && Array.isArray(value)) return String(value.length);
    const v = Array.isArray(value) ? (value.length === 0 ? undefined : value.join(' ')) : value;
    const arg = (): string => this.#string(p.arg ?? []);
    switch (p.op) {
      case undefined:
        return v ?? '';
      case '#':
        return String((v ?? '').length);
      case '-':
        return v === undefined ? arg() : v;
      case ':-':
        return v === undefined || v === '' ? arg() : v;
      case '=':
      case ':=': {
        if (v !== undefined && (p.op === '=' || v !== '')) return v;
        const value = arg();
        this.vars.set(p.name, value);
        return value;
      }
      case '+':
        return v === undefined ? '' : arg();
      case ':+':
        return v === undefined || v === '' ? '' : arg();
      default: {
        const never: never = p.op;
        return String(never);
      }
    }
  }

  /** A part's text. */
  #part(p: Part): string {
    switch (p.k) {
      case 'lit':
        return p.text;
      case 'param':
        return this.#expandParam(p);
      case 'arith':
        return String(this.#arith(p.expr));
      case 'subst':
        return this.#substitute(p.body);
      default: {
        const never: never = p;
        return String(never);
      }
    }
  }

  /** A word expanded without field splitting (assignments, ${X:-word}). */
  #string(w: Word): string {
    let s = '';
    for (const p of w) s += this.#part(p);
    return s;
  }

  /** Words expanded and field-split; "$@" and "${NAME[@]}" are a field each of their values. */
  #fields(words: readonly Word[]): string[] {
    return splitFields(words, (p) => {
      if (p.k !== 'param' || !p.quoted || p.op !== undefined) return this.#part(p);
      if (p.index === '@') return this.#indexed(p.name, '@') as string[];
      return p.name === '@' && p.index === undefined ? this.args.slice(1) : this.#part(p);
    });
  }

  #substitute(body: List): string {
    const sub = this.fork();
    sub.status = this.status;
    sub.capture = '';
    const gen = sub.#guarded(sub.list(body, false));
    // The subset lets only commands that print at once into $(...); a spin ends the substitution there.
    if (!gen.next(false).done) gen.return(undefined);
    this.#substStatus = sub.status;
    return sub.capture.replace(/\n+$/, '');
  }

  #arith(e: Arith): number {
    return arith(e, { get: (name) => this.#param(name), set: (name, v) => this.vars.set(name, v), fail: (m) => this.#fail(m) });
  }

  /** An expansion error: a non-interactive shell prints it and exits 2. */
  #fail(message: string): never {
    this.write(`sh: ${message}\n`, 'stderr');
    throw new Exit(2);
  }
}
