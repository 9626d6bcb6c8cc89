// The parts of cel-go's extension libraries Kubernetes' base environment enables that cel-js lacks:
// ext.Sets (sets.contains, sets.equivalent, sets.intersects; 1.29) and, of ext.Strings version 2,
// strings.quote and string.format (with its en_US number grouping for %f and its error texts). Their
// namespaces (`sets`, `strings`) are constants of a type of their own, on which the functions are methods.
// Upstream: cel-go ext/sets.go, ext/strings.go (quote), ext/formatting.go; apiserver/pkg/cel/environment/base.go.
import type { Environment } from '@marcbachmann/cel-js';
import { formatFloatG, goQuote } from '../core/index.ts';

/** The `sets` namespace. */
export class CelSetsNamespace {}
/** The `strings` namespace. */
export class CelStringsNamespace {}

/** CEL's equality across numeric types (1 == 1.0 == 1u) and structurally for lists and maps. */
function celEqual(a: unknown, b: unknown): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) return Number(a) === Number(b) && (typeof a !== 'bigint' || typeof b !== 'bigint' || a === b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => celEqual(x, b[i]));
  if (a instanceof Map && b instanceof Map) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && celEqual(v, b.get(k)));
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || a instanceof Map || b instanceof Map || Array.isArray(a) || Array.isArray(b)) return false;
  // Maps as CEL values decoded from JSON (plain objects): the same keys, values equal as CEL compares them.
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && celEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const contains = (list: readonly unknown[], sub: readonly unknown[]): boolean => sub.every((x) => list.some((y) => celEqual(x, y)));

/** cel-go's strings.quote: the string in double quotes, with \a \b \f \n \r \t \v \\ \" escaped. */
export function celQuote(s: string): string {
  const escapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };
  let out = '"';
  for (const c of s) out += escapes[c] ?? c;
  return `${out}"`;
}

/** A value's CEL type name, as the format errors name it. */
function typeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v === null || v === undefined) return 'null_type';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map || typeof v === 'object') return 'map';
  return typeof v;
}

/** cel-go spells types `map(string, dyn)`, `kubernetes.Quantity`. */
export function celGoTypeName(t: string): string {
  return t.replaceAll('<', '(').replaceAll('>', ')').replace(/\b(Quantity|Semver)\b/g, 'kubernetes.$1');
}

class FormatError extends Error {}

/** What string(double) gives: strconv.FormatFloat(v, 'g', -1, 64). */
const doubleText = formatFloatG;

const entries = (v: unknown): [unknown, unknown][] => (v instanceof Map ? [...v] : Object.entries(v as object));

/** clauseForType + quoteForCEL: a list or map member as a CEL literal. */
function memberText(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return Number.isFinite(v) ? v.toFixed(6) : goQuote(doubleText(v));
  if (v instanceof Uint8Array) return `b${goQuote(Buffer.from(v).toString('latin1'))}`;
  return stringClause(v);
}

