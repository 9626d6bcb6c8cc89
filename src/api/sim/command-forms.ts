// The command forms the behaviour model understands: a container command that is one of the simulated
// commands (`sleep 30`, `exit 3`, `true`, `nvidia-smi -L`, `date`, ...) or a shell running a script in
// the `sh -c` subset of shell-syntax.ts, such as NVIDIA's `nvidia-smi -L; trap 'exit 0' TERM; sleep 9999 & wait`
// or the logging docs' `i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done`. Anything else
// is not a command form and falls through to the image catalog or the default.
//
// A script that reads nothing of its container (its environment, the clock, the host name) and ends or
// blocks within staticCommandCap commands is evaluated here, once per command line, into plain
// behaviour fields (timed lines, runFor/exitCode, sigtermSteps): the common `sleep infinity` costs a pod
// nothing more than before. Any other script is kept as a ShellScript that the kubelet's SimContainer
// runs lazily on the clock (shell-run.ts).
//
// Such a process is its container's PID 1 (unless the pod shares a PID namespace), and the kernel delivers
// no signal whose disposition is the default to a namespace's init (pid_namespaces(7)). So
// `sleep`, or a shell with no trap on TERM, ignores the kubelet's SIGTERM and is killed at the end of
// the grace period (exit 137), where the same command as a host process (runtime: process) dies of it
// (143). A trapped TERM runs once the shell's foreground command ends, or at once in `wait`.
import type { BehaviourFields, ShellScript, SigtermStep, TimedLine } from './behaviour-types.ts';
import { ImpureScript } from './shell-context.ts';
import { ShellRun } from './shell-run.ts';
import type { CommandHook, ShellFiles, ShellProcess } from './shell-context.ts';
import { asksContainer, containerCommands, scriptCommands } from './shell-allowed.ts';
import { basename, OutsideSubset } from './shell-ast.ts';
import { argvCommand, parseScript } from './shell-syntax.ts';
import { textCommands } from './shell-text.ts';

type CommandHookFn = (argv: readonly string[]) => CommandHook | undefined;

const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);
/** Programs a container may run without a shell (`exit` too, as the model always took it). */
const programs = new Set(['sleep', 'exit', 'true', 'false', 'echo', 'nvidia-smi', 'date', 'seq', 'printf', 'expr', 'hostname', 'test', '[', '[[', 'env', 'printenv', 'tail', ...textCommands]);
/** How many commands a script may run when it is evaluated ahead; a longer one is run on the clock. */
const staticCommandCap = 1000;
/** How far ahead (virtual ms) an exec handler's script is run before it counts as never ending. */
const handlerLimitMs = 600_000;

// Command lines repeat across a workload's pods: each is parsed and evaluated once.
const forms = new Map<string, BehaviourFields | null>();
const maxForms = 512;

/** Whether argv starts a shell that reads its commands from standard input (no -c, no script file). */
export function isInteractiveShell(argv: readonly string[]): boolean {
  const [cmd, ...rest] = argv;
  return cmd !== undefined && shells.has(basename(cmd)) && rest.every((a) => a === '-i' || a === '-l' || a === '-' || a === '-s');
}

/**
 * The behaviour of a container whose command (plus args) is a command form, else undefined. `pid1`: the
 * process is its PID namespace's init (the container has a PID namespace of its own). The result is
 * shared between callers: never mutate it.
 */
export function commandFormBehaviour(argv: readonly string[], pid1 = true): BehaviourFields | undefined {
  const key = `${pid1 ? 1 : 0}\0${argv.join('\0')}`;
  let form = forms.get(key);
  if (form === undefined) {
    const script = shellScript(argv, pid1);
    form = script ? (evaluateAhead(script) ?? { script, onSigterm: 'ignore' }) : null;
    if (forms.size >= maxForms) forms.clear();
    forms.set(key, form);
  }
  return form ?? undefined;
}

function shellScript(argv: readonly string[], pid1: boolean): ShellScript | undefined {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) return undefined;
  try {
    if (!shells.has(basename(cmd))) {
      // A bare `cat` reads its standard input (the `command: [cat]` with `stdin: true` idiom): not one of the forms.
      const fileOperands = rest.length > 0 && rest.every((a) => !a.startsWith('-'));
      if (!programs.has(basename(cmd)) && !(containerCommands.has(basename(cmd)) && fileOperands)) return undefined;
      return { program: argvCommand(argv, scriptCommands), pid1, args: [cmd], errexit: false };
    }
    const [flag, text, ...args] = rest;
    // -x and -v trace the script to standard error, which is outside the subset.
    if (flag === undefined || text === undefined || !/^-[a-z]*c[a-z]*$/.test(flag) || /[xv]/.test(flag)) return undefined;
    return { program: parseScript(text, false, basename(cmd) === 'bash' ? 'bash' : 'sh'), pid1, args: args.length > 0 ? args : [cmd], errexit: flag.includes('e') };
  } catch (e) {
    if (e instanceof OutsideSubset) return undefined;
    throw e;
  }
}

/**
 * How SIGTERM is answered while the main shell is blocked from `now`: no trap, and PID 1 never gets it,
 * any other process dies of it (128+15); a trap runs once the foreground sleep ends (its `exit` takes the
 * sleep's status, 0), at once in `wait` (status 128+15) or in a spin. 'impure': a trap doing more than exit.
 */
