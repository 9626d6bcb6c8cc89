import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandFormBehaviour, runCommandForm } from './command-forms.ts';
import { busyCommandCap, ShellRun } from './shell-run.ts';
import { parseScript } from './shell-syntax.ts';
import type { BehaviourFields } from './behaviour-types.ts';

const startedAt = Date.UTC(2026, 11, 7, 5, 40, 1);
const counter = 'i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done';

function form(script: string, pid1 = true): BehaviourFields {
  const f = commandFormBehaviour(['/bin/sh', '-c', script], pid1);
  assert.ok(f, `${script}: in the subset`);
  return f;
}

/** Runs a script on the clock (as SimContainer does) up to `untilMs`; its lines as `ms:text`. */
function play(script: string, untilMs: number, opts: { env?: Record<string, string>; pid1?: boolean; sigtermAt?: number } = {}) {
  const lines: string[] = [];
  const ctx = { env: opts.env ?? { HOSTNAME: 'counter' }, gpuList: undefined, pid1: opts.pid1 ?? true, startedAt, args: ['sh'], errexit: false };
  const run = new ShellRun(parseScript(script), ctx, { line: (atMs, text) => lines.push(`${atMs}:${text}`) });
  if (opts.sigtermAt !== undefined) {
    run.runUntil(opts.sigtermAt);
    run.sigterm();
  }
  run.runUntil(untilMs);
  return { lines, exit: run.exit, nextAt: run.nextAt };
}

test('the logging docs\' counter pod prints "N: <date>" once a second, each line at its own time with date\'s default format in UTC', () => {
  const f = form(counter);
  assert.ok(f.script, 'it reads the clock, so it runs on the clock');
  assert.equal(f.runForMs, undefined);
  const r = play(counter, 2500);
  assert.deepEqual(r.lines, ['0:0: Mon Dec  7 05:40:01 UTC 2026', '1000:1: Mon Dec  7 05:40:02 UTC 2026', '2000:2: Mon Dec  7 05:40:03 UTC 2026']);
  assert.equal(r.nextAt, 3000, 'the next step is the end of the third sleep: nothing is computed ahead of it');
  assert.equal(r.exit, undefined);
  const unquoted = play('echo $(date)', 0);
  assert.deepEqual(unquoted.lines, ['0:Mon Dec 7 05:40:01 UTC 2026'], 'unquoted, the substitution is split into fields and the padding goes');
  assert.deepEqual(play('date +%s; date -u "+%Y-%m-%dT%H:%M:%SZ"; hostname', 0).lines, ['0:1796622001', '0:2026-12-07T05:40:01Z', '0:counter']);
});

test('everyday loops: while, until, for over words and $(seq), while [ ... ], break and continue', () => {
  assert.deepEqual(play('while true; do echo hello; sleep 10; done', 25_000).lines, ['0:hello', '10000:hello', '20000:hello']);
  const forWords = play('for i in 1 2 3; do echo $i; sleep 1; done', 10_000);
  assert.deepEqual([forWords.lines, forWords.exit], [['0:1', '1000:2', '2000:3'], { code: 0, atMs: 3000 }]);
  assert.deepEqual(play('for i in $(seq 1 5); do echo "n=$i"; done', 0).lines, ['0:n=1', '0:n=2', '0:n=3', '0:n=4', '0:n=5']);
  assert.deepEqual(play('n=0; until false; do echo $n; n=$((n+1)); sleep 2; done', 4000).lines, ['0:0', '2000:1', '4000:2']);
  const bounded = play('i=0; while [ $i -lt 5 ]; do echo $i; i=$((i+1)); sleep 1; done; echo done', 10_000);
  assert.deepEqual(bounded.lines, ['0:0', '1000:1', '2000:2', '3000:3', '4000:4', '5000:done']);
  assert.deepEqual(bounded.exit, { code: 0, atMs: 5000 });
  assert.deepEqual(play('for i in 1 2 3 4; do [ $i -eq 2 ] && continue; [ $i -eq 4 ] && break; echo $i; done', 0).lines, ['0:1', '0:3']);
  const fails = play('for i in 1 2; do sleep 1; done; [ 1 -gt 2 ]', 5000);
  assert.deepEqual(fails.exit, { code: 1, atMs: 2000 }, 'the script exits with its last status');
});

