// What `kubectl exec` runs in a simulated container: a few commands a user reaches for to look inside
// one (env, printenv, echo, hostname, pwd, cd, date, nvidia-smi -L, sleep, true, false, exit; cat, ls (-l, -R), test and
// tar over the files the kubelet put there and the emptyDirs, so `kubectl cp` works both ways; touch, rm and
// `> FILE`, which the container's own script and its exec probes see; tail; the filters rev, grep, wc,
// head, sort and tr), alone or in the shell the container's own command runs in (api/sim/shell-syntax.ts:
// quotes, $VAR, $?, $((...)), $(...), `;`, `&&`, `||`, pipes, loops and `if`; bash's arrays), from `sh -c "..."` or from `sh` reading its standard input or a
// terminal. There is no image to run anything else. Pure: the script is run ahead and the route plays the
// steps; its writes are stamped with the time ahead they are made at (shell-files.ts).
import { argvCommand, OutsideSubset, parseScript, scriptCommands, shellTest, ShellRun, testsFiles } from '../api/index.ts';
import type { CommandHook, ContainerUser, ShellProgram } from '../api/index.ts';
import type { ClusterDnsView } from './cluster-dns.ts';
import type { ContainerFiles } from './container-files.ts';
import { lookup } from './container-files.ts';
import { cat, ls, pathStat, tar, tarExtracts } from './file-commands.ts';
import { isBusyboxImage, rm, touch } from './file-writes.ts';
import { nslookup } from './nslookup.ts';
import { shellFiles } from './shell-files.ts';

/** What a command sees of its container. */
export interface ExecContext {
  /** The process environment, in the order `env` prints it. */
  env: Readonly<Record<string, string>>;
  /** `nvidia-smi -L`'s lines; undefined when the kubelet cannot tell (device-plugin MIG is counted, not assigned). */
  gpuList: readonly string[] | undefined;
  workingDir: string;
  /** The files the kubelet put in the container (volumes, /etc/hosts); undefined when none are known. */
  files?: ContainerFiles | undefined;
  /** The clock, for `date`. */
  now?: () => number;
  /** What the cluster's DNS answers, for nslookup; absent: nslookup is not simulated. */
  dns?: ClusterDnsView | undefined;
  /** The container's image (which busybox's nslookup it has). */
  image?: string | undefined;
  /** Who its processes run as (status.containerStatuses[].user), for `id`. */
  user?: ContainerUser | undefined;
}

/** Output on a stream (a file's bytes as they are), or a pause (null: forever, as `sleep infinity`). */
export type ExecStep = { stream: 'stdout' | 'stderr'; text: string | Buffer } | { sleepMs: number | null };

export interface ExecRun {
  steps: ExecStep[];
  exitCode: number;
  /** The shell ran `exit`: an interactive session ends. */
  exited: boolean;
}

const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);
export const simulatedCommands = 'echo, env, printenv, hostname, pwd, cd, date, seq, printf, expr, nvidia-smi -L, sleep, true, false, exit, cat, ls (-l, -R), test, touch, rm, tail, rev, grep, wc, head, sort, tr, tar (cf -, xf -) and nslookup';

const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The name of the command argv runs when it is none of the simulated ones (nor a shell), else undefined. */
export function unsimulatedCommand(argv: readonly string[]): string | undefined {
  const [cmd] = argv;
  if (cmd === undefined) return undefined;
  const name = basename(cmd);
  return shells.has(name) || commandNames.has(name) ? undefined : cmd;
}

/** Runs argv as the container's runtime would exec it: a shell with -c runs its script. `stdin` is standard input read whole, for a command that takes it so. */
export function runExec(argv: readonly string[], context: ExecContext, stdin?: Buffer): ExecRun {
  const [cmd = ''] = argv;
  const shell = shells.has(basename(cmd));
  const parsedArgv = shell ? shellProgram(argv) : { program: argvCommand(argv, undefined) };
  if ('error' in parsedArgv) return parsedArgv.error;
  const args = shell && argv.length > 3 ? argv.slice(3) : [cmd];
  return execute(parsedArgv.program, context, { stdin, vars: new Map(), status: 0 }, args, shell && /^-[a-z]*e/.test(argv[1] ?? ''));
}

