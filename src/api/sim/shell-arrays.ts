// bash's indexed arrays, as a `bash -c` script in the subset uses them (the Indexed Job docs'
// `items=(foo bar baz qux xyz); echo ${items[$JOB_COMPLETION_INDEX]}`): NAME=(WORD...) assigns from 0,
// ${NAME[i]} is one element (a negative i counts back from the end), ${NAME[@]} all of them in index
// order, ${#NAME[@]} how many are set, and $NAME is ${NAME[0]}. busybox ash has no arrays (shell-syntax.ts
// refuses them when the shell is not bash).
// Upstream: bash 5.2 arrayfunc.c (array_expand_index: a negative index is added to the largest index + 1)
// and the bash manual, section 6.7 Arrays.

/** An indexed array: bash's are sparse (`a[5]=x` on a 3-element array leaves 3 and 4 unset). */
export type ShellArray = Map<number, string>;

export function arrayOf(values: readonly string[]): ShellArray {
  return new Map(values.map((v, i) => [i, v]));
}

/** The set elements in index order. */
export function arrayValues(a: ShellArray): string[] {
  return [...a.entries()].sort(([x], [y]) => x - y).map(([, v]) => v);
}

/** Element `index`; undefined when unset, or negative past the start (bash then also says "bad array subscript"). */
export function arrayElement(a: ShellArray, index: number): string | undefined {
  if (index >= 0) return a.get(index);
  const top = a.size === 0 ? 0 : Math.max(...a.keys()) + 1;
  return a.get(top + index);
}

/** Copies for a subshell, whose changes its parent does not see. */
export function copyArrays(arrays: ReadonlyMap<string, ShellArray>): Map<string, ShellArray> {
  return new Map([...arrays].map(([name, a]) => [name, new Map(a)]));
}
