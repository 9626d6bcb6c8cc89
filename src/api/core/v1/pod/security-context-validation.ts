// The security-context rules of three gates on by default in 1.35: SupplementalGroupsPolicy (GA),
// ProcMountType and UserNamespacesSupport (beta). Every check reads a field first and returns at once
// when it is unset, since pod validation runs on every create.
// Upstream: pkg/apis/core/validation/validation.go (validatePodSpecSecurityContext,
// validateSupplementalGroupsPolicy, ValidateSecurityContext, ValidateProcMountType, validateHostUsers).
import { forbiddenField, invalidValue, notSupported } from '../../../../core/index.ts';
import type { FieldError, FieldPath } from '../../../../core/index.ts';
import type { PodSpec, SecurityContext } from './types.ts';

const supplementalGroupsPolicies = ['Merge', 'Strict'] as const; // sets.List: sorted
const procMountTypes = ['Default', 'Unmasked'] as const;
const inUserNamespaceOnly = 'when `hostUsers` is false';

/** hostUsers defaults to true: only an explicit false puts the pod in a user namespace. */
export function podUsesHostUsers(spec: Pick<PodSpec, 'hostUsers'>): boolean {
  return spec.hostUsers !== false;
}

/** The gated part of validatePodSpecSecurityContext, at `spec.securityContext`. */
export function validatePodSecurityContextPolicies(spec: PodSpec, path: FieldPath): FieldError[] {
  const policy = spec.securityContext?.supplementalGroupsPolicy;
  if (policy === undefined || (supplementalGroupsPolicies as readonly string[]).includes(policy)) return [];
  return [notSupported(path.child('supplementalGroupsPolicy'), policy, supplementalGroupsPolicies)];
}

/** The procMount part of ValidateSecurityContext: Unmasked needs the pod's own user namespace. */
export function validateProcMount(sc: SecurityContext | undefined, path: FieldPath, hostUsers: boolean): FieldError[] {
  const procMount = sc?.procMount;
  if (procMount === undefined) return [];
  const p = path.child('procMount');
  const errs: FieldError[] = [];
  if (!(procMountTypes as readonly string[]).includes(procMount)) errs.push(notSupported(p, procMount, procMountTypes));
  if (hostUsers && procMount === 'Unmasked') errs.push(invalidValue(p, procMount, '`hostUsers` must be false to use `Unmasked`'));
  return errs;
}

/**
 * validateHostUsers: a pod in a user namespace shares none of the host's (UserNamespacesHostNetworkSupport,
 * which would allow hostNetwork, is alpha and off in 1.35). Upstream names two of the paths in Go case.
 */
export function validateHostUsers(spec: PodSpec, path: FieldPath): FieldError[] {
  if (podUsesHostUsers(spec)) return [];
  const errs: FieldError[] = [];
  if (spec.hostNetwork) errs.push(forbiddenField(path.child('hostNetwork'), inUserNamespaceOnly));
  if (spec.hostPID) errs.push(forbiddenField(path.child('HostPID'), inUserNamespaceOnly));
  if (spec.hostIPC) errs.push(forbiddenField(path.child('HostIPC'), inUserNamespaceOnly));
  return errs;
}
