// The message Go's encoding/json gives for text that is not JSON, as the API server's decoders
// report it: its scanner, state by state, over the text's UTF-8 bytes, stopping at the first byte
// no state takes. Only run on text JSON.parse refused or nested too deep, so it need not be fast.
// Upstream: Go's encoding/json/scanner.go (and sigs.k8s.io/json's copy of it).
import { maxNestingDepth } from './nesting-depth.ts';

type Step = (s: Scanner, c: number) => Result;
type Result = 'continue' | 'error';

// Go's parseObjectKey, parseObjectValue, parseArrayValue.
const Parse = { ObjectKey: 0, ObjectValue: 1, ArrayValue: 2 } as const;
type Parse = (typeof Parse)[keyof typeof Parse];

interface Scanner {
  step: Step;
  parseState: Parse[];
  endTop: boolean;
  error: string | undefined;
  limit: number;
}

/** Go's message for `text`: a syntax error, or nesting past `limit`; undefined for valid JSON within it. */
export function goJsonSyntaxError(text: string, limit = maxNestingDepth): string | undefined {
  const s: Scanner = { step: stateBeginValue, parseState: [], endTop: false, error: undefined, limit };
  for (const c of Buffer.from(text, 'utf8')) if (s.step(s, c) === 'error') return s.error;
  // eof: a space ends a number or literal still open.
  if (s.endTop) return undefined;
  s.step(s, 0x20);
  if (s.endTop) return undefined;
  return s.error ?? 'unexpected end of JSON input';
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

function fail(s: Scanner, c: number, context: string): Result {
  s.step = () => 'error';
  s.error = `invalid character ${quoteChar(c)} ${context}`;
  return 'error';
}

function push(s: Scanner, c: number, state: Parse, next: Step): Result {
  s.parseState.push(state);
  if (s.parseState.length > s.limit) return fail(s, c, 'exceeded max depth');
  s.step = next;
  return 'continue';
}

function pop(s: Scanner): void {
  s.parseState.pop();
  if (s.parseState.length === 0) {
    s.step = stateEndTop;
    s.endTop = true;
  } else s.step = stateEndValue;
}

function stateBeginValueOrEmpty(s: Scanner, c: number): Result {
  if (isSpace(c)) return 'continue';
  if (c === 0x5d) return stateEndValue(s, c);
  return stateBeginValue(s, c);
}

function stateBeginValue(s: Scanner, c: number): Result {
  if (isSpace(c)) return 'continue';
  switch (c) {
    case 0x7b:
      return push(s, c, Parse.ObjectKey, stateBeginStringOrEmpty);
    case 0x5b:
      return push(s, c, Parse.ArrayValue, stateBeginValueOrEmpty);
    case 0x22:
      s.step = stateInString;
      return 'continue';
    case 0x2d:
      s.step = stateNeg;
      return 'continue';
    case 0x30:
      s.step = state0;
      return 'continue';
    case 0x74:
      s.step = literal('true', 1);
      return 'continue';
    case 0x66:
      s.step = literal('false', 1);
      return 'continue';
    case 0x6e:
      s.step = literal('null', 1);
      return 'continue';
  }
  if (c >= 0x31 && c <= 0x39) {
    s.step = state1;
    return 'continue';
  }
  return fail(s, c, 'looking for beginning of value');
}

function stateBeginStringOrEmpty(s: Scanner, c: number): Result {
  if (isSpace(c)) return 'continue';
  if (c === 0x7d) {
    s.parseState[s.parseState.length - 1] = Parse.ObjectValue;
    return stateEndValue(s, c);
  }
  return stateBeginString(s, c);
}

function stateBeginString(s: Scanner, c: number): Result {
  if (isSpace(c)) return 'continue';
  if (c === 0x22) {
    s.step = stateInString;
    return 'continue';
  }
  return fail(s, c, 'looking for beginning of object key string');
}

function stateEndValue(s: Scanner, c: number): Result {
  const n = s.parseState.length;
  if (n === 0) {
    s.step = stateEndTop;
    s.endTop = true;
    return stateEndTop(s, c);
  }
  if (isSpace(c)) {
    s.step = stateEndValue;
    return 'continue';
  }
  switch (s.parseState[n - 1]) {
    case Parse.ObjectKey:
      if (c === 0x3a) {
        s.parseState[n - 1] = Parse.ObjectValue;
        s.step = stateBeginValue;
        return 'continue';
      }
      return fail(s, c, 'after object key');
    case Parse.ObjectValue:
      if (c === 0x2c) {
        s.parseState[n - 1] = Parse.ObjectKey;
        s.step = stateBeginString;
        return 'continue';
      }
      if (c === 0x7d) {
        pop(s);
        return 'continue';
      }
      return fail(s, c, 'after object key:value pair');
    default:
      if (c === 0x2c) {
        s.step = stateBeginValue;
        return 'continue';
      }
      if (c === 0x5d) {
        pop(s);
        return 'continue';
      }
      return fail(s, c, 'after array element');
  }
}

function stateEndTop(s: Scanner, c: number): Result {
  return isSpace(c) ? 'continue' : fail(s, c, 'after top-level value');
}

function stateInString(s: Scanner, c: number): Result {
  if (c === 0x22) s.step = stateEndValue;
  else if (c === 0x5c) s.step = stateInStringEsc;
  else if (c < 0x20) return fail(s, c, 'in string literal');
  return 'continue';
}

function stateInStringEsc(s: Scanner, c: number): Result {
  if ('bfnrt\\/"'.includes(String.fromCharCode(c))) s.step = stateInString;
  else if (c === 0x75) s.step = hexEscape(4);
  else return fail(s, c, 'in string escape code');
  return 'continue';
}

function hexEscape(left: number): Step {
  return (s, c) => {
    if (!isHex(c)) return fail(s, c, 'in \\u hexadecimal character escape');
    s.step = left > 1 ? hexEscape(left - 1) : stateInString;
    return 'continue';
  };
}

function stateNeg(s: Scanner, c: number): Result {
  if (c === 0x30) s.step = state0;
  else if (c >= 0x31 && c <= 0x39) s.step = state1;
  else return fail(s, c, 'in numeric literal');
  return 'continue';
}

function state1(s: Scanner, c: number): Result {
  if (isDigit(c)) return 'continue';
  return state0(s, c);
}

function state0(s: Scanner, c: number): Result {
  if (c === 0x2e) {
    s.step = stateDot;
    return 'continue';
  }
  return exponentOrEnd(s, c);
}

/** After a number's integer or fraction digits: an exponent may follow, else the value ends. */
function exponentOrEnd(s: Scanner, c: number): Result {
  if (c === 0x65 || c === 0x45) {
    s.step = stateE;
    return 'continue';
  }
  return stateEndValue(s, c);
}

function stateDot(s: Scanner, c: number): Result {
  if (!isDigit(c)) return fail(s, c, 'after decimal point in numeric literal');
  s.step = stateDot0;
  return 'continue';
}

function stateDot0(s: Scanner, c: number): Result {
  return isDigit(c) ? 'continue' : exponentOrEnd(s, c);
}

function stateE(s: Scanner, c: number): Result {
  if (c === 0x2b || c === 0x2d) {
    s.step = stateESign;
    return 'continue';
  }
  return stateESign(s, c);
}

function stateESign(s: Scanner, c: number): Result {
  if (!isDigit(c)) return fail(s, c, 'in exponent of numeric literal');
  s.step = stateE0;
  return 'continue';
}

function stateE0(s: Scanner, c: number): Result {
  return isDigit(c) ? 'continue' : stateEndValue(s, c);
}

/** The states after a literal's first letter: each next letter expected, then the value ends. */
function literal(word: string, at: number): Step {
  return (s, c) => {
    const want = word.charCodeAt(at);
    if (c !== want) return fail(s, c, `in literal ${word} (expecting ${quoteChar(want)})`);
    s.step = at + 1 < word.length ? literal(word, at + 1) : stateEndValue;
    return 'continue';
  };
}

/** quoteChar: the byte as a one-rune Go string literal between single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  return `'${goQuoteRune(c)}'`;
}

const namedEscapes: Readonly<Record<number, string>> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\' };

/** strconv.Quote's body for the rune U+00XX (a byte read as a rune, as string(byte) makes it). */
function goQuoteRune(c: number): string {
  const named = namedEscapes[c];
  if (named !== undefined) return named;
  if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, '0')}`;
  // Latin-1's controls, no-break space and soft hyphen are not graphic in Go's unicode.IsPrint.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `\\u${c.toString(16).padStart(4, '0')}`;
  return String.fromCharCode(c);
}
