// spec.podFailurePolicy: which rule, if any, a failed pod matches, and what follows.
// Upstream: pkg/controller/job/pod_failure_policy.go (matchPodFailurePolicy returns a
// message, a countFailed flag and an action; here that triple is one union value).
import type { DeepReadonly } from '../../core/index.ts';
import type { ContainerStatus, PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement, PodFailurePolicyOnPodConditionsPattern, PodStatus } from '../../api/index.ts';
import type { ReadonlyPod } from './pods.ts';

export type PodFailurePolicyMatch =
  /** No rule matched: the failure counts against backoffLimit. */
  | { readonly action: 'None' }
  | { readonly action: 'FailJob'; readonly message: string }
  | { readonly action: 'FailIndex' }
  | { readonly action: 'Count' }
  | { readonly action: 'Ignore' };

/** Whether the failure counts toward backoffLimit / the index's failure count. */
export function countsAsFailure(match: PodFailurePolicyMatch): boolean {
  return match.action !== 'Ignore';
}

export function matchPodFailurePolicy(policy: DeepReadonly<PodFailurePolicy> | undefined, pod: ReadonlyPod): PodFailurePolicyMatch {
  if (!policy) return { action: 'None' };
  const status = pod.status ?? {};
  for (const [index, rule] of policy.rules.entries()) {
    let subject: string | undefined;
    if (rule.onExitCodes) {
      const c = matchOnExitCodes(status, rule.onExitCodes);
      if (!c) continue;
      subject = `Container ${c.name} for pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} failed with exit code ${c.state?.terminated?.exitCode ?? 0}`;
    } else if (rule.onPodConditions) {
      const type = matchOnPodConditions(status, rule.onPodConditions);
      if (type === undefined) continue;
      subject = `Pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} has condition ${type}`;
    } else {
      continue;
    }
    switch (rule.action) {
      case 'Ignore':
        return { action: 'Ignore' };
      case 'FailIndex':
        return { action: 'FailIndex' };
      case 'Count':
        return { action: 'Count' };
      case 'FailJob':
        return { action: 'FailJob', message: `${subject} matching FailJob rule at index ${index}` };
      default: {
        // An action this version does not know is skipped, as upstream's switch falls through.
        const unknown: never = rule.action;
        void unknown;
      }
    }
  }
  return { action: 'None' };
}

function matchOnExitCodes(status: DeepReadonly<PodStatus>, req: DeepReadonly<PodFailurePolicyOnExitCodesRequirement>): DeepReadonly<ContainerStatus> | undefined {
  return matchingContainer(status.containerStatuses, req) ?? matchingContainer(status.initContainerStatuses, req);
}

function matchingContainer(statuses: readonly DeepReadonly<ContainerStatus>[] | undefined, req: DeepReadonly<PodFailurePolicyOnExitCodesRequirement>): DeepReadonly<ContainerStatus> | undefined {
  for (const s of statuses ?? []) {
    const terminated = s.state?.terminated;
    // A container still terminating has no exit code to match.
    if (!terminated) continue;
    if (req.containerName !== undefined && req.containerName !== s.name) continue;
    if (terminated.exitCode === 0) continue;
    const listed = req.values.includes(terminated.exitCode);
    if (req.operator === 'In' ? listed : req.operator === 'NotIn' && !listed) return s;
  }
  return undefined;
}

function matchOnPodConditions(status: DeepReadonly<PodStatus>, patterns: readonly DeepReadonly<PodFailurePolicyOnPodConditionsPattern>[]): string | undefined {
  for (const c of status.conditions ?? []) {
    for (const p of patterns) {
      if (c.type === p.type && c.status === (p.status ?? 'True')) return c.type;
    }
  }
  return undefined;
}
