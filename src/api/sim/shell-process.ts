// One shell process of the `sh -c` subset (the main shell, a `&` job, a $(...) or a nested `sh -c`):
// a generator over the syntax tree that yields only when time must pass (shell-run.ts schedules it),
// with the control flow (lists, && ||, if, loops, set -e, traps between commands) and word expansion.
import { builtin } from './shell-builtins.ts';
import { Exit, ImpureScript, LoopControl } from './shell-context.ts';
import type { Block, CommandHook, Gen, ShellContext, ShellProcess, Stream, Trap } from './shell-context.ts';
import type { CommandOutput } from './shell-commands.ts';
import { arith, splitFields } from './shell-expand.ts';
import type { AndOr, Arith, Assignment, Command, List, Part, Word } from './shell-syntax.ts';

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
  /** Standard output collected by a $(...), instead of written. */
  capture: string | undefined;
  #quiet = 0;
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
    yield* this.#pipeline(a.first.cmd, a.first.bang, cond || n > 0);
    let last = n === 0 && !a.first.bang;
    for (let i = 0; i < n; i++) {
      const { op, p } = a.rest[i] as (typeof a.rest)[number];
      if ((op === '&&') !== (this.status === 0)) continue;
      yield* this.#pipeline(p.cmd, p.bang, cond || i < n - 1);
      last = i === n - 1 && !p.bang;
    }
    // set -e: a failure exits unless it is tested (a condition, the left of && or ||, negated by !).
    if (this.errexit && !cond && last && this.status !== 0) throw new Exit(this.status);
  }

  *#pipeline(cmd: Command, bang: boolean, cond: boolean): Gen {
    yield* this.#command(cmd, cond || bang);
    if (bang) this.status = this.status === 0 ? 1 : 0;
  }

  *#command(c: Command, cond: boolean): Gen {
    switch (c.k) {
      case 'simple':
        return yield* this.#simple(c.words, c.assigns, c.quiet);
      case 'group':
        return yield* this.list(c.body, cond);
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

  *#simple(words: readonly Word[], assigns: readonly Assignment[], quiet: boolean): Gen {
    if (this.run.tick()) yield* this.#spin();
    this.#substStatus = undefined;
    const argv = this.#fields(words);
    if (argv.length === 0) {
      for (const a of assigns) this.vars.set(a.name, this.#string(a.value));
      this.status = this.#substStatus ?? 0;
      return;
    }
    if (quiet) this.#quiet++;
    try {
      yield* builtin(this, argv);
    } finally {
      if (quiet) this.#quiet--;
    }
    yield* this.#trapCheck();
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
    if (text.length === 0) return;
    if (stream === 'stderr') this.run.write(text, stream);
    else if (this.capture !== undefined) this.capture += text.toString();
    else if (this.#quiet === 0) this.run.write(text);
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
    child.capture = this.capture;
    child.#quiet = this.#quiet;
    yield* child.#guarded(child.list(hook.script, false));
    if (this.capture !== undefined) this.capture = child.capture;
    this.status = child.status;
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
    const v = this.vars.get(name);
    if (v !== undefined) return v ?? undefined;
    return this.env(name);
  }

  #expandParam(p: Extract<Part, { k: 'param' }>): string {
    const v = this.#param(p.name);
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

  /** Words expanded and field-split. */
  #fields(words: readonly Word[]): string[] {
    return splitFields(words, (p) => this.#part(p));
  }

  #substitute(body: List): string {
    const sub = new Sh(this.run, new Map(this.vars), this.args, this.errexit);
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
