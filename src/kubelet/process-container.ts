// A container run as a host process, for a node pool's `runtime: process`: the container's command and
// args with its environment (and the host's PATH), stdout and stderr as its log, real SIGTERM and
// SIGKILL to its process group, and its exit code as the container's. No cgroups: limits are not
// enforced and a resize changes nothing; probes pass while it runs; its working set is its RSS.
// Upstream: what containerd and runc do for the kubelet, much reduced.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import type { Clock } from '../core/index.ts';
import type { LogBuffer } from './logs.ts';
import type { ContainerExit, ContainerProcess } from './sim-container.ts';

export interface ProcessContainerOptions {
  clock: Clock;
  argv: readonly string[];
  env: Readonly<Record<string, string>>;
  workingDir?: string;
  logs: LogBuffer;
  onExit: (exit: ContainerExit) => void;
}

const pageBytes = 4096;

/** A finished process's exit code as a shell reports it: its own, or 128 plus the signal that ended it. */
export function processExitCode(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
}

/** What runc says when a command could not be started: an executable not on PATH, or the system's error. */
export function startFailure(file: string, error: NodeJS.ErrnoException): string {
  return error.code === 'ENOENT' && (error.path === undefined || error.path === file) ? `exec: ${JSON.stringify(file)}: executable file not found in $PATH` : error.message;
}

export class ProcessContainer implements ContainerProcess {
  readonly #o: ProcessContainerOptions;
  readonly #child: ChildProcess;
  readonly startedAt: number;
  #exit: ContainerExit | undefined;
  #discarded = false;
  /** Settles once the process runs, or could not be started. */
  readonly spawned: Promise<void>;
  /** Its environment, which exec probes run with too. */
  readonly env: Readonly<Record<string, string>>;

  constructor(options: ProcessContainerOptions) {
    this.#o = options;
    this.startedAt = options.clock.now();
    this.env = options.env;
    const [file = '', ...args] = options.argv;
    // Its own process group, so a signal reaches what it started too (sh -c "...").
    this.#child = spawn(file, args, { env: { ...options.env }, cwd: options.workingDir ?? '/', stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.spawned = new Promise((resolve) => {
      this.#child.once('spawn', resolve);
      this.#child.once('error', () => resolve());
    });
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => options.logs.write(options.clock.now(), line));
    }
    this.#child.once('error', (error: NodeJS.ErrnoException) => {
      this.#finish({ exitCode: 128, reason: 'StartError', finishedAt: options.clock.now(), message: `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: ${startFailure(file, error)}: unknown` });
    });
    // 'close' comes after the streams end, so the last lines are in the log before the exit.
    this.#child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      const exitCode = processExitCode(code, signal);
      this.#finish({ exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', finishedAt: options.clock.now() });
    });
  }

  get exited(): ContainerExit | undefined {
    return this.#exit;
  }

  get hasMemoryModel(): boolean {
    return true;
  }

  /** Its RSS, from /proc (0 once gone). */
  workingSetBytes(_now: number): number {
    if (this.#exit || this.#child.pid === undefined) return 0;
    try {
      return Number(readFileSync(`/proc/${this.#child.pid}/statm`, 'utf8').split(' ')[1] ?? 0) * pageBytes;
    } catch {
      return 0;
    }
  }

  diskBytes(_now: number): number {
    return 0;
  }

  get diskPath(): string | undefined {
    return undefined;
  }

  setMemoryLimit(_bytes: number | undefined): void {
    // No cgroup to write it to.
  }

  get responseTimeMs(): number {
    return 0;
  }

  /** Its probes run for real. */
  get readyDecidesProbes(): boolean {
    return false;
  }

  isHealthy(_now: number): boolean {
    return this.#exit === undefined;
  }

  sigterm(): void {
    this.#signal('SIGTERM');
  }

  sigkill(): void {
    this.#signal('SIGKILL');
  }

  discard(): void {
    this.#discarded = true;
    this.#signal('SIGKILL');
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (this.#exit || pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Gone already: its close event settles it.
    }
  }

  #finish(exit: ContainerExit): void {
    if (this.#exit) return;
    this.#exit = exit;
    if (!this.#discarded) this.#o.onExit(exit);
  }
}
