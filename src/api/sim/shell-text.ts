// The text filters of the `sh -c` subset: rev, grep, wc, head, sort and tr over a pipe (the command
// before them in a pipeline) or files, as the docs' examples use them (the Indexed Job's `rev
// /input/data.txt`, `... | grep PATTERN`, `... | wc -l`). Output, messages and exit codes are busybox's
// (util-linux/rev.c, findutils/grep.c, coreutils/{wc,head,sort,tr}.c): a file that cannot be opened is
// `NAME: FILE: No such file or directory` (bb_simple_perror_msg), grep exits 1 when nothing matched and
// 2 when a file could not be read, wc pads its counts to 9 unless it prints one count of one input.
import type { CommandOutput } from './shell-commands.ts';

export const textCommands: ReadonlySet<string> = new Set(['rev', 'grep', 'wc', 'head', 'sort', 'tr']);

/** What a filter reads: the pipe (undefined when standard input is no pipe) and the container's files. */
export interface TextInput {
  stdin: string | undefined;
  read(path: string): Buffer | { error: string };
}

interface Parsed {
  flags: Set<string>;
  values: Map<string, string>;
  operands: string[];
}

/** Per command: its flag letters, and those that take a value. */
const optionLetters: Readonly<Record<string, { flags: string; valued: string }>> = {
  rev: { flags: '', valued: '' },
  grep: { flags: 'ivcqnEFxwsh', valued: 'e' },
  wc: { flags: 'lwc', valued: '' },
  head: { flags: '', valued: 'nc' },
  sort: { flags: 'rnu', valued: '' },
  tr: { flags: 'd', valued: '' },
};

/** getopt over leading options (`-in`, `-n5`, `-n 5`, head's legacy `-5`), up to `--` or the first operand. */
function parseOptions(name: string, args: readonly string[]): Parsed | { error: string } {
  const { flags: known, valued } = optionLetters[name] ?? { flags: '', valued: '' };
  const out: Parsed = { flags: new Set(), values: new Map(), operands: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    if (name === 'head' && /^-\d+$/.test(a)) {
      out.values.set('n', a.slice(1));
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a[j] as string;
      if (valued.includes(f)) {
        const value = j + 1 < a.length ? a.slice(j + 1) : args[++i];
        if (value === undefined) return { error: `option requires an argument -- '${f}'` };
        out.values.set(f, value);
        break;
      }
      if (!known.includes(f)) return { error: `unrecognized option: ${f}` };
      out.flags.add(f);
    }
  }
  out.operands = args.slice(i);
  return out;
}

/**
 * Why the subset refuses this command line (as written), else undefined: an option it does not simulate,
 * reading the container's own standard input (no file, not in a pipe), or a form it does not read.
 */
export function textCommandRefusal(name: string, args: readonly string[], piped: boolean): string | undefined {
  const o = parseOptions(name, args);
  if ('error' in o) return o.error;
  const operands = name === 'grep' && !o.values.has('e') ? o.operands.slice(1) : name === 'tr' ? [] : o.operands;
  if (name === 'grep' && !o.values.has('e') && o.operands.length === 0) return 'a pattern is needed';
  if (name === 'tr' && o.operands.length !== (o.flags.has('d') ? 1 : 2)) return o.flags.has('d') ? 'one set is needed' : 'two sets are needed';
  if ((name === 'sort' || name === 'head') && operands.length > 1) return 'more than one file is not simulated';
  if (name === 'sort' && operands.length > 0) return 'sorting a file is not simulated';
  if (!piped && (operands.length === 0 || operands.includes('-'))) return 'reading standard input is not simulated';
  return undefined;
}

/** Runs filter `name` (one of textCommands) over its operands or the pipe. */
export function runText(name: string, args: readonly string[], input: TextInput): CommandOutput {
  const o = parseOptions(name, args);
  // kubectl exec runs any command line; one outside what is simulated says so (grep's trouble is status 2).
  const why = 'error' in o ? o.error : textCommandRefusal(name, args, true);
  if (why !== undefined || 'error' in o) return { out: '', err: `${name}: ${why}\n`, status: name === 'grep' ? 2 : 1 };
  switch (name) {
    case 'rev':
      return eachInput(name, o.operands, input, (text) => rev(text));
    case 'grep':
      return grep(o, input);
    case 'wc':
      return wc(o, input);
    case 'head':
      return eachInput(name, o.operands, input, (text) => head(text, o));
    case 'sort':
      return { out: sort(input.stdin ?? '', o.flags), status: 0 };
    case 'tr':
      return { out: tr(input.stdin ?? '', o), status: 0 };
    default:
      return { out: '', err: `sh: ${name}: not found\n`, status: 127 };
  }
}

type Source = { name: string; text: string } | { name: string; error: string };

