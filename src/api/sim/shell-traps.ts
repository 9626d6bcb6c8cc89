// `trap`: the dispositions a simulated shell keeps (TERM and EXIT; the other signals never come) and
// the action text parsed once per distinct text.
// Upstream: POSIX.1-2024 XCU 2.15 (trap), checked against dash and busybox ash.
import type { CommandOutput } from './shell-commands.ts';
import type { Trap } from './shell-context.ts';
import type { List } from './shell-ast.ts';
import { literal } from './shell-ast.ts';
import { parseScript } from './shell-syntax.ts';

const trapCache = new Map<string, Trap>();
const termNames = new Set(['TERM', 'SIGTERM', '15']);
const exitNames = new Set(['EXIT', '0']);
const otherSignals = new Set(['HUP', 'INT', 'QUIT', 'USR1', 'USR2', 'PIPE', 'ALRM', 'CHLD', 'WINCH', '1', '2', '3', '10', '12', '13', '14', '17', '28']);

function parseTrap(text: string): Trap {
  const cached = trapCache.get(text);
  if (cached) return cached;
  const action = parseScript(text);
  const cmd = action.length === 1 && !action[0]?.background && action[0]?.andOr.rest.length === 0 ? action[0].andOr.first : undefined;
  const only = cmd && !cmd.bang && cmd.cmds.length === 1 ? cmd.cmds[0] : undefined;
  const words = only?.k === 'simple' && only.assigns.length === 0 ? only.words.map(literal) : [];
  const exit = words[0] === 'exit' && words.length <= 2 && (words.length === 1 || /^\d+$/.test(words[1] ?? '')) ? (words.length === 1 ? null : Number(words[1]) & 255) : undefined;
  const trap: Trap = { action, exit };
  if (trapCache.size > 256) trapCache.clear();
  trapCache.set(text, trap);
  return trap;
}

/** The traps a process holds; `trap ACTION SIGNAL...` changes them. */
export interface TrapState {
  trap: Trap;
  exitTrap: List | undefined;
}

export function setTrap(state: TrapState, args: readonly string[]): CommandOutput {
  const [action, ...signals] = args;
  if (action === undefined) return { out: '', status: 0 };
  for (const s of signals) {
    const sig = s.toUpperCase().replace(/^SIG/, '');
    const trap: Trap = action === '-' ? 'default' : action === '' ? 'ignore' : parseTrap(action);
    if (termNames.has(sig) || termNames.has(s)) state.trap = trap;
    else if (exitNames.has(sig)) state.exitTrap = typeof trap === 'object' ? trap.action : undefined;
    else if (!otherSignals.has(sig)) return { out: '', err: `sh: trap: ${s}: invalid signal specification\n`, status: 1 };
  }
  return { out: '', status: 0 };
}
