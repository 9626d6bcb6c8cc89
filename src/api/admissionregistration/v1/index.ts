// admissionregistration.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { validatingAdmissionPolicyBindingDefinition, validatingAdmissionPolicyDefinition } from './validating-admission-policy.ts';
import { mutatingWebhookConfigurationDefinition, validatingWebhookConfigurationDefinition } from './webhook-configuration.ts';

export type * from './types.ts';
export { compilePolicyExpression, evaluatePolicyExpression, toCelValue } from './cel.ts';
export type { PolicyProgram } from './cel.ts';
export { CelAuthorizer } from './cel-authorizer.ts';
export type { Decide } from './cel-authorizer.ts';

export const admissionregistrationV1Definitions: ResourceDefinition[] = [
  mutatingWebhookConfigurationDefinition as unknown as ResourceDefinition,
  validatingAdmissionPolicyDefinition as unknown as ResourceDefinition,
  validatingAdmissionPolicyBindingDefinition as unknown as ResourceDefinition,
  validatingWebhookConfigurationDefinition as unknown as ResourceDefinition,
];
