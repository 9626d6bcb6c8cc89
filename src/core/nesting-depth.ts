// How deeply a request's JSON or YAML may nest before anything walks it. Upstream's decoders stop at
// 10,000 levels (Go's JSON scanner, go-yaml); here the yaml library and drydock's own walkers recurse
// on V8's ~1 MB stack, and V8 aborts the whole process, rather than throwing, when it compiles a
// RegExp with that stack nearly used up ("RegExpCompiler Allocation failed"): one deep body killed
// `drydock up`. The limit is well inside what every path handles on a cold stack (the yaml library's
// stringify, the shallowest, fails near 600 levels).
import { Parser } from 'yaml';
import type { CST } from 'yaml';

export const maxNestingDepth = 256;

/**
 * For JSON text JSON.parse accepted: the bracket opening the first object or array nested deeper than
 * `limit`, or undefined. Each level takes a character, so a short text is not scanned.
 */
export function jsonTooDeep(text: string, limit = maxNestingDepth): '{' | '[' | undefined {
  if (text.length <= limit || !moreThan(text, '{[', limit)) return undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = closingQuote(text, i);
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return c === 0x7b ? '{' : '[';
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/**
 * Whether the text holds more than `limit` of these characters in all (strings included), each
 * counted as many times as it is listed: a count of what every level needs one of bounds the depth,
 * and taken with native searches it costs a fraction of reading every character (a pod's body has
 * a few dozen brackets).
 */
function moreThan(text: string, characters: string, limit: number): boolean {
  let count = 0;
  for (const c of characters) {
    for (let i = text.indexOf(c); i !== -1 && count <= limit; i = text.indexOf(c, i + 1)) count++;
  }
  return count > limit;
}

/** Where the string opened at `open` ends: the next quote not escaped by an odd run of backslashes. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    if (end === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

/** Whether a decoded value nests objects and arrays deeper than `limit` (walked without recursion). */
export function valueTooDeep(value: unknown, limit = maxNestingDepth): boolean {
  const pending: unknown[] = [value];
  const depths: number[] = [1];
  while (pending.length > 0) {
    const v = pending.pop();
    const depth = depths.pop() as number;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) {
        pending.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * For YAML text: the line of the first collection nested deeper than `limit`, or undefined. Read from
 * the library's concrete syntax tree, which it builds without recursion (its composer recurses), when
 * the text could nest that deep: each flow collection opens with a bracket (and a flow sequence may
 * hold a pair, a mapping of its own: two levels a bracket), each block sequence has a `-`, and a line
 * starts at most one block mapping with implicit keys, more only with a `?` each. Aliases are not
 * followed: a value they repeat under another can nest deeper than its text (valueTooDeep on the
 * parsed value finds that).
 */
export function yamlTooDeep(text: string, limit = maxNestingDepth): number | undefined {
  if (text.length <= limit || !moreThan(text, '{[{[-?\n', limit - 1)) return undefined;
  const pending: { token: CST.Token | undefined; depth: number }[] = [];
  for (const token of new Parser().parse(text)) pending.push({ token, depth: 0 });
  while (pending.length > 0) {
    const { token, depth } = pending.pop() as { token: CST.Token | undefined; depth: number };
    if (token === undefined) continue;
    if (token.type === 'document') {
      pending.push({ token: token.value, depth });
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > limit) return lineOf(text, token.offset);
      const flowSequence = token.type === 'flow-collection' && token.start.source === '[';
      for (const item of token.items) {
        // A pair in a flow sequence is a single-pair mapping inside it.
        const pair = flowSequence && (item.key !== undefined || item.sep !== undefined);
        if (pair && depth + 2 > limit) return lineOf(text, token.offset);
        const at = pair ? depth + 2 : depth + 1;
        if ('key' in item) pending.push({ token: item.key ?? undefined, depth: at });
        pending.push({ token: item.value, depth: at });
      }
    }
  }
  return undefined;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
