// Whether an exited container restarts: the pod's restartPolicy, overridden per container
// (ContainerRestartRules, beta and on in 1.35) by the container's restartPolicy and exit-code rules.
// The kubelet decides restarts with it, and status validation lets such a container leave Terminated.
// Upstream: pkg/api/v1/pod/util.go (ContainerShouldRestart), pkg/kubelet/container/helpers.go
// (ShouldContainerBeRestarted).
import type { Container, RestartPolicy } from './types.ts';
import type { DeepReadonly } from '../../../../core/index.ts';

export function shouldRestart(c: DeepReadonly<Container>, podPolicy: RestartPolicy, exitCode: number): boolean {
  // Rules count only beside the container's own restartPolicy (validation requires it anyway); the
  // first rule whose exit codes match decides, and an action this kubelet does not know never restarts.
  if (c.restartPolicy !== undefined) {
    for (const rule of c.restartPolicyRules ?? []) {
      const codes = rule.exitCodes;
      if (!codes) continue;
      const inList = (codes.values ?? []).includes(exitCode);
      const matched = codes.operator === 'In' ? inList : codes.operator === 'NotIn' ? !inList : false;
      if (matched) return rule.action === 'Restart';
    }
  }
  const policy = c.restartPolicy ?? podPolicy;
  if (policy === 'Always') return true;
  if (policy === 'OnFailure') return exitCode !== 0;
  return false;
}
