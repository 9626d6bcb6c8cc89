// cd, the shell's own: the process's working directory, which every relative path it opens and every
// command it runs starts from (Sh.cwd), and PWD and OLDPWD as ash sets them (setpwd).
// Upstream: busybox shell/ash.c (cdcmd: `cd` alone is $HOME, `cd -` is $OLDPWD and prints it; a failure is
// ash_msg_and_raise_perror's "can't cd to DIR: ERROR", status 2, and the shell goes on: cd is no special built-in).
import type { CommandOutput } from './shell-commands.ts';
import type { Sh } from './shell-process.ts';

export function cd(sh: Sh, args: readonly string[]): CommandOutput {
  const operands = args[0] === '--' ? args.slice(1) : args;
  const [operand] = operands;
  if (operand?.startsWith('-') && operand !== '-') return { out: '', err: `sh: cd: not simulated: options (${operand})\n`, status: 2 };
  const back = operand === '-';
  // An unset OLDPWD is ash's empty destination, the directory it is in; an unset HOME is runc's for a user with no home.
  const dest = back ? (variable(sh, 'OLDPWD') ?? '') : (operand ?? variable(sh, 'HOME') ?? '/');
  const files = sh.files();
  const before = files.directory('.');
  const after = files.directory(dest === '' ? '.' : dest);
  if ('error' in after) return { out: '', err: `sh: cd: can't cd to ${dest}: ${after.error}\n`, status: 2 };
  if (!('error' in before)) sh.vars.set('OLDPWD', before.path);
  sh.vars.set('PWD', after.path);
  sh.cwd = after.path;
  return { out: back ? `${after.path}\n` : '', status: 0 };
}

function variable(sh: Sh, name: string): string | undefined {
  const own = sh.vars.get(name);
  return own === null ? undefined : (own ?? sh.env(name));
}
