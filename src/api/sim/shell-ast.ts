// The tree a `sh -c` script parses into (shell-syntax.ts builds it, shell-process.ts runs it), and the
// walks over it that more than one module needs.
/**
 * A word is the parts it was written in; `quoted` parts are not field-split. Example: `"$i: $(date)"x`
 * is [param i (quoted), lit ': ' (quoted), subst date (quoted), lit 'x'].
 */
export type Word = readonly Part[];
export type Part =
  | { readonly k: 'lit'; readonly text: string; readonly quoted: boolean }
  | { readonly k: 'param'; readonly name: string; readonly quoted: boolean; readonly op?: ParamOp; readonly arg?: Word; readonly index?: Subscript }
  | { readonly k: 'arith'; readonly expr: Arith; readonly quoted: boolean }
  | { readonly k: 'subst'; readonly body: List; readonly quoted: boolean };
/** ${NAME-word} and friends; `#` is ${#NAME}, the length. */
/** bash's ${NAME[i]} (i arithmetic; negative counts from the end), ${NAME[@]} and ${NAME[*]}. */
export type Subscript = Arith | '@' | '*';
export type ParamOp = '-' | ':-' | '=' | ':=' | '+' | ':+' | '#';

export type Arith =
  | { readonly k: 'num'; readonly v: number }
  | { readonly k: 'var'; readonly name: string }
  | { readonly k: 'un'; readonly op: string; readonly a: Arith }
  | { readonly k: 'bin'; readonly op: string; readonly a: Arith; readonly b: Arith }
  | { readonly k: 'set'; readonly name: string; readonly op: string; readonly b: Arith };

export interface Assignment {
  readonly name: string;
  readonly value: Word;
  /** bash's NAME=(WORD...): the words, expanded and split, are the array's elements from 0. */
  readonly array?: readonly Word[];
}
export type Command =
  | { readonly k: 'simple'; readonly assigns: readonly Assignment[]; readonly words: readonly Word[]; readonly redirects: readonly Redirect[] }
  | { readonly k: 'loop'; readonly until: boolean; readonly cond: List; readonly body: List }
  | { readonly k: 'for'; readonly name: string; readonly items: readonly Word[] | undefined; readonly body: List }
  | { readonly k: 'if'; readonly arms: readonly { readonly cond: List; readonly body: List }[]; readonly otherwise: List | undefined }
  | { readonly k: 'group'; readonly body: List }
  | { readonly k: 'subshell'; readonly body: List }
  | { readonly k: 'case'; readonly subject: Word; readonly arms: readonly { readonly patterns: readonly Word[]; readonly body: List }[] }
  | { readonly k: 'function'; readonly name: string; readonly body: Command };
/**
 * `N>/dev/null` (to: null), `N>&M`, or `N> FILE` / `N>> FILE` (file: the word, expanded when the command
 * runs), applied left to right: `>/dev/null 2>&1` drops both streams, `>>log 2>&1` appends both to log.
 */
export type Redirect = { readonly fd: 1 | 2; readonly to: 1 | 2 | null } | { readonly fd: 1 | 2; readonly file: Word; readonly append: boolean };
/** `[!] A | B | C`: each command's standard output is the next one's standard input; the status is the last's. */
export interface Pipeline {
  readonly bang: boolean;
  readonly cmds: readonly [Command, ...Command[]];
}
export interface AndOr {
  readonly first: Pipeline;
  readonly rest: readonly { readonly op: '&&' | '||'; readonly p: Pipeline }[];
}
export interface Item {
  readonly andOr: AndOr;
  readonly background: boolean;
}
export type List = readonly Item[];

/** Thrown for anything outside the subset (and for syntax errors, which a real shell would report). */
export class OutsideSubset extends Error {}

/** Which shell reads the script: busybox ash (sh, ash, dash) or bash, whose arrays ash refuses. */
export type Dialect = 'sh' | 'bash';

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The literal text of a word with no expansions, else undefined. */
export function literal(w: Word): string | undefined {
  let s = '';
  for (const part of w) {
    if (part.k !== 'lit') return undefined;
    s += part.text;
  }
  return s;
}

function asList(cmd: Command): List {
  return [{ andOr: { first: { bang: false, cmds: [cmd] }, rest: [] }, background: false }];
}

/** Whether the script may run one of `names` (a command word, after `exec`, or in a $(...)), to ready what it reads. */
export function usesCommand(list: List, names: ReadonlySet<string>): boolean {
  const inWord = (w: Word): boolean => w.some((p) => (p.k === 'subst' && usesCommand(p.body, names)) || (p.k === 'param' && p.arg !== undefined && inWord(p.arg)));
  const inCommand = (c: Command): boolean => {
    switch (c.k) {
      case 'simple': {
        const [first, second] = c.words.map(literal);
        const name = first === 'exec' ? second : first;
        return (name !== undefined && names.has(basename(name))) || c.words.some(inWord) || c.assigns.some((a) => inWord(a.value) || (a.array ?? []).some(inWord));
      }
      case 'loop':
        return usesCommand(c.cond, names) || usesCommand(c.body, names);
      case 'for':
        return (c.items ?? []).some(inWord) || usesCommand(c.body, names);
      case 'if':
        return c.arms.some((a) => usesCommand(a.cond, names) || usesCommand(a.body, names)) || (c.otherwise !== undefined && usesCommand(c.otherwise, names));
      case 'group':
      case 'subshell':
        return usesCommand(c.body, names);
      case 'case':
        return inWord(c.subject) || c.arms.some((a) => usesCommand(a.body, names));
      case 'function':
        return inCommand(c.body);
      default: {
        const never: never = c;
        return Boolean(never);
      }
    }
  };
  return list.some(({ andOr }) => andOr.first.cmds.some(inCommand) || andOr.rest.some((r) => r.p.cmds.some(inCommand)));
}
