// The simple command forms the behaviour model understands: `sleep N`, `exit N`, `true`, `false`,
// `nvidia-smi -L`, and `sh -c "..."` scripts made only of those plus `echo`, `trap` on TERM, and
// jobs put in the background (`&`) and waited for (`wait`), as NVIDIA's DRA examples run
// `nvidia-smi -L; trap 'exit 0' TERM; sleep 9999 & wait`. Anything else is not a simple form.
//
// Such a process is its container's PID 1 (unless the pod shares a PID namespace), and the kernel delivers
// no signal whose disposition is the default to a namespace's init (pid_namespaces(7)). So
// `sleep`, or a shell with no trap on TERM, ignores the kubelet's SIGTERM and is killed at the end of
// the grace period (exit 137), where the same command as a host process (runtime: process) dies of it
// (143). A trapped TERM runs once the shell's foreground command ends, or at once in `wait`.
import type { BehaviourFields, SigtermStep, TimedLine } from './behaviour-types.ts';
import { lookupTable } from '../../core/index.ts';

const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);
const sleepUnits: Record<string, number> = lookupTable({ '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 });

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `sleep` operands as GNU sleep reads them; undefined = not a simple operand, null = infinity. */
export function sleepMs(operands: readonly string[]): number | null | undefined {
  if (operands.length === 0) return undefined;
  let total = 0;
  for (const op of operands) {
    if (op === 'infinity' || op === 'inf') return null;
    const m = /^(\d+(?:\.\d+)?|\.\d+)([smhd]?)$/.exec(op);
    if (!m) return undefined;
    total += Number(m[1]) * (sleepUnits[m[2] ?? ''] ?? 1000);
  }
  return total;
}

/**
 * Splits a shell word list the way `sh -c` would for our tiny subset: quotes, backslashes, and `$VAR` or
 * `${VAR}` kept for expandBehaviourEnv to expand against the container's environment once it is known
 * (a `$` meant literally, in '...' or as `\$`, becomes `$$`, which that expansion turns back into `$`).
 * Command substitution, `$?`, positional parameters, globs, pipes and redirections are outside it.
 */
function words(text: string): string[] | undefined {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const next = text[i + 1];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else cur += ch === '$' ? '$$' : ch;
      continue;
    }
    if (ch === '$') {
      const variable = /^\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i))?.[0];
      if (variable) {
        cur += variable;
        i += variable.length - 1;
      } else if (next === undefined || next === ' ' || next === '\t' || next === '"') cur += '$$';
      else return undefined;
      inWord = true;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '`') return undefined;
      else if (ch === '\\' && next !== undefined && '"\\$`'.includes(next)) {
        cur += next === '$' ? '$$' : next;
        i++;
      } else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && next !== undefined) {
      cur += next === '$' ? '$$' : next;
      inWord = true;
      i++;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else if ('`|<>()*?&'.includes(ch)) {
      return undefined;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) out.push(cur);
  return out;
}

interface ScriptState {
  atMs: number;
  status: number;
  lines: TimedLine[];
  exited: boolean;
  forever: boolean;
  /** When the background jobs end (null: one never does); `wait` waits for them. */
  jobsEndMs: number | null;
  /** The trap on TERM: none (the default, which PID 1 never gets), an ignore (`trap ''`), or `exit [N]`. */
  trap: 'default' | 'ignore' | { code?: number };
  /** How SIGTERM is answered from each foreground command on (only the main script's, not a job's). */
  sigterm: SigtermStep[];
  /** The process is its PID namespace's init, which the default disposition of SIGTERM never reaches. */
  pid1: boolean;
}

const newState = (pid1 = true): ScriptState => ({ atMs: 0, status: 0, lines: [], exited: false, forever: false, jobsEndMs: 0, trap: 'default', sigterm: [], pid1 });

/**
 * Notes how SIGTERM is answered while the shell waits `ms` (null: forever) from now. With no trap, PID 1
 * never gets it and any other process dies of it (128+15). A trap runs once the foreground command ends
 * and its `exit` takes that command's status (0); in `wait` it runs at once and `exit` takes wait's 128+15.
 */
function noteSigterm(st: ScriptState, ms: number | null, inWait: boolean): void {
  const { trap } = st;
  if (ms === 0) return;
  if (trap === 'default' && !st.pid1) st.sigterm.push({ fromMs: st.atMs, exit: { code: 143 } });
  else if (typeof trap === 'string') st.sigterm.push({ fromMs: st.atMs });
  else if (inWait) st.sigterm.push({ fromMs: st.atMs, exit: { code: trap.code ?? 143 } });
  else st.sigterm.push({ fromMs: st.atMs, exit: { code: trap.code ?? 0, atMs: ms === null ? null : st.atMs + ms } });
}
const termSignals = new Set(['TERM', 'SIGTERM', '15']);

