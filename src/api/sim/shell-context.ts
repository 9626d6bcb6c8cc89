// What the parts of the `sh -c` subset's interpreter share: what a run is given of its container
// (ShellContext), where its output goes (ShellSink), how a process blocks (Block), and the throws
// that unwind it (Exit, LoopControl, ImpureScript). shell-run.ts schedules processes,
// shell-process.ts runs one, shell-builtins.ts holds its commands.
import type { List } from './shell-ast.ts';

export type Block = { readonly sleep: number | null } | 'wait' | 'spin';
/** Resumed with true when SIGTERM interrupts the block (wait, spin). */
export type Gen = Generator<Block, void, boolean>;

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
  /** Commands of the caller's own (kubectl exec's cat, ls, env, ...), asked before the built-in ones; `cwd`: where `cd` took the shell. */
  command?: (argv: readonly string[], cwd: string | undefined) => CommandHook | undefined;
  /** A session's working directory (kubectl exec -i sh) after an earlier `cd`; undefined: the container's own. */
  cwd?: string | undefined;
  /** The container's files, live, for redirections and tail; undefined where the caller does not answer them. */
  files?: ShellFiles;
}

/**
 * The container's files as a process opens them (the kubelet's view of its writable layer and volumes).
 * Errors are errno's words (`Read-only file system`, `No such file or directory`), or the kubelet's own
 * for a file it cannot know; the shell and tail put them in their own messages.
 */
export interface ShellFiles {
  /** Reads happen as the process runs on the clock (a container's script), not all at once ahead of it (kubectl exec). */
  readonly live: boolean;
  /** open(O_WRONLY|O_CREAT, O_TRUNC or O_APPEND): what is written then lands at the file's end. */
  create(path: string, append: boolean): WritableFile | { error: string };
  /** open(O_RDONLY): the file as it is whenever it is read, other processes' writes included. */
  open(path: string): ReadableFile | { error: string };
  /** chdir(2): the directory's absolute path, or errno's words; a directory of the image's is taken to be there. */
  directory(path: string): { path: string } | { error: string };
}
/**
 * The processes of a simulation run in turns, each up to the clock when its timer fires, not in one time
 * order: a write says when (epoch ms) its process made it, and a read when its process reads, so a reader
 * does not see what another process appended after the reader's time (a sidecar polling at 12:00:01.000
 * misses the line its app appends at 12:00:01.004, whichever ran first).
 */
export interface WritableFile {
  write(data: string | Buffer, atMs: number): void;
}
export interface ReadableFile {
  /** The same for as long as the path names the same file (an inode): another means it was replaced. */
  readonly id: object;
  /** Its bytes as of `atMs`; `error` when it cannot be read (a directory). */
  read(atMs: number): Buffer | { error: string };
}

/** A hooked command's output and status, or a nested `sh -c` script to run in a child shell. */
export type CommandHook = { writes: readonly { stream: Stream; text: string | Buffer }[]; status: number } | { script: List; args: readonly string[] };
export type Stream = 'stdout' | 'stderr';

export interface ShellSink {
  /** A whole line of output, either stream (a container's log). */
  line(atMs: number, text: string, partial?: boolean): void;
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

/** `exit N` unwinding the process. */
export class Exit {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** `return N` ending the function that runs it. */
export class Return {
  readonly code: number;
  constructor(code: number) {
    this.code = code;
  }
}

/** `break N` / `continue N` unwinding that many loops. */
export class LoopControl {
  levels: number;
  readonly brk: boolean;
  constructor(levels: number, brk: boolean) {
    this.levels = levels;
    this.brk = brk;
  }
}
