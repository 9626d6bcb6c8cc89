// Which commands, and which of their arguments, the `sh -c` subset runs: the parser refuses the rest
// (OutsideSubset), so the behaviour model falls back to its default for the script.
import { isIP } from 'node:net';
import { basename, literal, OutsideSubset } from './shell-ast.ts';
import type { Word } from './shell-ast.ts';
import { date, sleepMs, testsFiles } from './shell-commands.ts';
import { pipedTail, tailOptions } from './shell-tail.ts';
import { textCommandRefusal, textCommands } from './shell-text.ts';

/**
 * Commands that read or write the container's files or ask the cluster (cat, touch, rm, nslookup): the kubelet answers them
 * (ShellContext.command) for a running container; a script using one is never evaluated ahead.
 */
export const containerCommands: ReadonlySet<string> = new Set(['cat', 'ls', 'pwd', 'id', 'nslookup', 'touch', 'rm']);
const testCommands = new Set(['test', '[', '[[']);
/** Whether the kubelet answers `argv`: a container command, or a test that asks about files. */
export function asksContainer(argv: readonly string[]): boolean {
  const name = basename(argv[0] ?? '');
  return containerCommands.has(name) || (testCommands.has(name) && testsFiles(argv.slice(1)));
}
/** Commands the subset runs; in $(...) only those that print at once. */
export const scriptCommands = new Set([':', 'true', 'false', 'echo', 'printf', 'sleep', 'exit', 'trap', 'wait', 'nvidia-smi', '[', '[[', 'test', 'env', 'printenv', 'break', 'continue', 'export', 'unset', 'date', 'hostname', 'seq', 'expr', 'set', 'exec', 'return', 'tail', 'cd', ...containerCommands, ...textCommands]);
export const substCommands = new Set([':', 'true', 'false', 'echo', 'printf', 'date', 'hostname', 'seq', 'expr', 'test', '[', '[[', 'env', 'printenv', 'cd', ...containerCommands, ...textCommands]);
/** Special built-ins: found before functions, so no function may take their names. */
export const specialBuiltins = new Set([':', 'break', 'continue', 'exit', 'export', 'return', 'set', 'trap', 'unset', 'exec', 'wait', '.', 'eval', 'readonly', 'shift', 'times']);
/** Whether a redirection error ends the shell, as for a special built-in (XCU 2.8.1), rather than failing the command. */
export function isSpecialBuiltin(name: string): boolean {
  return specialBuiltins.has(name);
}

/**
 * Throws OutsideSubset unless a simple command's words name an allowed command and arguments the subset
 * takes. `piped`: its standard input is a pipe. `parse` checks a script an argument holds (trap's action).
 */
export function checkCommand(words: readonly Word[], allowed: ReadonlySet<string>, parse: (script: string) => void, piped = false): void {
  const first = words[0];
  if (!first) return;
  const name = literal(first);
  if (name === undefined) throw new OutsideSubset('a command name that is expanded');
  if (!allowed.has(basename(name))) throw new OutsideSubset(`${name}: not simulated`);
  checkArgs(basename(name), words.slice(1), parse, piped);
}

/**
 * Literal arguments a command would take outside the subset (it would read files, print its state, trace).
 * `piped`: the command reads a pipe, not the container's standard input, when it reads its standard input.
 */
function checkArgs(name: string, words: readonly Word[], parse: (script: string) => void, piped: boolean): void {
  const args = words.map(literal);
  const known = args.every((a) => a !== undefined) ? (args as string[]) : undefined;
  const outside = (why: string): never => {
    throw new OutsideSubset(`${name}: ${why}`);
  };
  switch (name) {
    case 'trap': {
      const action = args[0];
      if (action === undefined || args.length < 2) outside('an action and signals are needed');
      else if (action !== '-' && action !== '') parse(action);
      return;
    }
    case 'wait':
      if (args.length > 0) outside('waiting for one job');
      return;
    case 'env':
      if (args.length > 0) outside('running a command');
      return;
    case 'nvidia-smi':
      if (!known || known.length !== 1 || (known[0] !== '-L' && known[0] !== '--list-gpus')) outside('only -L');
      return;
    case 'test':
    case '[':
    case '[[':
      if (args.some((a) => a === '-a' || a === '-o')) outside('-a and -o');
      return;
    case 'date':
      if (known && date(known, 0) === undefined) outside('an option outside the subset');
      return;
    case 'sleep':
      if (known && sleepMs(known) === undefined) outside('not a duration');
      return;
    case 'set':
      if (args.length === 0 || args.some((a) => a === undefined || /^[-+][a-z]*[xvn]/.test(a))) outside('tracing or listing');
      return;
    case 'exec':
      checkCommand(words, scriptCommands, parse);
      return;
    case 'cat':
      // The container's standard input (no operand, `-`) and options are outside, as is anything but reading whole files.
      if (piped ? args.some((a) => a !== undefined && a.startsWith('-') && a !== '-') : args.length === 0 || args.some((a) => a !== undefined && a.startsWith('-'))) outside('standard input or an option');
      return;
    case 'tail':
      if (piped && known !== undefined && pipedTail(known)) return;
      if (known === undefined || 'error' in tailOptions(known)) outside('options outside -f, -F, -n, -c, -s, or not one file');
      return;
    case 'rev':
    case 'grep':
    case 'wc':
    case 'head':
    case 'sort':
    case 'tr': {
      const why = known && textCommandRefusal(name, known, piped);
      if (why) outside(why);
      return;
    }
    case 'ls':
      if (args.some((a) => a !== undefined && /^-.*[^aA1lR-]/.test(a))) outside('options outside -a, -A, -1, -l and -R');
      return;
    case 'nslookup':
      if (args.length === 0 || args.length > 2 || args.some((a) => a !== undefined && (a.startsWith('-') || isIP(a) !== 0))) outside('options, a reverse lookup');
      return;
    default:
  }
}

/** Commands that wait: a pipe from one is not simulated (its commands run one after another). */
export const waitingCommands: ReadonlySet<string> = new Set(['sleep', 'wait', 'tail']);
