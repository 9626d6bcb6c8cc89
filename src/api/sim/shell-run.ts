// Runs a parsed script of the `sh -c` subset (shell-syntax.ts) on virtual time, lazily: the caller
// asks for everything due up to a time (runUntil) and learns when the script next has something to do
// (nextAt), so `while true; do echo ...; sleep 1; done` costs one timer per sleep and nothing ahead.
//
// Each process (the main shell, each `&` job) is a generator over the syntax tree that yields only
// when time must pass: a sleep, a `wait` for its jobs, or a spin. A script that runs more than
// busyCommandCap commands without time passing (`while true; do :; done`) is taken to spin there
// for ever, as a real busy loop would, printing nothing more: this caps the work one instant of a
// simulated container can cost. SIGTERM follows the kernel and the shell: a PID 1 with no trap never
// gets it, any other process dies of it (143); a trap runs once the foreground command ends, or at
// once in `wait` (which then returns 128+15) or in a spin.
import { date, echo, expr, printf, seq, sleepMs, test } from './shell-commands.ts';
import { arith, splitFields } from './shell-expand.ts';
import { basename, literal, parseScript } from './shell-syntax.ts';
import type { AndOr, Arith, Assignment, Command, List, Part, Word } from './shell-syntax.ts';

/** Commands one instant may run before the script counts as spinning. */
export const busyCommandCap = 10_000;

export type Block = { readonly sleep: number | null } | 'wait' | 'spin';
/** Resumed with true when SIGTERM interrupts the block (wait, spin). */
type Gen = Generator<Block, void, boolean>;

/** Thrown when a script read what a pure evaluation does not know (ShellContext.env undefined), or ran past maxOps. */
export class ImpureScript extends Error {}

export interface ShellContext {
  /** The container's environment; undefined for a pure evaluation, which throws ImpureScript where it matters. */
  env: Readonly<Record<string, string>> | undefined;
  /** The lines `nvidia-smi -L` prints; undefined when the kubelet cannot tell. */
  gpuList: readonly string[] | undefined;
  pid1: boolean;
  /** When the process started (epoch ms), for `date`. */
  startedAt: number;
  /** $0, $1, ... */
  args: readonly string[];
  errexit: boolean;
  maxOps?: number;
  /** A session's variables and $? (kubectl exec -i sh): the run reads and updates them. */
  vars?: Map<string, string | null>;
  status?: number;
  /** Commands of the caller's own (kubectl exec's cat, ls, env, ...), asked before the built-in ones. */
  command?: (argv: readonly string[]) => CommandHook | undefined;
}

/** A hooked command's output and status, or a nested `sh -c` script to run in a child shell. */
export type CommandHook = { writes: readonly { stream: Stream; text: string | Buffer }[]; status: number } | { script: List; args: readonly string[] };
export type Stream = 'stdout' | 'stderr';

export interface ShellSink {
  /** A whole line of output, either stream (a container's log). */
  line(atMs: number, text: string): void;
  /** Raw output by stream instead of lines (kubectl exec). */
  write?(atMs: number, stream: Stream, text: string | Buffer): void;
  /** A pure evaluation's `nvidia-smi -L`: the kubelet puts the container's GPUs in its place. */
  gpuList?(atMs: number): void;
}

/** A trap's action; `exit` is set when the action is just `exit` (null: with the current status) or `exit N`. */
export type Trap = 'default' | 'ignore' | { readonly action: List; readonly exit: number | null | undefined };

/** What the evaluation ahead reads of the main shell when it blocks. */
export interface ShellProcess {
  readonly trap: Trap;
  readonly exitTrap: List | undefined;
  readonly status: number;
}

class Exit {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}
class LoopControl {
  levels: number;
  readonly brk: boolean;
  constructor(levels: number, brk: boolean) {
    this.levels = levels;
    this.brk = brk;
  }
}

interface Task {
  readonly sh: Sh;
  readonly gen: Gen;
  wakeAt: number | null;
  block: 'run' | 'sleep' | 'wait' | 'spin' | 'forever';
  readonly parent: Sh | undefined;
}

const trapCache = new Map<string, Trap>();
const termNames = new Set(['TERM', 'SIGTERM', '15']);
const exitNames = new Set(['EXIT', '0']);
const otherSignals = new Set(['HUP', 'INT', 'QUIT', 'USR1', 'USR2', 'PIPE', 'ALRM', 'CHLD', 'WINCH', '1', '2', '3', '10', '12', '13', '14', '17', '28']);