function sigtermStep(block: string, ms: number | null, sh: ShellProcess, now: number, pid1: boolean): SigtermStep | 'impure' {
  const { trap } = sh;
  if (trap === 'default') return pid1 ? { fromMs: now } : { fromMs: now, exit: { code: 143 } };
  if (trap === 'ignore') return { fromMs: now };
  if (trap.exit === undefined || sh.exitTrap) return 'impure';
  if (block === 'wait') return { fromMs: now, exit: { code: trap.exit ?? 143 } };
  if (block === 'spin') return { fromMs: now, exit: { code: trap.exit ?? sh.status } };
  return { fromMs: now, exit: { code: trap.exit ?? 0, atMs: ms === null ? null : now + ms } };
}

/** The script's whole run as behaviour fields, when it needs nothing of its container; else undefined. */
function evaluateAhead(script: ShellScript): BehaviourFields | undefined {
  const logs: TimedLine[] = [];
  const sigterm: SigtermStep[] = [];
  let impure = false;
  const run = new ShellRun(script.program, { env: undefined, gpuList: undefined, pid1: script.pid1, startedAt: 0, args: script.args, errexit: script.errexit, maxOps: staticCommandCap }, {
    // expandBehaviourEnv expands $VAR in lines (the annotation's); a script's own `$` is literal.
    line: (atMs, text, partial) => logs.push({ atMs, text: text.replaceAll('$', '$$$$'), ...(partial ? { partial: true as const } : {}) }),
    gpuList: (atMs) => logs.push({ atMs, text: '', gpuList: true }),
  });
  run.onBlock = (block, ms, sh) => {
    const step = sigtermStep(block, ms, sh, run.now, script.pid1);
    if (step === 'impure') impure = true;
    else sigterm.push(step);
  };
  try {
    run.runUntil(Number.POSITIVE_INFINITY);
  } catch (e) {
    if (e instanceof ImpureScript) return undefined;
    throw e;
  }
  if (impure) return undefined;
  const fields: BehaviourFields = { logs, onSigterm: 'ignore' };
  if (sigterm.some((s) => s.exit)) fields.sigtermSteps = sigterm;
  if (run.exit) {
    fields.runForMs = run.exit.atMs;
    fields.exitCode = run.exit.code;
  }
  return fields;
}

/** What a command form run once prints and how it ends (an exec probe or hook); undefined when argv is none. */
export interface CommandFormRun {
  output: string;
  /** Of a failed run, what it wrote on standard error: the runtime's ExecSync error carries it. */
  stderr: string;
  exitCode: number;
  /** How long it ran; undefined when it does not end by itself. */
  durationMs: number | undefined;
}

/**
 * Runs argv as an exec handler would, against the container's environment; `command` answers what the
 * kubelet answers (cat, touch, rm, nslookup) and `files` are the container's for redirections; a run they
 * do not answer is no command form.
 */
export function runCommandForm(argv: readonly string[], env: Readonly<Record<string, string>>, now: number, command?: CommandHookFn, files?: ShellFiles): CommandFormRun | undefined {
  const form = commandFormBehaviour(argv, false);
  if (!form) return undefined;
  const { script } = form;
  if (!script) {
    const output = (form.logs ?? []).map((l) => `${l.text.replaceAll('$$', '$')}${l.partial ? '' : '\n'}`).join('');
    const exitCode = form.exitCode ?? 0;
    // The lines evaluated ahead no longer tell the streams apart; a failure is run again for its standard error.
    const again = exitCode !== 0 ? shellScript(argv, false) : undefined;
    const stderr = again ? runStreams(again, env, now).stderr : '';
    return { output, stderr, exitCode, durationMs: form.runForMs };
  }
  let streams: ReturnType<typeof runStreams>;
  try {
    streams = runStreams(script, env, now, command, files);
  } catch (e) {
    if (e instanceof ImpureScript) return undefined;
    throw e;
  }
  const { stdout, stderr, run } = streams;
  const exitCode = run.exit?.code ?? 0;
  return { output: stdout + stderr, stderr: exitCode !== 0 ? stderr : '', exitCode, durationMs: run.exit ? run.exit.atMs : handlerLimitMs };
}

/** Runs a handler's script by streams: ExecSync returns its standard output, then its standard error. */
function runStreams(script: ShellScript, env: Readonly<Record<string, string>>, now: number, hook?: CommandHookFn, files?: ShellFiles): { stdout: string; stderr: string; run: ShellRun } {
  const out = { stdout: '', stderr: '' };
  const write = (_at: number, stream: 'stdout' | 'stderr', text: string | Buffer): void => {
    out[stream] += text.toString();
  };
  // A handler reading the container's files or asking the cluster is a command form only where the kubelet answers.
  const command = (argv: readonly string[]): CommandHook | undefined => {
    if (!asksContainer(argv)) return undefined;
    const answer = hook?.(argv);
    if (!answer) throw new ImpureScript(argv[0]);
    return answer;
  };
  const run = new ShellRun(script.program, { env, gpuList: undefined, pid1: false, startedAt: now, args: script.args, errexit: script.errexit, command, ...(files ? { files } : {}) }, { line: () => {}, write });
  run.runUntil(handlerLimitMs);
  return { ...out, run };
}
