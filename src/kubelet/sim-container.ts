// One simulated container process on the injected clock, driven by its SimBehaviour: it writes
// its log lines, exits by itself after runFor, is OOM-killed when its working set passes the
// memory limit, and handles SIGTERM (exit after stopDelay, or ignore) and SIGKILL (exit 137).
import type { CommandHook, ShellFiles, ShellScript, SimBehaviour } from '../api/index.ts';
import { ImpureScript, memoryAt, memoryExceedsAt, ShellRun, sigtermExit } from '../api/index.ts';
import type { Clock, Timer } from '../core/index.ts';
import type { LogBuffer } from './logs.ts';

export type ExitReason = 'Completed' | 'Error' | 'OOMKilled' | 'StartError';

export interface ContainerExit {
  exitCode: number;
  reason: ExitReason;
  finishedAt: number;
  /** Why the runtime could not start it (StartError). */
  message?: string;
}

/** What the pod worker asks of a running container's process, simulated or real. */
export interface ContainerProcess {
  readonly startedAt: number;
  readonly exited: ContainerExit | undefined;
  /** Its working set now, in bytes. */
  workingSetBytes(now: number): number;
  /** Whether the working set comes from a model or a measurement (else the idle default stands in). */
  readonly hasMemoryModel: boolean;
  /** What it has written to local disk by now, and where. */
  diskBytes(now: number): number;
  readonly diskPath: string | undefined;
  setMemoryLimit(bytes: number | undefined): void;
  readonly responseTimeMs: number;
  isHealthy(now: number): boolean;
  /** Whether isHealthy alone decides a probe (the behaviour annotation's `ready`), whatever its exec command. */
  readonly readyDecidesProbes: boolean;
  sigterm(): void;
  sigkill(): void;
  /** Drops the process without an exit callback (the pod is gone). */
  discard(): void;
  /** A real process: settles once it runs or could not be started. */
  readonly spawned?: Promise<void>;
}

export interface SimContainerOptions {
  clock: Clock;
  behaviour: SimBehaviour;
  /** The container's memory limit in bytes, if any. */
  memoryLimitBytes?: number;
  logs: LogBuffer;
  onExit: (exit: ContainerExit) => void;
  /** The script's commands the kubelet answers (cat of the container's files, nslookup), from `cwd` once the script ran `cd`. */
  command?: (argv: readonly string[], cwd?: string) => CommandHook | undefined;
  /** The container's files, live, for the script's redirections and tail. */
  files?: ShellFiles;
  /**
   * The process has run since then (a restarted kubelet found it running): its log lines up to now are
   * written with their own times and its timeline goes on from there. Absent: it starts now.
   */
  startedAt?: number;
}

export class SimContainer implements ContainerProcess {
  readonly #o: SimContainerOptions;
  readonly startedAt: number;
  #timers: Timer[] = [];
  #exit: ContainerExit | undefined;
  #sigtermAt: number | undefined;
  #ticks = 0;
  #tick: Timer | undefined;
  #oom: Timer | undefined;
  /** A script run on the clock, and the one timer for its next step. */
  #run: ShellRun | undefined;
  #step: Timer | undefined;

  /** Starts the process now (the caller has already waited out startupDelay), or resumes it. */
  constructor(options: SimContainerOptions) {
    this.#o = options;
    const { clock, behaviour } = options;
    this.startedAt = options.startedAt ?? clock.now();
    const elapsed = Math.max(0, clock.now() - this.startedAt);
    if (behaviour.script) {
      // A resumed script is run again from its start: its lines up to now are written with their own times.
      this.#run = scriptRun(behaviour.script, this.startedAt, options.logs, options);
      this.#run.runUntil(elapsed);
      this.#scheduleStep();
    }
    writeTimedLines(behaviour, this.startedAt, elapsed, options.logs);
    for (const line of behaviour.logs) {
      if (line.atMs > elapsed) this.#after(line.atMs - elapsed, () => options.logs.write(clock.now(), line.text, line.partial));
    }
    if (behaviour.runForMs !== undefined) {
      this.#after(Math.max(0, behaviour.runForMs - elapsed), () => this.#finish(behaviour.exitCode, behaviour.exitCode === 0 ? 'Completed' : 'Error'));
    }
    this.#armOOM(options.memoryLimitBytes);
    const every = behaviour.logEveryMs;
    if (every !== undefined) {
      // A resumed process's ticks go on counting from its start (the earlier ones are not written again).
      this.#ticks = Math.floor(elapsed / every);
      this.#scheduleTick(every, every - (elapsed % every));
    }
  }

  get exited(): ContainerExit | undefined {
    return this.#exit;
  }

  /** What the process has written to disk by now (0 without a disk model). */
  diskBytes(now: number): number {
    const d = this.#o.behaviour.disk;
    return d ? Math.round(memoryAt(d, now - this.startedAt)) : 0;
  }

  get diskPath(): string | undefined {
    return this.#o.behaviour.diskPath;
  }

  get hasMemoryModel(): boolean {
    return this.#o.behaviour.memory !== undefined;
  }

  /** The modelled working set now (0 without a memory model). */
  workingSetBytes(now: number): number {
    const m = this.#o.behaviour.memory;
    return m ? Math.round(memoryAt(m, now - this.startedAt)) : 0;
  }