function parseTrap(text: string): Trap {
  const cached = trapCache.get(text);
  if (cached) return cached;
  const action = parseScript(text);
  const cmd = action.length === 1 && !action[0]?.background && action[0]?.andOr.rest.length === 0 ? action[0].andOr.first : undefined;
  const words = cmd && !cmd.bang && cmd.cmd.k === 'simple' && cmd.cmd.assigns.length === 0 ? cmd.cmd.words.map(literal) : [];
  const exit = words[0] === 'exit' && words.length <= 2 && (words.length === 1 || /^\d+$/.test(words[1] ?? '')) ? (words.length === 1 ? null : Number(words[1]) & 255) : undefined;
  const trap: Trap = { action, exit };
  if (trapCache.size > 256) trapCache.clear();
  trapCache.set(text, trap);
  return trap;
}

export class ShellRun {
  /** Virtual time since the process started, in ms. */
  now = 0;
  readonly ctx: ShellContext;
  /** Set once the main shell has exited. */
  exit: { code: number; atMs: number } | undefined;
  /** Told each time the main shell blocks (the pure evaluation notes how SIGTERM is answered from then on). */
  onBlock: ((block: Task['block'], ms: number | null, sh: ShellProcess) => void) | undefined;
  readonly #out: ShellSink;
  readonly #tasks: Task[] = [];
  #ops = 0;
  #opsAt = 0;
  #totalOps = 0;
  #partial = '';

  constructor(program: List, ctx: ShellContext, out: ShellSink) {
    this.ctx = ctx;
    this.#out = out;
    const sh = new Sh(this, ctx.vars ?? new Map(), ctx.args, ctx.errexit);
    sh.status = ctx.status ?? 0;
    this.#tasks.push({ sh, gen: sh.main(program), wakeAt: 0, block: 'run', parent: undefined });
  }

