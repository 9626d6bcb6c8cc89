// The commands a simulated shell runs itself: the shell's special built-ins (exit, trap, set, export,
// break, wait, exec, ...), the utilities that only compute output (shell-commands.ts) and tail over the
// container's files (shell-tail.ts). The caller's own commands (ShellContext.command) are asked first;
// a name nobody knows is `not found` (127).
import { date, echo, expr, printf, seq, sleepMs, test, testsFiles } from './shell-commands.ts';
import { Exit, ImpureScript, LoopControl, Return } from './shell-context.ts';
import type { Gen } from './shell-context.ts';
import type { Sh } from './shell-process.ts';
import { basename } from './shell-ast.ts';
import { pipedTail, tail, tailOf } from './shell-tail.ts';
import { runText } from './shell-text.ts';
import type { CommandOutput } from './shell-commands.ts';
import { setTrap } from './shell-traps.ts';
import { cd } from './shell-cd.ts';

export function* builtin(sh: Sh, argv: readonly string[]): Gen {
  const [cmd = '', ...args] = argv;
  const name = basename(cmd);
  const fn = sh.functions.get(cmd);
  if (fn) return yield* sh.call(fn, argv);
  const piped = readsPipe(sh, name, args);
  if (piped) return sh.done(piped);
  const hook = sh.run.ctx.command?.(argv, sh.cwd);
  if (hook) return yield* sh.hooked(hook);
  switch (name) {
    case ':':
    case 'true':
      sh.status = 0;
      return;
    case 'false':
      sh.status = 1;
      return;
    case 'echo':
      return sh.done(echo(args));
    case 'printf':
      return sh.done(printf(args));
    case 'seq':
      return sh.done(seq(args));
    case 'expr':
      return sh.done(expr(args));
    case 'test':
    case '[':
    case '[[':
      // Only the kubelet knows the container's files (it answers through ctx.command): nothing to say ahead of it.
      if (testsFiles(args) && sh.run.ctx.env === undefined) throw new ImpureScript(name);
      return sh.done(test(args, name));
    case 'date': {
      if (sh.run.ctx.env === undefined) throw new ImpureScript('date');
      return sh.done(date(args, sh.run.ctx.startedAt + sh.run.now) ?? { out: '', err: `date: invalid option -- '${args.join(' ')}'\n`, status: 1 });
    }
    case 'env':
      if (args.length > 0) return sh.done({ out: '', err: 'env: running a command is not simulated\n', status: 125 });
      return sh.done({ out: sh.environment().map(([k, v]) => `${k}=${v}\n`).join(''), status: 0 });
    case 'printenv': {
      const env = new Map(sh.environment());
      if (args.length === 0) return sh.done({ out: [...env].map(([k, v]) => `${k}=${v}\n`).join(''), status: 0 });
      const found = args.filter((n) => env.has(n));
      return sh.done({ out: found.map((n) => `${env.get(n)}\n`).join(''), status: found.length === args.length ? 0 : 1 });
    }
    case 'hostname':
      return sh.done({ out: `${sh.env('HOSTNAME') ?? ''}\n`, status: 0 });
    case 'cd':
      return sh.done(cd(sh, args));
    case 'nvidia-smi':
      if (args.length !== 1 || (args[0] !== '-L' && args[0] !== '--list-gpus')) return sh.done({ out: '', err: 'nvidia-smi: only `nvidia-smi -L` is simulated\n', status: 127 });
      if (sh.capture !== undefined) return;
      sh.status = sh.run.gpuLines();
      return;
    case 'sleep': {
      const ms = sleepMs(args);
      if (ms === undefined) return sh.done({ out: '', err: `sleep: invalid number '${args[0] ?? ''}'\n`, status: 1 });
      if (ms !== 0) yield { sleep: ms };
      sh.status = 0;
      return;
    }
    case 'wait':
      sh.status = (yield 'wait') ? 143 : 0;
      return;
    case 'exit':
      return exit(sh, args[0]);
    case 'return':
      if (!/^\d+$/.test(args[0] ?? '0')) return sh.done({ out: '', err: `sh: return: Illegal number: ${args[0] ?? ''}\n`, status: 2 });
      throw new Return((args[0] === undefined ? sh.status : Number(args[0])) & 255);
    case 'break':
    case 'continue': {
      const n = Number(args[0] ?? 1);
      if (sh.loops === 0 || !(n >= 1)) return sh.done({ out: '', status: 0 });
      throw new LoopControl(Math.min(n, sh.loops), name === 'break');
    }
    case 'trap':
      return sh.done(setTrap(sh, args));
    case 'export':
    case 'unset':
      for (const a of args) {
        if (a.startsWith('-')) continue;
        const eq = a.indexOf('=');
        if (name === 'unset') {
          sh.vars.set(a, null);
          sh.arrays.delete(a);
          sh.exported.delete(a);
        } else {
          if (eq > 0) sh.vars.set(a.slice(0, eq), a.slice(eq + 1));
          sh.exported.add(eq > 0 ? a.slice(0, eq) : a);
        }
      }
      sh.status = 0;
      return;
    case 'set':
      return set(sh, args);
    case 'exec':
      if (args.length === 0) return;
      // The shell is replaced: its traps go (an ignored signal stays ignored), the program's status is the exit code.
      sh.trap = sh.trap === 'ignore' ? 'ignore' : 'default';
      sh.exitTrap = undefined;
      yield* builtin(sh, args);
      throw new Exit(sh.status);
    case 'tail':
      return yield* tail(sh, args);
    case 'rev':
    case 'grep':
    case 'wc':
    case 'head':
    case 'sort':
    case 'tr':
      return sh.done(runText(name, args, { stdin: sh.readStdin(), read: (path) => readFile(sh, path) }));
    case 'cat':
    case 'ls':
    case 'pwd':
    case 'id':
    case 'touch':
    case 'rm':
    case 'nslookup':
      // Only the kubelet knows the container's files and the cluster: nothing to say ahead of it.
      if (sh.run.ctx.env === undefined) throw new ImpureScript(name);
      return sh.done({ out: '', err: `sh: ${cmd}: not simulated here\n`, status: 127 });
    default:
      return sh.done({ out: '', err: `sh: ${cmd}: not found\n`, status: 127 });
  }
}

