// The commands of the `sh -c` subset that only compute output from their arguments (and the time):
// echo, printf, date, seq, expr, test/[. Output is the bytes the command writes, errors included
// (a container's standard error goes to its log too). Messages are busybox's (the usual image of a
// simulated shell script), checked against busybox's coreutils/{echo,printf,date,seq,expr,test}.c.
import { lookupTable } from '../../core/index.ts';

export interface CommandOutput {
  out: string;
  /** What it writes on standard error (its diagnostics). */
  err?: string;
  status: number;
}

const ok = (out: string): CommandOutput => ({ out, status: 0 });

const escapes: Readonly<Record<string, string>> = lookupTable({ n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\\': '\\', e: '\x1b' });

/** Backslash escapes as echo -e and printf's format read them; `stop` is set by \c (no more output). */
function unescape(text: string): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch !== '\\' || i + 1 >= text.length) {
      out += ch;
      continue;
    }
    const next = text[++i] as string;
    if (next === 'c') return { text: out, stop: true };
    const octal = /^0?[0-7]{1,3}/.exec(text.slice(i))?.[0];
    if (octal && (next === '0' || /[1-7]/.test(next))) {
      out += String.fromCharCode(parseInt(octal, 8) & 255);
      i += octal.length - 1;
    } else out += escapes[next] ?? `\\${next}`;
  }
  return { text: out, stop: false };
}

/** busybox echo: options -n, -e, -E (no escapes by default, unlike dash). */
export function echo(args: readonly string[]): CommandOutput {
  let newline = true;
  let interpret = false;
  let i = 0;
  for (; i < args.length && /^-[neE]+$/.test(args[i] as string); i++) {
    for (const f of (args[i] as string).slice(1)) {
      if (f === 'n') newline = false;
      else interpret = f === 'e';
    }
  }
  const text = args.slice(i).join(' ');
  if (!interpret) return ok(newline ? `${text}\n` : text);
  const u = unescape(text);
  return ok(u.stop || !newline ? u.text : `${u.text}\n`);
}

/** printf FORMAT [ARG...]: %s %d %i %u %x %o %c %% with width and precision; the format repeats for extra arguments. */
export function printf(args: readonly string[]): CommandOutput {
  const [format, ...rest] = args;
  if (format === undefined) return { out: '', err: 'printf: usage: printf FORMAT [ARGUMENT...]\n', status: 1 };
  let out = '';
  let err = '';
  let status = 0;
  let argi = 0;
  do {
    const start = argi;
    const body = format.replace(/%([-+ 0#]*)(\d*)(?:\.(\d+))?([sdiuxXoc%b])/g, (_m, flags: string, width: string, prec: string | undefined, conv: string) => {
      if (conv === '%') return '%';
      const arg = rest[argi++] ?? '';
      let s: string;
      if (conv === 's' || conv === 'b' || conv === 'c') {
        s = conv === 'b' ? unescape(arg).text : conv === 'c' ? arg.slice(0, 1) : arg;
        if (prec !== undefined && conv === 's') s = s.slice(0, Number(prec));
      } else {
        const n = arg === '' ? 0 : Number(arg);
        if (!Number.isFinite(n)) {
          err += `printf: invalid number '${arg}'\n`;
          status = 1;
        }
        const v = Math.trunc(Number.isFinite(n) ? n : 0);
        s = conv === 'x' ? v.toString(16) : conv === 'X' ? v.toString(16).toUpperCase() : conv === 'o' ? v.toString(8) : String(v);
      }
      const w = Number(width || 0);
      if (s.length >= w) return s;
      if (flags.includes('-')) return s.padEnd(w);
      return flags.includes('0') && conv !== 's' ? s.padStart(w, '0') : s.padStart(w);
    });
    const u = unescape(body);
    out += u.text;
    if (u.stop || argi === start) break;
  } while (argi < rest.length);
  return err ? { out, err, status } : { out, status };
}

const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, w = 2, c = '0'): string => String(n).padStart(w, c);