/** Each operand's text (`-` or none: the pipe), or why it could not be read. */
function sources(operands: readonly string[], input: TextInput): Source[] {
  const names = operands.length === 0 ? ['-'] : operands;
  return names.map((name) => {
    if (name === '-') return input.stdin === undefined ? { name, error: 'reading standard input is not simulated' } : { name, text: input.stdin };
    const data = input.read(name);
    return Buffer.isBuffer(data) ? { name, text: data.toString() } : { name, error: data.error };
  });
}

/** bb_simple_perror_msg's `NAME: FILE: error` (the pipe has no name to give). */
function failure(command: string, s: { name: string; error: string }): string {
  return s.name === '-' ? `${command}: ${s.error}\n` : `${command}: ${s.name}: ${s.error}\n`;
}

/** Applies `each` to every input in turn; an input that cannot be read is reported and makes the status 1. */
function eachInput(name: string, operands: readonly string[], input: TextInput, each: (text: string) => string): CommandOutput {
  let out = '';
  let err = '';
  for (const s of sources(operands, input)) {
    if ('error' in s) err += failure(name, s);
    else out += each(s.text);
  }
  return err ? { out, err, status: 1 } : { out, status: 0 };
}

/** Lines as fgets reads them: each with its newline, a last one without. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** busybox strrev: each line's characters backwards, its newline kept at the end. */
function rev(text: string): string {
  return lines(text)
    .map((l) => {
      const nl = l.endsWith('\n');
      return [...(nl ? l.slice(0, -1) : l)].reverse().join('') + (nl ? '\n' : '');
    })
    .join('');
}

function head(text: string, o: Parsed): string {
  const bytes = o.values.get('c');
  if (bytes !== undefined) return Buffer.from(text).subarray(0, Number(bytes)).toString();
  return lines(text).slice(0, Number(o.values.get('n') ?? 10)).join('');
}

/** A basic regular expression (grep without -E) as a JavaScript one: \( \) \{ \} \| \+ \? are the operators, ( ) { } | + ? literal. */
function basicToExtended(re: string): string {
  let out = '';
  for (let i = 0; i < re.length; i++) {
    const ch = re[i] as string;
    if (ch === '\\' && i + 1 < re.length) {
      const next = re[++i] as string;
      out += '(){}|+?'.includes(next) ? next : `\\${next}`;
    } else out += '(){}|+?'.includes(ch) ? `\\${ch}` : ch;
  }
  return out;
}

const posixClasses: Readonly<Record<string, string>> = { alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: ' \\t\\n\\r\\f\\v', blank: ' \\t', punct: '!-\\/:-@\\[-`{-~', xdigit: '0-9A-Fa-f' };

function grepMatcher(o: Parsed, pattern: string): (line: string) => boolean {
  const icase = o.flags.has('i');
  if (o.flags.has('F')) {
    const needle = icase ? pattern.toLowerCase() : pattern;
    return (line) => (o.flags.has('x') ? (icase ? line.toLowerCase() : line) === needle : (icase ? line.toLowerCase() : line).includes(needle));
  }
  let source = (o.flags.has('E') ? pattern : basicToExtended(pattern)).replace(/\[:([a-z]+):\]/g, (m, c: string) => posixClasses[c] ?? m);
  if (o.flags.has('w')) source = `(?<![A-Za-z0-9_])(?:${source})(?![A-Za-z0-9_])`;
  if (o.flags.has('x')) source = `^(?:${source})$`;
  const re = new RegExp(source, icase ? 'i' : '');
  return (line) => re.test(line);
}

/** grep [-ivcqnEFxwsh] [-e PATTERN | PATTERN] [FILE]...: status 0 when a line was selected, 1 when none, 2 when a file could not be read. */
function grep(o: Parsed, input: TextInput): CommandOutput {
  const pattern = o.values.get('e') ?? (o.operands[0] as string);
  const operands = o.values.has('e') ? o.operands : o.operands.slice(1);
  let matches: (line: string) => boolean;
  try {
    matches = grepMatcher(o, pattern);
  } catch {
    return { out: '', err: `grep: bad regex '${pattern}'\n`, status: 2 };
  }
  const named = (operands.length > 1 || o.flags.has('H')) && !o.flags.has('h');
  const count = o.flags.has('c');
  const numbered = o.flags.has('n') && !count && !o.flags.has('q');
  let out = '';
  let err = '';
  let selected = 0;
  let failed = false;
  for (const s of sources(operands, input)) {
    const file = s.name === '-' ? '(standard input)' : s.name;
    if ('error' in s) {
      if (!o.flags.has('s')) err += failure('grep', s);
      failed = true;
      continue;
    }
    let n = 0;
    lines(s.text).forEach((l, i) => {
      const line = l.endsWith('\n') ? l.slice(0, -1) : l;
      if (matches(line) === o.flags.has('v')) return;
      n++;
      if (!count) out += `${named ? `${file}:` : ''}${numbered ? `${i + 1}:` : ''}${line}\n`;
    });
    if (count) out += `${named ? `${file}:` : ''}${n}\n`;
    selected += n;
  }
  if (o.flags.has('q')) return { out: '', ...(err ? { err } : {}), status: selected > 0 ? 0 : failed ? 2 : 1 };
  const status = failed ? 2 : selected > 0 ? 0 : 1;
  return err ? { out, err, status } : { out, status };
}