/** cat and tail reading the pipe before them (no file operand, or `-`); the kubelet answers them for files. */
function readsPipe(sh: Sh, name: string, args: readonly string[]): CommandOutput | undefined {
  if (sh.stdin === undefined) return undefined;
  if (name === 'cat' && args.every((a) => a === '-')) return { out: sh.readStdin() ?? '', status: 0 };
  const o = name === 'tail' ? pipedTail(args) : undefined;
  return o && { out: tailOf(Buffer.from(sh.readStdin() ?? ''), o).toString(), status: 0 };
}

/** A file a filter reads, as the container's process opens it at this moment. */
function readFile(sh: Sh, path: string): Buffer | { error: string } {
  const file = sh.files().open(path);
  return 'error' in file ? file : file.read(sh.clockMs);
}

function exit(sh: Sh, arg: string | undefined): never {
  if (!/^\d+$/.test(arg ?? '0')) {
    sh.write(`sh: exit: Illegal number: ${arg ?? ''}\n`, 'stderr');
    throw new Exit(2);
  }
  throw new Exit((arg === undefined ? sh.status : Number(arg)) & 255);
}

/** set [-e|+e] [-o errexit|pipefail] [--] [ARG...]: errexit, pipefail and the positional parameters. */
function set(sh: Sh, args: readonly string[]): void {
  let i = 0;
  for (; i < args.length && /^[-+]/.test(args[i] as string); i++) {
    const a = args[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (a.includes('e')) sh.errexit = a.startsWith('-');
    // -o NAME, alone or ending a cluster (`set -euo pipefail`).
    if (a.endsWith('o')) {
      const option = args[++i];
      if (option === 'pipefail') sh.pipefail = a.startsWith('-');
      else if (option === 'errexit') sh.errexit = a.startsWith('-');
    }
  }
  if (i < args.length || args.includes('--')) sh.args = [sh.args[0] ?? 'sh', ...args.slice(i)];
  sh.status = 0;
}