/** strftime in UTC (the container has no TZ): the conversions busybox and GNU date both know. */
export function strftime(ms: number, format: string): string {
  const d = new Date(ms);
  return format.replace(/%([%aAbBhdeHIjmMnpsSTtyYzZFDRN:])(z)?/g, (m, c: string, z?: string) => {
    switch (c) {
      case '%': return '%';
      case 'a': return days[d.getUTCDay()] ?? '';
      case 'A': return new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' }).format(d);
      case 'b':
      case 'h': return months[d.getUTCMonth()] ?? '';
      case 'B': return new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' }).format(d);
      case 'd': return pad(d.getUTCDate());
      case 'e': return pad(d.getUTCDate(), 2, ' ');
      case 'H': return pad(d.getUTCHours());
      case 'I': return pad(((d.getUTCHours() + 11) % 12) + 1);
      case 'j': return pad(Math.floor((ms - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1, 3);
      case 'm': return pad(d.getUTCMonth() + 1);
      case 'M': return pad(d.getUTCMinutes());
      case 'n': return '\n';
      case 't': return '\t';
      case 'p': return d.getUTCHours() < 12 ? 'AM' : 'PM';
      case 's': return String(Math.floor(ms / 1000));
      case 'S': return pad(d.getUTCSeconds());
      case 'T': return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
      case 'y': return pad(d.getUTCFullYear() % 100);
      case 'Y': return String(d.getUTCFullYear());
      case 'z': return '+0000';
      case ':': return z ? '+00:00' : m;
      case 'Z': return 'UTC';
      case 'F': return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
      case 'D': return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${pad(d.getUTCFullYear() % 100)}`;
      case 'R': return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
      case 'N': return `${pad(d.getUTCMilliseconds(), 3)}000000`;
      default: return m;
    }
  });
}

/** date's default format, `Mon Dec  7 05:40:01 UTC 2026` (C locale; GNU and busybox alike). */
export const defaultDateFormat = '%a %b %e %H:%M:%S %Z %Y';

/** date [-u] [-R] [-I[seconds]] [+FORMAT] at `ms`; undefined for options outside the subset. */
export function date(args: readonly string[], ms: number): CommandOutput | undefined {
  let format = defaultDateFormat;
  for (const a of args) {
    if (a === '-u' || a === '--utc') continue;
    if (a.startsWith('+')) format = a.slice(1);
    else if (a === '-R') format = '%a, %d %b %Y %H:%M:%S %z';
    else if (a === '-I' || a === '-Idate') format = '%F';
    else if (a === '-Iseconds') format = '%FT%T%:z';
    else return undefined;
  }
  return ok(`${strftime(ms, format)}\n`);
}

function integer(s: string): number | undefined {
  return /^\s*[-+]?\d+\s*$/.test(s) ? Number(s) : undefined;
}

/** seq [FIRST [INCREMENT]] LAST, integers only. */
export function seq(args: readonly string[]): CommandOutput {
  const nums = args.map(integer);
  if (args.length < 1 || args.length > 3 || nums.some((n) => n === undefined)) {
    const bad = args.find((a) => integer(a) === undefined);
    return { out: '', err: bad === undefined ? 'seq: usage: seq [-w] [-s SEP] [FIRST [INC]] LAST\n' : `seq: invalid number '${bad}'\n`, status: 1 };
  }
  const [a, b, c] = nums as number[];
  const [first, inc, last] = args.length === 1 ? [1, 1, a as number] : args.length === 2 ? [a as number, 1, b as number] : [a as number, b as number, c as number];
  if (inc === 0) return ok('');
  let out = '';
  for (let n = first; inc > 0 ? n <= last : n >= last; n += inc) out += `${n}\n`;
  return ok(out);
}

/** expr with one integer or string comparison or arithmetic operator (expr A OP B), or a lone value. */
export function expr(args: readonly string[]): CommandOutput {
  const result = (v: string): CommandOutput => ({ out: `${v}\n`, status: v === '' || v === '0' ? 1 : 0 });
  if (args.length === 1) return result(args[0] as string);
  if (args.length !== 3) return { out: '', err: 'expr: syntax error\n', status: 2 };
  const [l, op, r] = args as [string, string, string];
  const a = integer(l);
  const b = integer(r);
  const bothInt = a !== undefined && b !== undefined;
  const cmp = (x: number): string => String(Number(x));
  switch (op) {
    case '+': case '-': case '*': case '/': case '%':
      if (!bothInt) return { out: '', err: 'expr: non-numeric argument\n', status: 2 };
      if ((op === '/' || op === '%') && b === 0) return { out: '', err: 'expr: division by zero\n', status: 2 };
      return result(String(op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : op === '/' ? Math.trunc(a / b) : a % b));
    case '=': case '!=': case '<': case '<=': case '>': case '>=': {
      const c = bothInt ? a - b : l < r ? -1 : l > r ? 1 : 0;
      const t = op === '=' ? c === 0 : op === '!=' ? c !== 0 : op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
      return result(cmp(t ? 1 : 0));
    }
    default:
      return { out: '', err: 'expr: syntax error\n', status: 2 };
  }
}

const intOps = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
/** Operators of test that ask about files. */
export const fileTestOps = new Set(['-e', '-f', '-d', '-r', '-w', '-x', '-s', '-L', '-h', '-p', '-S', '-b', '-c', '-g', '-u', '-k', '-t', '-O', '-G', '-nt', '-ot', '-ef']);
/** Those the simulated files answer: is it there, a file, a directory, not empty. */
const answeredFileOps = new Set(['-e', '-f', '-d', '-s']);

/** What test learns of a path (stat, links followed); undefined: no such file. */
export type PathStat = (path: string) => { kind: 'file' | 'dir'; size: number } | undefined;
/** The forms test runs in: test EXPR, [ EXPR ] and busybox ash's bash-compatible [[ EXPR ]]. */
export type TestForm = 'test' | '[' | '[[';

class TestError extends Error {}

function testInt(s: string): number {
  const n = integer(s);
  if (n === undefined) throw new TestError(`${s}: bad number`);
  return n;
}

function testFile(op: string, path: string, stat: PathStat | undefined): boolean {
  if (!stat || !answeredFileOps.has(op)) throw new TestError(`${op}: files are not simulated${stat ? ' (test answers -e, -f, -d and -s)' : ''}`);
  const found = stat(path);
  return op === '-e' ? found !== undefined : op === '-s' ? (found?.size ?? 0) > 0 : found?.kind === (op === '-f' ? 'file' : 'dir');
}

function test1(args: readonly string[], stat: PathStat | undefined): boolean {
  switch (args.length) {
    case 0:
      return false;
    case 1:
      return (args[0] as string) !== '';
    case 2: {
      const [op, a] = args as [string, string];
      if (op === '!') return !test1([a], stat);
      if (op === '-n') return a !== '';
      if (op === '-z') return a === '';
      if (fileTestOps.has(op)) return testFile(op, a, stat);
      throw new TestError(`${op}: unary operator expected`);
    }
    case 3: {
      const [a, op, b] = args as [string, string, string];
      if (op === '=' || op === '==') return a === b;
      if (op === '!=') return a !== b;
      if (intOps.has(op)) {
        const x = testInt(a);
        const y = testInt(b);
        return op === '-eq' ? x === y : op === '-ne' ? x !== y : op === '-lt' ? x < y : op === '-le' ? x <= y : op === '-gt' ? x > y : x >= y;
      }
      if (a === '!') return !test1([op, b], stat);
      if (a === '(' && b === ')') return test1([op], stat);
      throw new TestError(`${op}: binary operator expected`);
    }
    default:
      if (args[0] === '!') return !test1(args.slice(1), stat);
      throw new TestError('-a and -o are not simulated');
  }
}

/**
 * test EXPR, [ EXPR ] and [[ EXPR ]]: strings, integers, negation and, where `stat` answers them, files;
 * status 2 and busybox's message for a malformed one.
 */
export function test(args: readonly string[], form: TestForm, stat?: PathStat): CommandOutput {
  if (form !== 'test') {
    const close = form === '[' ? ']' : ']]';
    if (args.at(-1) !== close) return { out: '', err: `sh: ${form}: missing ${close}\n`, status: 2 };
    args = args.slice(0, -1);
  }
  try {
    return { out: '', status: test1(args, stat) ? 0 : 1 };
  } catch (e) {
    if (e instanceof TestError) return { out: '', err: `sh: ${e.message}\n`, status: 2 };
    throw e;
  }
}

/** Whether a test command asks about files, which only the kubelet can answer. */
export function testsFiles(args: readonly string[]): boolean {
  return args.some((a) => fileTestOps.has(a));
}

const sleepUnits: Readonly<Record<string, number>> = lookupTable({ '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 });

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