test('quoting and expansion follow sh: separators inside quotes, single quotes literal, field splitting only of unquoted expansions', () => {
  const lines = (script: string, env?: Record<string, string>) => play(script, 0, env ? { env } : {}).lines.map((l) => l.slice(2));
  assert.deepEqual(lines(`echo "a; b" 'c && d' e\\;f`), ['a; b c && d e;f']);
  assert.deepEqual(lines(`x='a  b'; echo $x; echo "$x"; for w in $x; do echo "[$w]"; done`), ['a b', 'a  b', '[a]', '[b]']);
  assert.deepEqual(lines(`echo '$HOME' "\\$HOME" "$HOME" \${UNSET:-fallback} \${#HOME}`, { HOME: '/root' }), ['$HOME $HOME /root fallback 5']);
  assert.deepEqual(lines('false || echo or; true && echo and; false && echo no || echo yes; false; echo "status $?"'), ['or', 'and', 'yes', 'status 1']);
  assert.deepEqual(lines('if [ "$MODE" = train ]; then echo training; elif [ -z "$MODE" ]; then echo unset; else echo other; fi', { MODE: 'train' }), ['training']);
  assert.deepEqual(lines('echo `echo back` "$(echo a; echo b)"'), ['back a', 'b']);
  assert.deepEqual(lines("printf '%s=%03d\\n' a 7 b 42; echo -n no; echo newline"), ['a=007', 'b=042', 'nonewline']);
});

test('$((...)): + - * / % and parentheses over integers and variables, C truncation, assignment; divide by zero exits 2', () => {
  const out = (script: string) => play(script, 0).lines.map((l) => l.slice(l.indexOf(':') + 1));
  assert.deepEqual(out('i=7; echo $((i+1)) $((i*2-3)) $((i/2)) $((-i/2)) $((i%3)) $(( (i+1)*(2+1) )) $(($i*$i))'), ['8 11 3 -3 1 24 49']);
  assert.deepEqual(out('n=1; : $((n+=4)); echo $n $((n>3)) $((n==5 && 0))'), ['5 1 0']);
  const zero = play('echo $((1/0)); echo never', 0);
  assert.deepEqual([zero.lines, zero.exit], [['0:sh: divide by zero'], { code: 2, atMs: 0 }]);
});

test('SIGTERM inside a loop: PID 1 without a trap ignores it; a trap exits when the foreground sleep ends, or at once in wait', () => {
  const ignored = play('while true; do echo tick; sleep 5; done', 12_000, { sigtermAt: 3000 });
  assert.deepEqual([ignored.lines.length, ignored.exit], [3, undefined], 'PID 1: the kernel drops the default-disposition signal; the kubelet kills it at the deadline');
  const shared = play('while true; do echo tick; sleep 5; done', 12_000, { sigtermAt: 3000, pid1: false });
  assert.deepEqual(shared.exit, { code: 143, atMs: 3000 }, 'not PID 1: it dies of the signal');
  const trapped = play("trap 'echo caught; exit 3' TERM; while true; do echo tick; sleep 5; done", 20_000, { sigtermAt: 7000 });
  assert.deepEqual(trapped.lines, ['0:tick', '5000:tick', '10000:caught'], 'the trap runs once the sleep it interrupted ends');
  assert.deepEqual(trapped.exit, { code: 3, atMs: 10_000 });
  const waiting = play("trap 'exit 0' TERM; while true; do sleep 3600 & wait; done", 20_000, { sigtermAt: 7000 });
  assert.deepEqual(waiting.exit, { code: 0, atMs: 7000 });
  const status = play("trap 'exit' TERM; sleep 100 & wait", 20_000, { sigtermAt: 1000 });
  assert.deepEqual(status.exit, { code: 143, atMs: 1000 }, 'wait interrupted by a signal returns 128+15, which exit takes');
  const carryOn = play("trap 'echo got TERM' TERM; while true; do sleep 10; echo awake; done", 25_000, { sigtermAt: 5000 });
  assert.deepEqual([carryOn.lines, carryOn.exit], [['10000:got TERM', '10000:awake', '20000:awake'], undefined], 'a trap that does not exit lets the loop go on');
});

test('a busy loop spins at its instant (at most busyCommandCap commands), never blocks the process and still answers SIGTERM', () => {
  // Bounded by the cap, not timed: a test never asserts a duration (benchmarks measure; bench/README.md).
  const spin = play('i=0; while true; do i=$((i+1)); done', 60_000);
  assert.deepEqual([spin.lines, spin.exit, spin.nextAt], [[], undefined, null], 'it runs for ever without a timer');
  const noisy = play('while :; do echo y; done', 0);
  assert.equal(noisy.lines.length, busyCommandCap / 2, 'echo and : each count: the output is capped');
  const trapped = play("trap 'exit 4' TERM; while true; do :; done", 60_000, { sigtermAt: 9000 });
  assert.deepEqual(trapped.exit, { code: 4, atMs: 9000 }, 'a spinning shell runs its trap between commands, at once');
  assert.equal(play('while true; do :; done', 1000, { sigtermAt: 500 }).exit, undefined, 'PID 1 without a trap ignores it');
});

