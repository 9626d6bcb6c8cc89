// What an exec run printed, as kubectl exec shows it, for the kubelet's tests. (No tests here; imported by others.)
import type { ExecRun } from './exec-shell.ts';

/** The text of `stream`, or of both streams in the order written when none is named. */
export function execText(run: ExecRun, stream?: 'stdout' | 'stderr'): string {
  return run.steps.map((s) => ('stream' in s && (stream === undefined || s.stream === stream) ? s.text.toString() : '')).join('');
}