/** wc [-lwc] [FILE]...: lines, words, bytes, as `%9llu` columns, or one bare count of one input; a total line for several files. */
function wc(o: Parsed, input: TextInput): CommandOutput {
  const shown = (['l', 'w', 'c'] as const).filter((f) => o.flags.has(f));
  const columns = shown.length === 0 ? (['l', 'w', 'c'] as const) : shown;
  const srcs = sources(o.operands, input);
  const bare = columns.length === 1 && srcs.length === 1;
  const totals = { l: 0, w: 0, c: 0 };
  const row = (counts: Record<'l' | 'w' | 'c', number>, name: string): string => {
    const cells = columns.map((f, i) => (bare ? String(counts[f]) : `${i > 0 ? ' ' : ''}${String(counts[f]).padStart(9)}`)).join('');
    return `${cells}${name === '-' ? '' : ` ${name}`}\n`;
  };
  let out = '';
  let err = '';
  for (const s of srcs) {
    if ('error' in s) {
      err += failure('wc', s);
      continue;
    }
    const counts = { l: (s.text.match(/\n/g) ?? []).length, w: s.text.split(/[ \t\n\v\f\r]+/).filter((w) => w !== '').length, c: Buffer.byteLength(s.text) };
    for (const f of ['l', 'w', 'c'] as const) totals[f] += counts[f];
    out += row(counts, s.name);
  }
  if (srcs.length > 1) out += row(totals, 'total');
  return err ? { out, err, status: 1 } : { out, status: 0 };
}

/** sort [-rnu]: bytewise (the C locale), -n by the leading number with ties bytewise, -u keeps the first of equal lines. */
function sort(text: string, flags: ReadonlySet<string>): string {
  const bytewise = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const numeric = (s: string): number => Number(/^\s*[-+]?\d*\.?\d+/.exec(s)?.[0] ?? 0);
  const key = (a: string, b: string): number => (flags.has('n') ? Math.sign(numeric(a) - numeric(b)) : bytewise(a, b));
  const sign = flags.has('r') ? -1 : 1;
  const sorted = lines(text)
    .map((l) => (l.endsWith('\n') ? l.slice(0, -1) : l))
    .sort((a, b) => sign * (key(a, b) || (flags.has('u') ? 0 : bytewise(a, b))));
  const kept = flags.has('u') ? sorted.filter((l, i) => i === 0 || key(sorted[i - 1] as string, l) !== 0) : sorted;
  return kept.map((l) => `${l}\n`).join('');
}

const trEscapes: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\' };
const trClasses: Readonly<Record<string, string>> = { alpha: 'A-Za-z', digit: '0-9', alnum: '0-9A-Za-z', upper: 'A-Z', lower: 'a-z', space: '\t\n\v\f\r ', blank: '\t ' };

/** A tr set as its characters: ranges a-z, [:class:], backslash escapes. */
function trSet(spec: string): string[] {
  const text = spec.replace(/\[:([a-z]+):\]/g, (m, c: string) => trClasses[c] ?? m);
  const chars: string[] = [];
  for (let i = 0; i < text.length; i++) {
    let ch = text[i] as string;
    if (ch === '\\' && i + 1 < text.length) ch = trEscapes[text[++i] as string] ?? (text[i] as string);
    if (text[i + 1] === '-' && i + 2 < text.length) {
      const end = (text[i + 2] as string).charCodeAt(0);
      for (let c = ch.charCodeAt(0); c <= end; c++) chars.push(String.fromCharCode(c));
      i += 2;
    } else chars.push(ch);
  }
  return chars;
}

/** tr SET1 SET2 (SET2 padded with its last character) or tr -d SET1. */
function tr(text: string, o: Parsed): string {
  const from = trSet(o.operands[0] ?? '');
  if (o.flags.has('d')) return [...text].filter((c) => !from.includes(c)).join('');
  const to = trSet(o.operands[1] ?? '');
  const map = new Map(from.map((c, i) => [c, to[Math.min(i, to.length - 1)] ?? c]));
  return [...text].map((c) => map.get(c) ?? c).join('');
}
