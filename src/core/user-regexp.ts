// Regular expressions users write (a CRD's `pattern`, CEL's regex functions) run as Go's RE2 runs
// them: in time linear in the input. V8's backtracking engine takes time exponential in the input on
// a pattern as ordinary as ^([a-z0-9]+-?)+$ against a long value that does not match, and it would
// take it on the thread the whole cluster serves from.
import { setFlagsFromString } from 'node:v8';

/**
 * Lets V8 finish a regexp that backtracks past 50,000 steps on its linear engine instead (only
 * regexps without the u flag, backreferences or lookaround; RE2 has neither of the last two).
 * Process-wide, for every regexp; called once the process runs, as a startup snapshot keeps no V8 flags.
 */
export function enableLinearRegExpFallback(): void {
  // drydock's executable starts node with it (scripts/bundle.mjs): setting a flag again would change
  // V8's flag hash, which its code cache is checked against.
  if (!process.execArgv.includes(linearFallbackFlag)) setFlagsFromString(linearFallbackFlag);
}

const linearFallbackFlag = '--enable-experimental-regexp-engine-on-excessive-backtracks';

// Without the u flag these mean something else (`\p{L}` a `p`, `\u{41}` 41 `u`s): such a pattern keeps it.
const unicodeOnlySyntax = /\\[pP]|\\u\{/;
const astral = /[\uD800-\uDFFF]/;

/**
 * A user's pattern, compiled once with the u flag (code points, as RE2 reads UTF-8; it throws for a
 * pattern that is not valid there) and, where the pattern means the same without it, once without:
 * text with no character outside the Basic Multilingual Plane matches alike either way, and goes to
 * the regexp the linear fallback can take.
 */
export class UserRegExp {
  readonly source: string;
  readonly #unicode: RegExp;
  readonly #plain: RegExp | undefined;

  constructor(pattern: string, flags: '' | 'g' = '') {
    this.source = pattern;
    this.#unicode = new RegExp(pattern, `${flags}u`);
    this.#plain = unicodeOnlySyntax.test(pattern) ? undefined : new RegExp(pattern, flags);
  }

  /** The compiled regexp to run on `text` (its lastIndex reset, for the global one). */
  for(text: string): RegExp {
    const re = this.#plain !== undefined && !astral.test(text) ? this.#plain : this.#unicode;
    re.lastIndex = 0;
    return re;
  }

  test(text: string): boolean {
    return this.for(text).test(text);
  }
}
