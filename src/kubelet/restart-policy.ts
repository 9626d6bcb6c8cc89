// Whether the kubelet restarts an exited container: the pod's restartPolicy, overridden per container
// (ContainerRestartRules, beta in 1.35) by the container's restartPolicy and exit-code rules.
// Upstream: pkg/kubelet/container/helpers.go (ShouldContainerBeRestarted), podutil.ContainerShouldRestart.
import type { Container, RestartPolicy } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';

export function shouldRestart(c: DeepReadonly<Container>, podPolicy: RestartPolicy, exitCode: number): boolean {
  for (const rule of c.restartPolicyRules ?? []) {
    const codes = rule.exitCodes;
    if (!codes) continue;
    const inList = (codes.values ?? []).includes(exitCode);
    if (codes.operator === 'In' ? inList : !inList) return rule.action === 'Restart';
  }
  const policy = c.restartPolicy ?? podPolicy;
  if (policy === 'Always') return true;
  if (policy === 'OnFailure') return exitCode !== 0;
  return false;
}