test('scripts that need nothing of their container are evaluated once, ahead, into plain behaviour fields', () => {
  const f = form('for i in 1 2 3; do echo $i; sleep 1; done; exit 2');
  assert.equal(f.script, undefined);
  assert.deepEqual([f.logs?.map((l) => `${l.atMs}:${l.text}`), f.runForMs, f.exitCode], [['0:1', '1000:2', '2000:3'], 3000, 2]);
  assert.equal(form('for i in 1 2 3; do echo $i; sleep 1; done; exit 2'), f, 'one evaluation per command line, shared');
  const trapped = form("trap 'exit 0' TERM; for i in 1 2; do sleep 5; done; sleep infinity & wait");
  assert.deepEqual(trapped.sigtermSteps, [{ fromMs: 0, exit: { code: 0, atMs: 5000 } }, { fromMs: 5000, exit: { code: 0, atMs: 10_000 } }, { fromMs: 10_000, exit: { code: 0 } }]);
  assert.equal(form('echo $HOSTNAME').script !== undefined, true, 'the environment is known only when the container starts');
});

test("the init-container docs' wait loop: cat and nslookup are the kubelet's (the hook), so the script runs on the clock until the lookup succeeds", () => {
  const script = 'until nslookup myservice.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for myservice; sleep 2; done';
  assert.ok(form(script).script, 'not evaluated ahead: it reads the container');
  const lines: string[] = [];
  const asked: string[] = [];
  let now = 0;
  const command = (argv: readonly string[]) => {
    if (argv[0] === 'cat') return { writes: [{ stream: 'stdout' as const, text: 'default' }], status: 0 };
    if (argv[0] !== 'nslookup') return undefined;
    asked.push(argv[1] ?? '');
    return now >= 5000 ? { writes: [{ stream: 'stdout' as const, text: 'found\n' }], status: 0 } : { writes: [], status: 1 };
  };
  const run = new ShellRun(parseScript(script), { env: {}, gpuList: undefined, pid1: true, startedAt, args: ['sh'], errexit: false, command }, { line: (atMs, text) => lines.push(`${atMs}:${text}`) });
  for (; now <= 8000 && !run.exit; now += 1000) run.runUntil(now);
  assert.deepEqual(lines, ['0:waiting for myservice', '2000:waiting for myservice', '4000:waiting for myservice', '6000:found']);
  assert.deepEqual(run.exit, { code: 0, atMs: 6000 });
  assert.deepEqual(new Set(asked), new Set(['myservice.default.svc.cluster.local']));
});

test('cat and nslookup outside a running container: an exec handler using them is no command form (as before), without a hook they say so', () => {
  assert.equal(runCommandForm(['sh', '-c', 'cat /tmp/healthy'], {}, 0), undefined);
  assert.equal(commandFormBehaviour(['sh', '-c', 'cat'], true), undefined, 'cat of standard input stays outside the subset');
  assert.equal(commandFormBehaviour(['sh', '-c', 'nslookup -type=srv x'], true), undefined, 'nslookup options stay outside');
  assert.deepEqual(play('cat /etc/motd; echo $?', 0).lines, ['0:sh: cat: not simulated here', '0:127']);
});

test('redirections move or drop each stream, left to right: >/dev/null 2>&1 drops both, 2>/dev/null only errors, >&2 keeps the line', () => {
  const lines = (script: string) => play(script, 0).lines.map((l) => l.slice(2));
  assert.deepEqual(lines('expr a + 1 >/dev/null 2>&1; echo "status $?"'), ['status 2'], 'both streams dropped, the status kept');
  assert.deepEqual(lines('expr a + 1 2>/dev/null; expr b + 1 2>&1 >/dev/null'), ['expr: non-numeric argument'], '2>&1 before >/dev/null sends errors where stdout went first');
  assert.deepEqual(lines('echo to-err >&2; echo gone 1>/dev/null; x=$(expr c + 1 2>&1); echo "[$x]"'), ['to-err', '[expr: non-numeric argument]']);
});