/** The %s clause (FormatString). */
function stringClause(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(memberText).join(', ')}]`;
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return doubleText(v);
  if (typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v instanceof Map || (typeof v === 'object' && v.constructor === Object)) {
    const pairs = entries(v).map(([k, value]) => {
      if (typeof k !== 'string' && typeof k !== 'bigint' && typeof k !== 'boolean') throw new FormatError(`no formatting function for map key of type ${typeName(k)}`);
      return { key: typeof k === 'string' ? goQuote(k) : String(k), value: memberText(value) };
    });
    pairs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return `{${pairs.map((p) => `${p.key}:${p.value}`).join(', ')}}`;
  }
  throw new FormatError(`string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${typeName(v)}`);
}

/** en_US digits: thousands grouped with commas (golang.org/x/text's printer). */
const grouped = (fixed: string): string => fixed.replace(/^(-?\d+)/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));

const floatOf = (v: unknown, clause: string): number => {
  if (typeof v === 'number') return v;
  if (v === 'NaN' || v === 'Infinity' || v === '-Infinity') return Number(v);
  throw new FormatError(`${clause} clause can only be used on doubles, was given ${typeName(v)}`);
};

/** Go's %e: one digit, the fraction to `precision` digits, a signed exponent of two digits at least. */
function scientific(v: number, precision: number): string {
  if (!Number.isFinite(v)) return doubleText(v);
  const [mantissa = '', exponent = '0'] = v.toExponential(precision).split('e');
  const exp = Number(exponent);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

function integerClause(v: unknown, radix: number, what: string, allowBool = false): string {
  if (typeof v === 'bigint') return v.toString(radix);
  if (allowBool && typeof v === 'boolean') return v ? '1' : '0';
  throw new FormatError(`${what}, was given ${typeName(v)}`);
}

/** One clause's text: the verb at formatStr[0..] after its optional precision; how many characters it took. */
function clause(spec: string, v: unknown): { read: number; text: string } {
  let i = 0;
  let precision: number | undefined;
  if (spec[0] === '.') {
    const m = /^\.(\d*)/.exec(spec) as RegExpExecArray;
    if (m[0].length >= spec.length) throw new FormatError('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
    precision = m[1] === '' ? 0 : Number(m[1]);
    i = m[0].length;
  }
  const verb = spec[i] ?? '';
  const during = (f: () => string): string => {
    try {
      return f();
    } catch (error) {
      if (error instanceof FormatError) throw new FormatError(`error during formatting: ${error.message}`);
      throw error;
    }
  };
  const read = i + 1;
  switch (verb) {
    case 's':
      return { read, text: during(() => stringClause(v)) };
    case 'd':
      return { read, text: during(() => integerClause(v, 10, 'decimal clause can only be used on integers')) };
    case 'f':
      return { read, text: during(() => grouped(floatOf(v, 'fixed-point').toFixed(precision ?? 6))) };
    // cel-go writes the precision into the width ("%6e"): the fraction always has six digits.
    case 'e':
      return { read, text: during(() => scientific(floatOf(v, 'scientific'), 6)) };
    case 'b':
      return { read, text: during(() => integerClause(v, 2, 'only integers and bools can be formatted as binary', true)) };
    case 'o':
      return { read, text: during(() => integerClause(v, 8, 'octal clause can only be used on integers')) };
    case 'x':
    case 'X': {
      const text = during(() => {
        if (typeof v === 'string') return Buffer.from(v, 'utf8').toString('hex');
        if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
        return integerClause(v, 16, 'only integers, byte buffers, and strings can be formatted as hex');
      });
      return { read, text: verb === 'X' ? text.toUpperCase() : text };
    }
    default:
      throw new FormatError(`could not parse formatting clause: unrecognized formatting clause ${goQuote(verb)}`);
  }
}

/** string.format(list): parseFormatString. */
export function celFormat(format: string, args: readonly unknown[]): string {
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < format.length; ) {
    if (format[i] !== '%') {
      out += format[i];
      i++;
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (argIndex >= args.length) throw new FormatError(`index ${argIndex} out of range`);
    if (i + 1 >= format.length) throw new FormatError('unexpected end of string');
    const c = clause(format.slice(i + 1), args[argIndex]);
    out += c.text;
    i += 1 + c.read;
    argIndex++;
  }
  return out;
}

/** Registers `sets`, `strings.quote` and `string.format` on `env`. */
export function withExtensionLibraries(env: Environment): Environment {
  return env
    .registerType('kubernetes.SetsNamespace', CelSetsNamespace)
    .registerConstant('sets', 'kubernetes.SetsNamespace', new CelSetsNamespace())
    .registerFunction('kubernetes.SetsNamespace.contains(list, list): bool', (_: unknown, a: unknown[], b: unknown[]) => contains(a, b))
    .registerFunction('kubernetes.SetsNamespace.equivalent(list, list): bool', (_: unknown, a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a))
    .registerFunction('kubernetes.SetsNamespace.intersects(list, list): bool', (_: unknown, a: unknown[], b: unknown[]) => a.some((x) => b.some((y) => celEqual(x, y))))
    .registerType('kubernetes.StringsNamespace', CelStringsNamespace)
    .registerConstant('strings', 'kubernetes.StringsNamespace', new CelStringsNamespace())
    .registerFunction('kubernetes.StringsNamespace.quote(string): string', (_: unknown, s: string) => celQuote(s))
    .registerFunction('string.format(list): string', (format: string, args: unknown[]) => celFormat(format, args));
}
