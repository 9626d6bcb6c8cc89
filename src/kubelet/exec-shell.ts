// What `kubectl exec` runs in a simulated container: a few commands a user reaches for to look inside
// one (env, printenv, echo, hostname, pwd, nvidia-smi -L, sleep, true, false, exit; cat, ls, test and
// tar over the files the kubelet put there and the emptyDirs, so `kubectl cp` works both ways), alone or in a
// small shell (`sh -c "..."`, or `sh` reading its standard input or a terminal) with quotes, $VAR,
// `;`, `&&`, `||` and newlines. There is no image to run anything else. Pure: the route plays the steps.
import { sleepMs } from '../api/index.ts';
import type { ContainerFiles } from './container-files.ts';
import { cat, ls, tar, tarExtracts, testPath } from './file-commands.ts';
import type { FileCommandOutput } from './file-commands.ts';

/** What a command sees of its container. */
export interface ExecContext {
  /** The process environment, in the order `env` prints it. */
  env: Readonly<Record<string, string>>;
  /** `nvidia-smi -L`'s lines; undefined when the kubelet cannot tell (device-plugin MIG is counted, not assigned). */
  gpuList: readonly string[] | undefined;
  workingDir: string;
  /** The files the kubelet put in the container (volumes, /etc/hosts); undefined when none are known. */
  files?: ContainerFiles | undefined;
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
export const simulatedCommands = 'echo, env, printenv, hostname, pwd, nvidia-smi -L, sleep, true, false, exit, cat, ls, test -d|-f|-e and tar (cf -, xf -)';

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
  const shell = new ShellState(context, stdin);
  shell.command(argv);
  return shell.finish();
}

/** Whether the command reads its standard input whole before it does anything: `tar x` (kubectl cp into a pod). */
export function readsStdinWhole(argv: readonly string[]): boolean {
  return basename(argv[0] ?? '') === 'tar' && tarExtracts(argv.slice(1));
}

/** A shell reading commands (stdin, or a terminal's lines): `$?` and exported state carry between them. */
export class ShellSession {
  readonly #state: ShellState;
  constructor(context: ExecContext) {
    this.#state = new ShellState(context);
  }
  /** Runs one chunk of script; its steps, and whether the shell exited. */
  run(script: string): ExecRun {
    this.#state.script(script);
    return this.#state.finish();
  }
}

const commandNames = new Set(['echo', 'env', 'printenv', 'hostname', 'pwd', 'nvidia-smi', 'sleep', 'true', 'false', ':', 'exit', 'cat', 'ls', 'tar', 'test', '[']);

class ShellState {
  readonly #context: ExecContext;
  /** Standard input read whole, for the first command that takes it. */
  #stdin: Buffer | undefined;
  #steps: ExecStep[] = [];
  #status = 0;
  #exited = false;
  #forever = false;

  constructor(context: ExecContext, stdin?: Buffer) {
    this.#context = context;
    this.#stdin = stdin;
  }