test('case ... esac: the first arm with a matching pattern runs; * ? [...] and | alternatives; quoted text is literal; no match is status 0', () => {
  const lines = (script: string, env?: Record<string, string>) => play(script, 0, env ? { env } : {}).lines.map((l) => l.slice(2));
  const script = 'case "$MODE" in\n  train|finetune) echo training ;;\n  serve-?) echo "serving $MODE" ;;\n  [0-9]*) echo number ;;\n  "*") echo star ;;\n  *) echo "unknown: $MODE" ;;\nesac';
  assert.deepEqual(lines(script, { MODE: 'finetune' }), ['training']);
  assert.deepEqual(lines(script, { MODE: 'serve-a' }), ['serving serve-a']);
  assert.deepEqual(lines(script, { MODE: '42x' }), ['number']);
  assert.deepEqual(lines(script, { MODE: '*' }), ['star']);
  assert.deepEqual(lines(script, { MODE: 'x' }), ['unknown: x']);
  assert.deepEqual(lines('false; case a in b) echo no;; esac; echo "status $?"'), ['status 0']);
  assert.deepEqual(lines('for i in 1 2 3; do case $i in (2) continue;; esac; echo $i; done'), ['1', '3']);
});

test('( ... ) subshells and { ...; } groups: a subshell keeps its variables and exit to itself; a group shares the shell', () => {
  const lines = (script: string) => play(script, 0).lines.map((l) => l.slice(2));
  assert.deepEqual(lines('x=1; (x=2; echo "in $x"; exit 3); echo "out $x status $?"; { x=4; echo group; }; echo $x'), ['in 2', 'out 1 status 3', 'group', '4']);
  const timed = play('(sleep 2; echo child) ; echo parent', 5000);
  assert.deepEqual([timed.lines, timed.exit], [['2000:child', '2000:parent'], { code: 0, atMs: 2000 }]);
});

test('functions: defined before use, called with their own $1 $#, return N, seen by subshells; the name can be no special built-in', () => {
  const lines = (script: string) => play(script, 0).lines.map((l) => l.slice(2));
  assert.deepEqual(lines('greet() { echo "hello $1 ($#)"; return 4; echo never; }; greet world x; echo "status $?"; (greet sub); echo "[$(greet subst)]"'), ['hello world (2)', 'status 4', 'hello sub (1)', '[hello subst (1)]']);
  assert.deepEqual(play('tick() { sleep $1; echo "tick $1"; }; tick 1 & tick 2; wait', 5000).lines, ['1000:tick 1', '2000:tick 2'], 'a background job runs the function too');
  const waitFor = 'wait_for() {\n  n=0\n  until [ $n -ge $1 ]; do echo "try $n"; n=$((n+1)); sleep 1; done\n}\nwait_for 2 && echo ready';
  assert.deepEqual(play(waitFor, 5000).lines, ['0:try 0', '1000:try 1', '2000:ready']);
  assert.equal(commandFormBehaviour(['sh', '-c', 'exit() { :; }; exit'], true), undefined, 'a special built-in name is no function name');
  assert.equal(commandFormBehaviour(['sh', '-c', 'f; f() { :; }'], true), undefined, 'a call before the definition is an unknown command');
});

test("env and printenv print the process's environment: the container's, as the script changed, unset or exported it", () => {
  const env = { PATH: '/usr/bin:/bin', HOSTNAME: 'command-demo', KUBERNETES_PORT: 'tcp://10.96.0.1:443' };
  // kubernetes.io's "Define a Command and Arguments for a Container", as argv and in a script.
  const demo = commandFormBehaviour(['printenv', 'HOSTNAME', 'KUBERNETES_PORT'], true);
  assert.ok(demo?.script, 'it reads the environment, so it runs in the container');
  assert.deepEqual(play('printenv HOSTNAME KUBERNETES_PORT', 0, { env }).lines, ['0:command-demo', '0:tcp://10.96.0.1:443']);
  assert.deepEqual(play('env', 0, { env }).lines, ['0:PATH=/usr/bin:/bin', '0:HOSTNAME=command-demo', '0:KUBERNETES_PORT=tcp://10.96.0.1:443']);
  const changed = play('MODE=fast; PATH=/opt/bin; unset KUBERNETES_PORT; export RANK=0; env; printenv MODE RANK; echo $?', 0, { env });
  assert.deepEqual(changed.lines, ['0:PATH=/opt/bin', '0:HOSTNAME=command-demo', '0:RANK=0', '0:0', '0:1'], 'a variable not exported stays out; printenv says 1 when one is missing');
  assert.equal(commandFormBehaviour(['sh', '-c', 'env FOO=1 python train.py'], true), undefined, 'env running a command is outside the subset');
});
