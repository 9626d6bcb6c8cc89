import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFormBehaviour } from './command-forms.ts';
import { ShellRun } from './shell-run.ts';
import { OutsideSubset } from './shell-ast.ts';
import type { Dialect } from './shell-ast.ts';
import { parseScript } from './shell-syntax.ts';

/** Runs a script to its end; what it wrote on each stream and its exit code. */
function run(script: string, dialect: Dialect = 'bash', env: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const r = new ShellRun(parseScript(script, false, dialect), { env, gpuList: undefined, pid1: true, startedAt: 0, args: ['bash'], errexit: false }, { line: () => {}, write: (_at, stream, text) => (out[stream] += text.toString()) });
  r.runUntil(60_000);
  return { ...out, code: r.exit?.code };
}

test("the Indexed Job docs' init container: bash picks the array element its completion index names", () => {
  const script = 'items=(foo bar baz qux xyz)\necho ${items[$JOB_COMPLETION_INDEX]}\n';
  const words = ['0', '1', '2', '3', '4'].map((i) => run(script, 'bash', { JOB_COMPLETION_INDEX: i }).stdout);
  assert.deepEqual(words, ['foo\n', 'bar\n', 'baz\n', 'qux\n', 'xyz\n']);
});

test('bash arrays: ${a[i]} with arithmetic or negative i, ${a[@]} and "${a[@]}" (a field per element), ${#a[@]}, $a as ${a[0]}, over several lines', () => {
  assert.equal(run('a=(x "y z" w); echo ${#a[@]} ${a[-1]} ${a[1+1]} $a ${#a[1]}').stdout, '3 w w x 3\n');
  assert.equal(run('a=(x "y z"); for i in "${a[@]}"; do echo "[$i]"; done; for i in ${a[@]}; do echo "<$i>"; done').stdout, '[x]\n[y z]\n<x>\n<y>\n<z>\n');
  assert.equal(run('a=(x y); echo "${a[*]}" "pre${a[@]}post"').stdout, 'x y prex ypost\n');
  assert.equal(run('a=(\n  one   # the first\n  two\n)\necho ${a[1]}').stdout, 'two\n');
  assert.equal(run('b=(); echo "${#b[@]}" "${b[@]:-empty}" "[${b[5]}]"').stdout, '0 empty []\n');
  assert.equal(run('a=(x y); a=z; echo ${a[@]}; unset a; echo "[${a[0]}]"').stdout, 'z y\n[]\n', 'a plain value is element 0; unset removes the array');
  assert.equal(run('a=(x y); (a=(p); echo ${a[@]}); echo ${a[@]}').stdout, 'p\nx y\n', 'a subshell changes its own copy');
});

test('"$@" is a field per positional parameter, $@ unquoted is split', () => {
  assert.equal(run('set -- a "b c"; for x in "$@"; do echo "<$x>"; done; for x in $@; do echo "{$x}"; done', 'sh').stdout, '<a>\n<b c>\n{a}\n{b}\n{c}\n');
  assert.equal(run('set --; for x in "$@"; do echo never; done; echo done', 'sh').stdout, 'done\n');
});

test("busybox sh has no arrays: ash's syntax errors, and a container's `sh -c` with one is no command form", () => {
  const refusal = (script: string) => assert.throws(() => parseScript(script, false, 'sh'), OutsideSubset);
  refusal('items=(foo bar)');
  assert.throws(() => parseScript('items=(foo bar)', true), { message: 'unexpected "("' });
  assert.throws(() => parseScript('echo ${items[0]}', true), { message: 'bad substitution' });
  refusal('echo ${items[@]}');
  assert.equal(commandFormBehaviour(['sh', '-c', 'items=(a b); echo ${items[1]}']), undefined);
  assert.deepEqual(commandFormBehaviour(['bash', '-c', 'items=(a b); echo ${items[1]}'])?.logs?.map((l) => l.text), ['b']);
});