  /** An in-place resize changed the memory limit (the CPU cap only throttles, which nothing observes). */
  setMemoryLimit(bytes: number | undefined): void {
    if (this.#exit) return;
    this.#oom?.cancel();
    this.#oom = undefined;
    this.#armOOM(bytes);
  }

  #armOOM(limit: number | undefined): void {
    const model = this.#o.behaviour.memory;
    if (!model || limit === undefined) return;
    const at = memoryExceedsAt(model, limit);
    if (at === undefined) return;
    this.#oom = this.#o.clock.after(Math.max(0, this.startedAt + at - this.#o.clock.now()), () => this.#finish(137, 'OOMKilled'));
  }

  /** How long the process takes to answer a probe or hook (the behaviour's `responseTime`). */
  get responseTimeMs(): number {
    return this.#o.behaviour.responseTimeMs;
  }

  get readyDecidesProbes(): boolean {
    return this.#o.behaviour.readyDecidesProbes === true;
  }

  /** Probes of every kind pass from `ready` after start while the process runs. */
  isHealthy(now: number): boolean {
    const ready = this.#o.behaviour.readyAfterMs;
    return this.#exit === undefined && ready !== undefined && now - this.startedAt >= ready;
  }

  /** The kubelet's SIGTERM: the process exits as its behaviour answers it, or carries on until SIGKILL. */
  sigterm(): void {
    if (this.#exit || this.#sigtermAt !== undefined) return;
    const { behaviour, clock, logs } = this.#o;
    this.#sigtermAt = clock.now();
    if (this.#run) {
      this.#run.runUntil(clock.now() - this.startedAt);
      this.#run.sigterm();
      return this.#scheduleStep();
    }
    const exit = sigtermExit(behaviour, clock.now() - this.startedAt);
    if (!exit) return;
    for (const line of exit.stopLogs) logs.write(clock.now(), line);
    const finish = (): void => this.#finish(exit.exitCode, exit.exitCode === 0 ? 'Completed' : 'Error');
    if (exit.afterMs <= 0) finish();
    else this.#after(exit.afterMs, finish);
  }

  /** The process ends by itself now with `code` (an attached shell's `exit`). */
  exitWith(code: number): void {
    if (!this.#exit) this.#finish(code, code === 0 ? 'Completed' : 'Error');
  }

  /** SIGKILL: exit 137 at once; nothing more is written. */
  sigkill(): void {
    if (!this.#exit) this.#finish(137, 'Error');
  }

  /** Drops the process without an exit callback (the pod is gone). */
  discard(): void {
    this.#step?.cancel();
    this.#run = undefined;
    this.#tick?.cancel();
    this.#oom?.cancel();
    for (const t of this.#timers) t.cancel();
    this.#timers = [];
    if (!this.#exit) this.#exit = { exitCode: 137, reason: 'Error', finishedAt: this.#o.clock.now() };
  }

  #after(ms: number, fn: () => void): void {
    this.#timers.push(this.#o.clock.after(ms, fn));
  }

  #scheduleTick(every: number, first = every): void {
    this.#tick?.cancel();
    this.#tick = this.#o.clock.after(first, () => {
      if (this.#exit) return;
      this.#ticks++;
      this.#o.logs.write(this.#o.clock.now(), `tick ${this.#ticks}`);
      this.#scheduleTick(every);
    });
  }

  /** One timer for the script's next step, or for its exit (never called back from inside the constructor). */
  #scheduleStep(): void {
    const run = this.#run;
    if (!run) return;
    const { clock } = this.#o;
    this.#step?.cancel();
    this.#step = undefined;
    const at = run.exit ? run.exit.atMs : run.nextAt;
    if (at === null) return;
    // Set for the step's own time, which may have passed: its place among the clock's timers is that time's.
    this.#step = clock.setTimer(this.startedAt + at, () => {
      this.#step = undefined;
      if (run.exit) return this.#finish(run.exit.code, run.exit.code === 0 ? 'Completed' : 'Error');
      run.runUntil(clock.now() - this.startedAt);
      this.#scheduleStep();
    });
  }

  #finish(exitCode: number, reason: ExitReason): void {
    if (this.#exit) return;
    this.#step?.cancel();
    this.#run = undefined;
    this.#tick?.cancel();
    this.#oom?.cancel();
    for (const t of this.#timers) t.cancel();
    this.#timers = [];
    this.#exit = { exitCode, reason, finishedAt: this.#o.clock.now() };
    this.#o.onExit(this.#exit);
  }
}

/** The behaviour's scripted lines a process started at `startedAt` had written `elapsed` ms later, at their own times. */
export function writePastLines(behaviour: SimBehaviour, startedAt: number, elapsed: number, logs: LogBuffer): void {
  try {
    if (behaviour.script) scriptRun(behaviour.script, startedAt, logs, {}).runUntil(elapsed);
  } catch (e) {
    // Its files are not written again: the lines it wrote before it touched one are what is known.
    if (!(e instanceof ImpureScript)) throw e;
  }
  writeTimedLines(behaviour, startedAt, elapsed, logs);
}

function writeTimedLines(behaviour: SimBehaviour, startedAt: number, elapsed: number, logs: LogBuffer): void {
  for (const line of behaviour.logs) if (line.atMs <= elapsed) logs.write(startedAt + Math.max(0, line.atMs), line.text, line.partial);
}

function scriptRun(script: ShellScript, startedAt: number, logs: LogBuffer, { command, files }: Pick<SimContainerOptions, 'command' | 'files'>): ShellRun {
  const ctx = { env: script.env ?? {}, gpuList: script.gpuList, pid1: script.pid1, startedAt, args: script.args, errexit: script.errexit, ...(command ? { command } : {}), ...(files ? { files } : {}) };
  return new ShellRun(script.program, ctx, { line: (atMs, text, partial) => logs.write(startedAt + atMs, text, partial) });
}