/** Whether the command reads its standard input whole before it does anything: `tar x` (kubectl cp into a pod). */
export function readsStdinWhole(argv: readonly string[]): boolean {
  return basename(argv[0] ?? '') === 'tar' && tarExtracts(argv.slice(1));
}

/** A shell reading commands (stdin, or a terminal's lines): `$?` and variables carry between them. */
export class ShellSession {
  readonly #context: ExecContext;
  readonly #state: SessionState = { stdin: undefined, vars: new Map(), status: 0 };
  constructor(context: ExecContext) {
    this.#context = context;
  }
  /** Runs one chunk of script; its steps, and whether the shell exited. */
  run(script: string): ExecRun {
    const p = parsed(script);
    if ('error' in p) {
      this.#state.status = p.error.exitCode;
      return p.error;
    }
    return execute(p.program, this.#context, this.#state, ['sh'], false);
  }
}

const commandNames = new Set(['echo', 'env', 'printenv', 'hostname', 'pwd', 'id', 'date', 'seq', 'printf', 'expr', 'nvidia-smi', 'sleep', 'true', 'false', ':', 'exit', 'cat', 'ls', 'tar', 'test', '[', '[[', 'nslookup', 'touch', 'rm', 'tail', 'rev', 'grep', 'wc', 'head', 'sort', 'tr']);
/** What kubectl exec runs ahead: output past this many writes, or past an hour, is left unwritten (the command goes on for ever). */
const maxSteps = 10_000;
const limitMs = 3_600_000;

interface SessionState {
  /** Standard input read whole, for the first command that takes it. */
  stdin: Buffer | undefined;
  vars: Map<string, string | null>;
  status: number;
  /** Where `cd` left the session's shell; undefined: the container's working directory. */
  cwd?: string | undefined;
}

class StepsFull extends Error {}

/** A syntax error (or a construct outside the shell) as sh reports it: status 2. */
function syntaxError(message: string): ExecRun {
  return { steps: [{ stream: 'stderr', text: `sh: syntax error: ${message}\n` }], exitCode: 2, exited: false };
}

type Parsed = { program: ShellProgram } | { error: ExecRun };

function parsed(script: string, dialect: 'sh' | 'bash' = 'sh'): Parsed {
  try {
    return { program: parseScript(script, true, dialect) };
  } catch (e) {
    if (e instanceof OutsideSubset) return { error: syntaxError(e.message) };
    throw e;
  }
}

function shellProgram(argv: readonly string[]): Parsed {
  const [cmd = '', flag, script] = argv;
  if (flag === undefined || !/^-[a-z]*c[a-z]*$/.test(flag)) {
    return { error: { steps: [{ stream: 'stderr', text: `${basename(cmd)}: reading commands from a file is not simulated\n` }], exitCode: 2, exited: false } };
  }
  return parsed(script ?? '', basename(cmd) === 'bash' ? 'bash' : 'sh');
}

/**
 * Runs the program ahead on its own time: output becomes steps, time passing between them a sleep step,
 * a command that never ends (or outlasts what is run ahead) a final endless sleep.
 */
function execute(program: ShellProgram, context: ExecContext, state: SessionState, args: readonly string[], errexit: boolean): ExecRun {
  const steps: ExecStep[] = [];
  let at = 0;
  const sink = {
    line: () => {},
    write: (atMs: number, stream: 'stdout' | 'stderr', text: string | Buffer) => {
      if (atMs > at) steps.push({ sleepMs: atMs - at });
      at = atMs;
      steps.push({ stream, text });
      if (steps.length > maxSteps) throw new StepsFull();
    },
  };
  const files = shellFiles(() => context.files, context.workingDir, false);
  const run = new ShellRun(program, { env: context.env, gpuList: context.gpuList, pid1: false, startedAt: context.now?.() ?? 0, args, errexit, vars: state.vars, status: state.status, cwd: state.cwd, command: (argv, cwd) => hooked(argv, context, state, cwd), files }, sink);
  try {
    run.runUntil(limitMs);
  } catch (e) {
    if (!(e instanceof StepsFull)) throw e;
  }
  if (!run.exit) steps.push({ sleepMs: null });
  else if (run.exit.atMs > at) steps.push({ sleepMs: run.exit.atMs - at });
  state.status = run.status;
  state.cwd = run.cwd;
  return { steps, exitCode: run.status, exited: run.exitCalled };
}

/** The container's /etc/resolv.conf, when the kubelet wrote it. */
function resolvConf(context: ExecContext): string | undefined {
  const found = context.files ? lookup(context.files, '/etc/resolv.conf', '/') : undefined;
  return found?.kind === 'found' && found.node.kind === 'file' ? found.node.data.toString() : undefined;
}

/** The commands a container's own script asks the kubelet (cat, nslookup), as kubectl exec runs them. */
export function containerCommandHook(context: ExecContext): (argv: readonly string[], cwd?: string) => CommandHook | undefined {
  const state: SessionState = { stdin: undefined, vars: new Map(), status: 0 };
  return (argv, cwd) => hooked(argv, context, state, cwd);
}

const written = (text: string, status = 0, stream: 'stdout' | 'stderr' = 'stdout'): CommandHook => ({ writes: text === '' ? [] : [{ stream, text }], status });

/** kubectl exec's own commands (files, the environment); the shell's built-in ones answer the rest. */
function hooked(argv: readonly string[], context: ExecContext, state: SessionState, cwd: string | undefined): CommandHook | undefined {
  const [cmd = '', ...rest] = argv;
  const name = basename(cmd);
  const dir = cwd ?? context.workingDir;
  switch (name) {
    case 'pwd':
      return written(`${dir}\n`);
    case 'id':
      return context.user ? idCommand(rest, context.user) : undefined;
    case 'cat':
      return cat(rest, context.files, dir, isBusyboxImage(context.image));
    case 'touch':
      return touch(rest, context.files, dir, isBusyboxImage(context.image), context.now?.());
    case 'rm':
      return rm(rest, context.files, dir, isBusyboxImage(context.image));
    case 'ls':
      return ls(rest, context.files, dir, { busybox: isBusyboxImage(context.image), nowMs: context.now?.() ?? 0 });
    case 'tar': {
      const stdin = state.stdin;
      state.stdin = undefined;
      return tar(rest, context.files, dir, stdin);
    }
    case 'test':
    case '[':
    case '[[': {
      if (!testsFiles(rest)) return undefined;
      const answer = shellTest(rest, name, pathStat(context.files, dir));
      return { writes: answer.err ? [{ stream: 'stderr', text: answer.err }] : [], status: answer.status };
    }
    case 'nslookup':
      return context.dns ? nslookup(rest, resolvConf(context), context.dns, context.image) : undefined;
    default:
      if (shells.has(name)) {
        const p = shellProgram(argv);
        if ('error' in p) return { writes: p.error.steps.filter((s) => 'stream' in s), status: p.error.exitCode };
        return { script: p.program, args: argv.length > 3 ? argv.slice(3) : [cmd] };
      }
      if (scriptCommands.has(name)) return undefined;
      return written(`sh: ${cmd}: not simulated (a simulated container runs ${simulatedCommands})\n`, 127, 'stderr');
  }
}

/**
 * busybox's id: `uid=1000 gid=3000 groups=2000,3000,4000`, or one of -u, -g, -G. A simulated image is a
 * root-only one (container-user.ts), so only 0 has a name.
 */
function idCommand(args: readonly string[], user: ContainerUser): CommandHook {
  const { uid, gid, supplementalGroups } = user.linux ?? { uid: 0, gid: 0, supplementalGroups: [0] };
  const named = (n: number): string => (n === 0 ? '0(root)' : String(n));
  const groups = supplementalGroups ?? [gid];
  if (args.length === 0) return written(`uid=${named(uid)} gid=${named(gid)} groups=${groups.map(named).join(',')}\n`);
  if (args.length === 1 && args[0] === '-u') return written(`${uid}\n`);
  if (args.length === 1 && args[0] === '-g') return written(`${gid}\n`);
  if (args.length === 1 && args[0] === '-G') return written(`${groups.join(' ')}\n`);
  return written(`id: ${args.join(' ')}: not simulated (id runs alone or with -u, -g or -G)\n`, 1, 'stderr');
}