/** Runs one simple statement; false when it is not part of the subset. */
function runStatement(argv: readonly string[], st: ScriptState): boolean {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) return true;
  switch (basename(cmd)) {
    case 'sleep': {
      const ms = sleepMs(rest);
      if (ms === undefined) return false;
      noteSigterm(st, ms, false);
      if (ms === null) st.forever = true;
      else st.atMs += ms;
      st.status = 0;
      return true;
    }
    case 'exit': {
      const code = rest.length === 0 ? st.status : Number(rest[0]);
      if (!Number.isInteger(code) || rest.length > 1) return false;
      st.status = code & 255;
      st.exited = true;
      return true;
    }
    case 'true':
    case ':':
      st.status = 0;
      return rest.length === 0 || cmd === ':';
    case 'false':
      st.status = 1;
      return rest.length === 0;
    case 'echo':
      st.lines.push({ atMs: st.atMs, text: rest.join(' ') });
      st.status = 0;
      return true;
    case 'nvidia-smi':
      if (rest.length !== 1 || (rest[0] !== '-L' && rest[0] !== '--list-gpus')) return false;
      st.lines.push({ atMs: st.atMs, text: '', gpuList: true });
      st.status = 0;
      return true;
    case 'wait':
      if (rest.length > 0) return false;
      noteSigterm(st, st.jobsEndMs === null ? null : Math.max(0, st.jobsEndMs - st.atMs), true);
      if (st.jobsEndMs === null) st.forever = true;
      else st.atMs = Math.max(st.atMs, st.jobsEndMs);
      st.status = 0;
      return true;
    case 'trap':
      return trap(rest, st);
    default:
      return false;
  }
}

/**
 * `trap ACTION TERM`: an empty action ignores SIGTERM, `-` restores the default (which PID 1 never
 * gets), `exit [N]` exits. Other actions or signals are outside the subset.
 */
function trap(args: readonly string[], st: ScriptState): boolean {
  const [action, ...signals] = args;
  if (action === undefined || signals.length === 0 || !signals.every((s) => termSignals.has(s))) return false;
  const a = action.trim();
  const exit = /^exit(?:\s+(\d+))?$/.exec(a);
  if (a === '') st.trap = 'ignore';
  else if (a === '-') st.trap = 'default';
  else if (exit) st.trap = exit[1] === undefined ? {} : { code: Number(exit[1]) & 255 };
  else return false;
  st.status = 0;
  return true;
}

/** Runs a statement put in the background: its time passes beside the script's, until `wait`. */
function runJob(argv: readonly string[], st: ScriptState): boolean {
  const job: ScriptState = { ...newState(), atMs: st.atMs, lines: st.lines };
  if (!runStatement(argv, job) || job.exited) return false;
  if (job.forever) st.jobsEndMs = null;
  else if (st.jobsEndMs !== null) st.jobsEndMs = Math.max(st.jobsEndMs, job.atMs);
  st.status = 0;
  return true;
}

function runScript(script: string, pid1: boolean): BehaviourFields | undefined {
  const st = newState(pid1);
  // Statements separated by newlines, `;`, `&&` (a failed left side skips the right side) and `&`
  // (the left side runs in the background).
  const parts = script.split(/(;|&&|&|\n)/);
  let skip = false;
  for (let i = 0; i < parts.length; i += 2) {
    const text = (parts[i] ?? '').trim();
    const sep = parts[i - 1];
    if (sep === '&&' && st.status !== 0) skip = true;
    else if (sep !== '&&') skip = false;
    if (text === '' || skip || st.exited || st.forever) continue;
    const argv = words(text);
    if (!argv) return undefined;
    if (!(parts[i + 1] === '&' ? runJob(argv, st) : runStatement(argv, st))) return undefined;
  }
  return finish(st);
}

function finish(st: ScriptState): BehaviourFields {
  const fields: BehaviourFields = { logs: st.lines, onSigterm: 'ignore' };
  if (st.sigterm.some((s) => s.exit)) fields.sigtermSteps = st.sigterm;
  if (!st.forever) {
    fields.runForMs = st.atMs;
    fields.exitCode = st.status;
  }
  return fields;
}

/** Whether argv starts a shell that reads its commands from standard input (no -c, no script file). */
export function isInteractiveShell(argv: readonly string[]): boolean {
  const [cmd, ...rest] = argv;
  return cmd !== undefined && shells.has(basename(cmd)) && rest.every((a) => a === '-i' || a === '-l' || a === '-' || a === '-s');
}

/**
 * The behaviour of a container whose command (plus args) is a simple form, else undefined. `pid1`: the
 * process is its PID namespace's init (the container has a PID namespace of its own).
 */
export function commandFormBehaviour(argv: readonly string[], pid1 = true): BehaviourFields | undefined {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) return undefined;
  if (shells.has(basename(cmd))) {
    const flag = rest[0];
    if (flag === undefined || !/^-[a-z]*c[a-z]*$/.test(flag) || rest.length < 2) return undefined;
    return runScript(rest[1] ?? '', pid1);
  }
  const st = newState(pid1);
  return runStatement(argv, st) ? finish(st) : undefined;
}
