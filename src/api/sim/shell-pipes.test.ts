import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFormBehaviour } from './command-forms.ts';
import { ShellRun } from './shell-run.ts';
import { OutsideSubset } from './shell-ast.ts';
import { parseScript } from './shell-syntax.ts';

/** Runs a script up to `untilMs`; what it wrote on each stream (stamped with the time when `timed`) and its exit. */
function run(script: string, untilMs = 60_000) {
  const out = { stdout: '', stderr: '', timed: [] as string[] };
  const r = new ShellRun(parseScript(script), { env: {}, gpuList: undefined, pid1: true, startedAt: 0, args: ['sh'], errexit: false }, {
    line: () => {},
    write: (at, stream, text) => {
      out[stream] += text.toString();
      out.timed.push(`${at}:${text.toString()}`);
    },
  });
  r.runUntil(untilMs);
  return { ...out, code: r.exit?.code };
}

test('a pipeline feeds each command the one before it; its status is the last command\'s, or with pipefail the last failure\'s', () => {
  assert.equal(run('echo hello | rev').stdout, 'olleh\n');
  assert.equal(run('printf "b\\na\\nc\\na\\n" | sort -u | wc -l').stdout, '3\n');
  assert.equal(run('seq 1 10 | cat | cat - | tail -n 2').stdout, '9\n10\n');
  assert.equal(run('false | true; echo $?; true | false; echo $?; ! true | false; echo $?').stdout, '0\n1\n0\n');
  assert.equal(run('set -o pipefail; false | true; echo $?; exit 3 | true; echo $?').stdout, '1\n3\n');
  assert.equal(run('set -euo pipefail; echo a | false; echo never').code, 1, 'set -euo pipefail reads pipefail as an option, not a parameter');
  assert.equal(run('echo abc | grep x; echo "status $?"').stdout, 'status 1\n', 'grep exits 1 when nothing matched');
});

test('each command of a pipeline is a subshell: its variables stay there; its errors go to standard error, not the pipe', () => {
  assert.equal(run('x=1; echo a | x=2; echo $x').stdout, '1\n');
  const r = run('{ echo out; echo err >&2; } | rev');
  assert.deepEqual([r.stdout, r.stderr], ['tuo\n', 'err\n']);
  assert.equal(run('echo "$(echo abc | rev)"').stdout, 'cba\n');
  assert.equal(run('exec 2>&1; echo e >&2 | rev').stdout, 'e\n', "after exec 2>&1 a writer's errors go where the shell's output goes, not into the pipe");
});

test('the commands of a pipe run one after another, so a writer that waits (sleep, wait, tail) is outside the subset', () => {
  for (const script of ['for i in 1 2; do echo $i; sleep 1; done | rev', 'tail -F /var/log/app.log | grep ERROR', 'sleep 1 & wait | cat', 'seq 3 | tail -n 1 | cat']) {
    assert.throws(() => parseScript(script, true), { message: 'a pipe from a command that waits (sleep, wait, tail) is not simulated' }, script);
  }
  assert.deepEqual(run('seq 3 | tail -n 1; sleep 1; echo end | rev').timed, ['0:3\n', '1000:dne\n'], 'a reader may wait, and a writer after a sleep elsewhere');
});

test("a command reading standard input outside a pipe reads the container's own, which the subset refuses (the command falls back to the behaviour model)", () => {
  for (const script of ['cat', 'grep x', 'wc -l', 'rev', 'sort', 'tr a b', 'echo x | sort /etc/hosts']) assert.throws(() => parseScript(script), OutsideSubset, script);
  assert.equal(commandFormBehaviour(['sh', '-c', 'grep x']), undefined);
  assert.deepEqual(commandFormBehaviour(['sh', '-c', 'echo a b | wc -w'])?.logs?.map((l) => l.text), ['2']);
});

test('output a script ends without a newline is a partial line of the log, as the runtime logs it; evaluated ahead it stays so', () => {
  const lines: string[] = [];
  const r = new ShellRun(parseScript('echo a; printf b; sleep 1; printf c'), { env: {}, gpuList: undefined, pid1: true, startedAt: 0, args: ['sh'], errexit: false }, { line: (at, text, partial) => lines.push(`${at}:${text}${partial ? ' (partial)' : ''}`) });
  r.runUntil(5000);
  assert.deepEqual(lines, ['0:a', '1000:bc (partial)']);
  assert.deepEqual(commandFormBehaviour(['sh', '-c', 'echo 3 | tr -d "\\n"'])?.logs, [{ atMs: 0, text: '3', partial: true }]);
});
