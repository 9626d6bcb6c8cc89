// admissionregistration.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { validatingAdmissionPolicyBindingDefinition, validatingAdmissionPolicyDefinition } from './validating-admission-policy.ts';

export type * from './types.ts';
export { compilePolicyExpression, evaluatePolicyExpression, toCelValue } from './cel.ts';
export type { PolicyProgram } from './cel.ts';

export const admissionregistrationV1Definitions: ResourceDefinition[] = [
  validatingAdmissionPolicyDefinition as unknown as ResourceDefinition,
  validatingAdmissionPolicyBindingDefinition as unknown as ResourceDefinition,
];