  finish(): ExecRun {
    const run: ExecRun = { steps: this.#steps, exitCode: this.#status, exited: this.#exited };
    this.#steps = [];
    return run;
  }

  /** Statements separated by newlines, `;`, `&&` (runs after success) and `||` (after failure). */
  script(text: string): void {
    const parts = splitStatements(text);
    if (typeof parts === 'string') return this.#fail(`sh: syntax error: ${parts}`, 2);
    let skip = false;
    for (const { text: statement, after } of parts) {
      if (this.#exited || this.#forever) return;
      if (after === '&&') skip = skip || this.#status !== 0;
      else if (after === '||') skip = skip || this.#status === 0;
      else skip = false;
      if (skip || statement.trim() === '') continue;
      const argv = shellWords(statement, this.#context.env, this.#status);
      if (typeof argv === 'string') {
        this.#fail(`sh: syntax error: ${argv}`, 2);
        continue;
      }
      this.command(argv);
    }
  }

  command(argv: readonly string[]): void {
    const [cmd, ...rest] = argv;
    if (cmd === undefined) return;
    const name = basename(cmd);
    if (shells.has(name)) {
      const flag = rest[0];
      if (flag !== undefined && /^-[a-z]*c[a-z]*$/.test(flag)) return this.script(rest[1] ?? '');
      return this.#fail(`${name}: reading commands from a file is not simulated`, 2);
    }
    switch (name) {
      case 'echo':
        return this.#echo(rest);
      case 'env':
        if (rest.length > 0) return this.#fail(`env: running a command is not simulated`, 125);
        return this.#out(Object.entries(this.#context.env).map(([k, v]) => `${k}=${v}\n`).join(''));
      case 'printenv':
        return this.#printenv(rest);
      case 'hostname':
        return this.#out(`${this.#context.env.HOSTNAME ?? ''}\n`);
      case 'pwd':
        return this.#out(`${this.#context.workingDir}\n`);
      case 'nvidia-smi':
        return this.#nvidiaSmi(rest);
      case 'sleep': {
        const ms = sleepMs(rest);
        if (ms === undefined) return this.#fail(`sleep: invalid time interval '${rest.join(' ')}'`, 1);
        this.#steps.push({ sleepMs: ms });
        if (ms === null) this.#forever = true;
        this.#status = 0;
        return;
      }
      case 'true':
      case ':':
        this.#status = 0;
        return;
      case 'false':
        this.#status = 1;
        return;
      case 'exit': {
        const code = rest.length === 0 ? this.#status : Number(rest[0]);
        if (!Number.isInteger(code)) return this.#fail(`sh: exit: Illegal number: ${rest[0] ?? ''}`, 2);
        this.#status = code & 255;
        this.#exited = true;
        return;
      }
      case 'cat':
        return this.#files(cat(rest, this.#context.files, this.#context.workingDir));
      case 'test':
      case '[':
        return this.#files(testPath(rest, this.#context.files, this.#context.workingDir, name === '['));
      case 'ls':
        return this.#files(ls(rest, this.#context.files, this.#context.workingDir));
      case 'tar': {
        const stdin = this.#stdin;
        this.#stdin = undefined;
        return this.#files(tar(rest, this.#context.files, this.#context.workingDir, stdin));
      }
      default:
        return this.#fail(`sh: ${cmd}: not simulated (a simulated container runs ${simulatedCommands})`, 127);
    }
  }

  #echo(args: readonly string[]): void {
    const noNewline = args[0] === '-n';
    this.#out(`${(noNewline ? args.slice(1) : args).join(' ')}${noNewline ? '' : '\n'}`);
  }

  #printenv(names: readonly string[]): void {
    const env = this.#context.env;
    if (names.length === 0) return this.#out(Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(''));
    const found = names.filter((n) => Object.hasOwn(env, n));
    this.#out(found.map((n) => `${env[n] ?? ''}\n`).join(''));
    this.#status = found.length === names.length ? 0 : 1;
  }

  /** `nvidia-smi -L`; with no GPU, nvidia-smi's own words and exit code 6 (NVML_ERROR_NOT_FOUND). */
  #nvidiaSmi(args: readonly string[]): void {
    if (args.length !== 1 || (args[0] !== '-L' && args[0] !== '--list-gpus')) {
      return this.#fail('nvidia-smi: only `nvidia-smi -L` is simulated', 127);
    }
    const list = this.#context.gpuList;
    if (list === undefined) return this.#out('');
    if (list.length === 0) return this.#fail('No devices were found', 6, 'stdout');
    this.#out(list.map((l) => `${l}\n`).join(''));
  }

  #files(output: FileCommandOutput): void {
    this.#steps.push(...output.writes);
    this.#status = output.status;
  }

  #out(text: string): void {
    if (text !== '') this.#steps.push({ stream: 'stdout', text });
    this.#status = 0;
  }

  #fail(message: string, status: number, stream: 'stdout' | 'stderr' = 'stderr'): void {
    this.#steps.push({ stream, text: `${message}\n` });
    this.#status = status;
  }
}

type Statement = { text: string; after: ';' | '&&' | '||' };

/** Splits on `;`, newlines, `&&` and `||` outside quotes; a lone `&` or `|` is outside the subset. */
function splitStatements(text: string): Statement[] | string {
  const out: Statement[] = [];
  let cur = '';
  let after: Statement['after'] = ';';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    // Quoted text is copied as written (shellWords reads it); only separators outside quotes count.
    if (quote) {
      cur += ch;
      if (ch === '\\' && quote === '"' && i + 1 < text.length) cur += text[++i] as string;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '\\' && i + 1 < text.length) {
      cur += ch + (text[++i] as string);
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      cur += ch;
    } else if (ch === ';' || ch === '\n') {
      out.push({ text: cur, after });
      cur = '';
      after = ';';
    } else if ((ch === '&' || ch === '|') && text[i + 1] === ch) {
      out.push({ text: cur, after });
      cur = '';
      after = ch === '&' ? '&&' : '||';
      i++;
    } else if (ch === '&' || ch === '|') {
      return `${ch === '&' ? 'background jobs' : 'pipes'} are not simulated`;
    } else {
      cur += ch;
    }
  }
  if (quote) return 'unterminated quoted string';
  out.push({ text: cur, after });
  return out;
}

/** sh's word splitting for the subset: quotes, backslashes, $VAR, ${VAR} and $? expanded (not in '...'). */
function shellWords(text: string, env: Readonly<Record<string, string>>, status: number): string[] | string {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else cur += ch;
      continue;
    }
    if (ch === '$') {
      if (text[i + 1] === '(') return 'command substitution is not simulated';
      const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*)|(\?))/.exec(text.slice(i));
      if (m) {
        cur += m[3] ? String(status) : (env[m[1] ?? m[2] ?? ''] ?? '');
        inWord = true;
        i += m[0].length - 1;
        continue;
      }
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && '"\\$`'.includes(text[i + 1] ?? '')) cur += text[++i] as string;
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      cur += text[++i] as string;
      inWord = true;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else if ('`<>()'.includes(ch)) {
      return ch === '`' ? 'command substitution is not simulated' : ch === '(' || ch === ')' ? 'subshells are not simulated' : 'redirections are not simulated';
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return 'unterminated quoted string';
  if (inWord) words.push(cur);
  return words;
}