  /** When the script next does something (ms since start); null: never by itself. */
  get nextAt(): number | null {
    let at: number | null = null;
    for (const t of this.#tasks) if (t.wakeAt !== null && (at === null || t.wakeAt < at)) at = t.wakeAt;
    return at;
  }

  /** Runs everything due up to `ms` since start; the script's time is then `ms` (a signal comes at that time). */
  runUntil(ms: number): void {
    while (!this.exit) {
      let next: Task | undefined;
      for (const t of this.#tasks) if (t.wakeAt !== null && (next?.wakeAt == null || t.wakeAt < next.wakeAt)) next = t;
      if (next?.wakeAt == null || next.wakeAt > ms) break;
      this.now = Math.max(this.now, next.wakeAt);
      this.#resume(next, false);
    }
    if (!this.exit && Number.isFinite(ms)) this.now = Math.max(this.now, ms);
  }

  /** SIGTERM now (after runUntil(now)). */
  sigterm(): void {
    const main = this.#tasks[0];
    if (this.exit || !main) return;
    const trap = main.sh.trap;
    if (trap === 'ignore') return;
    if (trap === 'default') {
      if (!this.ctx.pid1) this.#exited(143);
      return;
    }
    main.sh.pendingTrap = true;
    if (main.block === 'wait' || main.block === 'spin') this.#resume(main, true);
    this.runUntil(this.now);
  }

  /** Counts a command; true when this instant has run more than the busy cap. */
  tick(): boolean {
    if (this.ctx.maxOps !== undefined && ++this.#totalOps > this.ctx.maxOps) throw new ImpureScript('too long to evaluate ahead');
    if (this.#opsAt !== this.now) {
      this.#opsAt = this.now;
      this.#ops = 0;
    }
    return ++this.#ops > busyCommandCap;
  }

  /** The main shell's $? (its exit code once it exited). */
  get status(): number {
    return this.exit?.code ?? this.#tasks[0]?.sh.status ?? 0;
  }

  /** Whether the main shell ended by running `exit` (an interactive session ends). */
  get exitCalled(): boolean {
    return this.#tasks[0]?.sh.exitCalled ?? false;
  }

  write(text: string | Buffer, stream: Stream = 'stdout'): void {
    if (this.#out.write) return this.#out.write(this.now, stream, text);
    const all = this.#partial + text.toString();
    let start = 0;
    for (let nl = all.indexOf('\n'); nl >= 0; nl = all.indexOf('\n', start)) {
      this.#out.line(this.now, all.slice(start, nl));
      start = nl + 1;
    }
    this.#partial = all.slice(start);
  }

  gpuLines(): number {
    const { env, gpuList } = this.ctx;
    if (env === undefined) {
      this.#out.gpuList?.(this.now);
      return 0;
    }
    if (gpuList === undefined) return 0;
    if (gpuList.length === 0) {
      this.write('No devices were found\n');
      return 6;
    }
    this.write(gpuList.map((l) => `${l}\n`).join(''));
    return 0;
  }

  spawn(parent: Sh, andOr: AndOr): void {
    const sh = new Sh(this, new Map(parent.vars), parent.args, parent.errexit);
    this.#tasks.push({ sh, gen: sh.job(andOr), wakeAt: this.now, block: 'run', parent });
  }

  hasJobs(sh: Sh): boolean {
    return this.#tasks.some((t) => t.parent === sh);
  }

  #resume(t: Task, interrupted: boolean): void {
    t.wakeAt = null;
    t.block = 'run';
    const r = t.gen.next(interrupted);
    if (r.done) return this.#ended(t);
    const b = r.value;
    if (b === 'wait') {
      if (this.hasJobs(t.sh)) t.block = 'wait';
      else t.wakeAt = this.now;
    } else if (b === 'spin') t.block = 'spin';
    else if (b.sleep === null) t.block = 'forever';
    else {
      t.block = 'sleep';
      t.wakeAt = this.now + b.sleep;
    }
    if (t === this.#tasks[0] && t.block !== 'run') this.onBlock?.(t.block, t.block === 'sleep' && typeof b === 'object' ? b.sleep : null, t.sh);
  }

  #ended(t: Task): void {
    if (t === this.#tasks[0]) return this.#exited(t.sh.status);
    this.#tasks.splice(this.#tasks.indexOf(t), 1);
    const parent = this.#tasks.find((p) => p.sh === t.parent);
    if (parent?.block === 'wait' && !this.hasJobs(parent.sh)) {
      parent.block = 'run';
      parent.wakeAt = this.now;
    }
  }

  #exited(code: number): void {
    if (this.#partial !== '') this.write('\n');
    this.exit = { code: code & 255, atMs: this.now };
    this.#tasks.length = 1;
    const main = this.#tasks[0];
    if (main) main.wakeAt = null;
  }
}

/** One shell process: the main one or a `&` job (a subshell with a copy of the variables). */
class Sh implements ShellProcess {
  readonly run: ShellRun;
  /** Variables the script set (null: unset, hiding the environment's). */
  readonly vars: Map<string, string | null>;
  args: readonly string[];
  errexit: boolean;
  status = 0;
  trap: Trap = 'default';
  exitTrap: List | undefined;
  pendingTrap = false;
  exitCalled = false;
  #loops = 0;
  #quiet = 0;
  #capture: string | undefined;
  #substStatus: number | undefined;

  constructor(run: ShellRun, vars: Map<string, string | null>, args: readonly string[], errexit: boolean) {
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
    this.#loops++;
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
      this.#loops--;
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
      yield* this.#builtin(argv);
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

  #write(text: string | Buffer, stream: Stream = 'stdout'): void {
    if (text.length === 0) return;
    if (stream === 'stderr') this.run.write(text, stream);
    else if (this.#capture !== undefined) this.#capture += text.toString();
    else if (this.#quiet === 0) this.run.write(text);
  }

  #done(out: { out: string; err?: string; status: number }): void {
    this.#write(out.out);
    if (out.err) this.#write(out.err, 'stderr');
    this.status = out.status;
  }

  /** A command of the caller's: its output, or its nested script run in a child shell. */
  *#hooked(hook: CommandHook): Gen {
    if ('writes' in hook) {
      for (const w of hook.writes) this.#write(w.text, w.stream);
      this.status = hook.status;
      return;
    }
    const child = new Sh(this.run, new Map(this.vars), hook.args, this.errexit);
    child.#capture = this.#capture;
    child.#quiet = this.#quiet;
    yield* child.#guarded(child.list(hook.script, false));
    if (this.#capture !== undefined) this.#capture = child.#capture;
    this.status = child.status;
  }

  *#builtin(argv: readonly string[]): Gen {
    const [cmd = '', ...args] = argv;
    const name = basename(cmd);
    const hook = this.run.ctx.command?.(argv);
    if (hook) return yield* this.#hooked(hook);
    switch (name) {
      case ':':
      case 'true':
        this.status = 0;
        return;
      case 'false':
        this.status = 1;
        return;
      case 'echo':
        return this.#done(echo(args));
      case 'printf':
        return this.#done(printf(args));
      case 'seq':
        return this.#done(seq(args));
      case 'expr':
        return this.#done(expr(args));
      case 'test':
      case '[':
        return this.#done(test(args, name === '['));
      case 'date': {
        if (this.run.ctx.env === undefined) throw new ImpureScript('date');
        return this.#done(date(args, this.run.ctx.startedAt + this.run.now) ?? { out: '', err: `date: invalid option -- '${args.join(' ')}'\n`, status: 1 });
      }
      case 'hostname':
        return this.#done({ out: `${this.#env('HOSTNAME') ?? ''}\n`, status: 0 });
      case 'nvidia-smi':
        if (args.length !== 1 || (args[0] !== '-L' && args[0] !== '--list-gpus')) return this.#done({ out: '', err: 'nvidia-smi: only `nvidia-smi -L` is simulated\n', status: 127 });
        if (this.#capture !== undefined) return;
        this.status = this.run.gpuLines();
        return;
      case 'sleep': {
        const ms = sleepMs(args);
        if (ms === undefined) return this.#done({ out: '', err: `sleep: invalid number '${args[0] ?? ''}'\n`, status: 1 });
        if (ms !== 0) yield { sleep: ms };
        this.status = 0;
        return;
      }
      case 'wait':
        this.status = (yield 'wait') ? 143 : 0;
        return;
      case 'exit': {
        const code = args[0] === undefined ? this.status : Number(args[0]);
        if (!/^\d+$/.test(args[0] ?? '0')) {
          this.#write(`sh: exit: Illegal number: ${args[0] ?? ''}\n`, 'stderr');
          throw new Exit(2);
        }
        throw new Exit(code & 255);
      }
      case 'break':
      case 'continue': {
        const n = Number(args[0] ?? 1);
        if (this.#loops === 0 || !(n >= 1)) return this.#done({ out: '', status: 0 });
        throw new LoopControl(Math.min(n, this.#loops), name === 'break');
      }
      case 'trap':
        return this.#done(this.#setTrap(args));
      case 'export':
      case 'unset':
        for (const a of args) {
          if (a.startsWith('-')) continue;
          const eq = a.indexOf('=');
          if (name === 'unset') this.vars.set(a, null);
          else if (eq > 0) this.vars.set(a.slice(0, eq), a.slice(eq + 1));
        }
        this.status = 0;
        return;
      case 'set': {
        let i = 0;
        for (; i < args.length && /^[-+]/.test(args[i] as string); i++) {
          const a = args[i] as string;
          if (a === '--') {
            i++;
            break;
          }
          if (a.includes('e') && a !== '-o' && a !== '+o') this.errexit = a.startsWith('-');
          if (a === '-o' || a === '+o') i++;
        }
        if (i < args.length || args.includes('--')) this.args = [this.args[0] ?? 'sh', ...args.slice(i)];
        this.status = 0;
        return;
      }
      case 'exec':
        if (args.length === 0) return;
        // The shell is replaced: its traps go (an ignored signal stays ignored), the program's status is the exit code.
        this.trap = this.trap === 'ignore' ? 'ignore' : 'default';
        this.exitTrap = undefined;
        yield* this.#builtin(args);
        throw new Exit(this.status);
      default:
        return this.#done({ out: '', err: `sh: ${cmd}: not found\n`, status: 127 });
    }
  }

  #setTrap(args: readonly string[]): { out: string; err?: string; status: number } {
    const [action, ...signals] = args;
    if (action === undefined) return { out: '', status: 0 };
    for (const s of signals) {
      const sig = s.toUpperCase().replace(/^SIG/, '');
      const trap: Trap = action === '-' ? 'default' : action === '' ? 'ignore' : parseTrap(action);
      if (termNames.has(sig) || termNames.has(s)) this.trap = trap;
      else if (exitNames.has(sig)) this.exitTrap = typeof trap === 'object' ? trap.action : undefined;
      else if (!otherSignals.has(sig)) return { out: '', err: `sh: trap: ${s}: invalid signal specification\n`, status: 1 };
    }
    return { out: '', status: 0 };
  }

  #env(name: string): string | undefined {
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
    return this.#env(name);
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
    sub.#capture = '';
    const gen = sub.#guarded(sub.list(body, false));
    // The subset lets only commands that print at once into $(...); a spin ends the substitution there.
    if (!gen.next(false).done) gen.return(undefined);
    this.#substStatus = sub.status;
    return sub.#capture.replace(/\n+$/, '');
  }

  #arith(e: Arith): number {
    return arith(e, { get: (name) => this.#param(name), set: (name, v) => this.vars.set(name, v), fail: (m) => this.#fail(m) });
  }

  /** An expansion error: a non-interactive shell prints it and exits 2. */
  #fail(message: string): never {
    this.#write(`sh: ${message}\n`, 'stderr');
    throw new Exit(2);
  }
}
