// The behaviour model's types: what a simulated container does from start to exit.
// Each source (annotation, command form, image catalog, default) yields BehaviourFields;
// resolveBehaviour layers them into one SimBehaviour.
import type { List } from './shell-ast.ts';
import type { MemoryModel } from './values.ts';

/** A log line written `atMs` after the process is up. */
export interface TimedLine {
  atMs: number;
  text: string;
  /** Stands for `nvidia-smi -L`: the kubelet writes the GPUs the container was given in its place. */
  gpuList?: true;
  /** The process's last output, with no newline after it (CRI's partial line): the log shows none. */
  partial?: true;
}

export interface SimBehaviour {
  /** Where the run/exit part came from (the annotation may still override single fields). */
  source: 'annotation' | 'command' | 'image' | 'default';
  /** From container start until the process is up (postStart and probes wait for it). */
  startupDelayMs: number;
  /** Probes of every kind pass from this long after start; undefined = never. */
  readyAfterMs?: number;
  /**
   * The annotation set `ready`: it alone decides whether a probe passes, so an exec probe's command form
   * (`true`, `exit 1`) no longer does. The annotation comes first in DESIGN.md's order of precedence.
   */
  readyDecidesProbes?: true;
  /** Exits by itself this long after start; undefined = runs until stopped. */
  runForMs?: number;
  exitCode: number;
  onSigterm: 'exit' | 'ignore';
  /** A shell script's trap on TERM: when present it answers SIGTERM instead of onSigterm (see SigtermStep). */
  sigtermSteps?: readonly SigtermStep[];
  /**
   * A script run on the clock (command-forms.ts): when present it writes the process's lines, ends it and answers
   * SIGTERM, and logs, runForMs, exitCode and sigtermSteps say nothing of the script.
   */
  script?: ShellScript;
  /** From SIGTERM until it exits. */
  stopDelayMs: number;
  /** How long the process takes to answer a probe or hook handler (exec outside the command forms, httpGet, tcpSocket, grpc). */
  responseTimeMs: number;
  memory?: MemoryModel;
  cpuMilli?: number;
  logs: readonly TimedLine[];
  logEveryMs?: number;
  /** Lines written when SIGTERM arrives (a log shipper's flush). */
  stopLogs: readonly string[];
  /** How long pulling the container's image takes (when the node pulls it). */
  pullMs: number;
  /** The registry has no such image: every pull fails (ErrImagePull, then ImagePullBackOff). */
  pullNotFound: boolean;
  /** The registry wants credentials: a pull fails unless the pod names an image pull secret that exists. */
  pullUnauthorized: boolean;
  /** What the process has written to local disk (its writable layer, or the emptyDir at diskPath), by age. */
  disk?: MemoryModel;
  /** Where it writes: a path under an emptyDir volume's mount; absent, the container's writable layer. */
  diskPath?: string;
}

/**
 * How a shell script running as its container's PID 1 answers SIGTERM that arrives from `fromMs` after it is up
 * until the next step's `fromMs`. Without `exit` the signal is dropped: no trap, or `trap '' TERM`, and the kernel
 * delivers no default-disposition signal to a PID namespace's init. With `trap 'exit N' TERM` the shell exits
 * with `code` at `atMs`: the end of the foreground command it is waiting for (a shell runs traps between
 * commands; null: that command never ends), or at once (absent) when it is in `wait`, which the signal interrupts.
 */
export interface SigtermStep {
  fromMs: number;
  exit?: { code: number; atMs?: number | null };
}

/** A parsed script the kubelet runs lazily (shell-run.ts), shared by every container with the same command line. */
export interface ShellScript {
  readonly program: List;
  /** The shell is its PID namespace's init: SIGTERM without a trap never reaches it. */
  readonly pid1: boolean;
  /** $0, $1, ... */
  readonly args: readonly string[];
  /** set -e (sh -ec). */
  readonly errexit: boolean;
  /** Filled in by expandBehaviourEnv once the container's environment is known. */
  readonly env?: Readonly<Record<string, string>>;
  readonly gpuList?: readonly string[] | undefined;
}

/** A partial behaviour; `readyNever` and `runForever` say "explicitly never" where undefined can't. */
export interface BehaviourFields {
  startupDelayMs?: number;
  readyAfterMs?: number;
  readyNever?: boolean;
  runForMs?: number;
  runForever?: boolean;
  exitCode?: number;
  onSigterm?: 'exit' | 'ignore';
  sigtermSteps?: readonly SigtermStep[];
  script?: ShellScript;
  stopDelayMs?: number;
  responseTimeMs?: number;
  memory?: MemoryModel;
  cpuMilli?: number;
  logs?: readonly TimedLine[];
  logEveryMs?: number;
  stopLogs?: readonly string[];
  pullMs?: number;
  pullNotFound?: boolean;
  pullUnauthorized?: boolean;
  disk?: MemoryModel;
  diskPath?: string;
}

/** Which list a container comes from: a regular init container, a sidecar, a main container, or an ephemeral one (`kubectl debug`). */
export type ContainerKind = 'init' | 'sidecar' | 'regular' | 'ephemeral';
