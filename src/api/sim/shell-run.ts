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
import { ImpureScript } from './shell-context.ts';
import type { Gen, ShellContext, ShellProcess, ShellSink, Stream } from './shell-context.ts';
import { Sh } from './shell-process.ts';
import type { ShellHost } from './shell-process.ts';
import type { AndOr, List } from './shell-ast.ts';

/** Commands one instant may run before the script counts as spinning. */
export const busyCommandCap = 10_000;

interface Task {
  readonly sh: Sh;
  readonly gen: Gen;
  wakeAt: number | null;
  block: 'run' | 'sleep' | 'wait' | 'spin' | 'forever';
  readonly parent: Sh | undefined;
}

export class ShellRun implements ShellHost {
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
    sh.cwd = ctx.cwd;
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

  /** Where `cd` left the main shell; undefined: it did not move. */
  get cwd(): string | undefined {
    return this.#tasks[0]?.sh.cwd;
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
    const sh = parent.fork();
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
    // Output not ended by a newline stays so: the runtime logs it as a partial line.
    if (this.#partial !== '') this.#out.line(this.now, this.#partial, true);
    this.#partial = '';
    this.exit = { code: code & 255, atMs: this.now };
    this.#tasks.length = 1;
    const main = this.#tasks[0];
    if (main) main.wakeAt = null;
  }
}
