// admissionregistration.k8s.io/v1 wire types of ValidatingAdmissionPolicy and its binding.
// Upstream: staging/src/k8s.io/api/admissionregistration/v1/types.go.
import type { Condition, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';

export type FailurePolicyType = 'Fail' | 'Ignore';
export type MatchPolicyType = 'Exact' | 'Equivalent';
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';
export type ParameterNotFoundActionType = 'Allow' | 'Deny';
export type OperationType = '*' | 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
export type ScopeType = '*' | 'Cluster' | 'Namespaced';

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface NamedRuleWithOperations {
  resourceNames?: string[];
  operations?: OperationType[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: ScopeType;
}

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: MatchPolicyType;
}

export interface Validation {
  expression: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface Variable {
  name: string;
  expression: string;
}

export interface ValidatingAdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  failurePolicy?: FailurePolicyType;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: MatchCondition[];
  variables?: Variable[];
}

export interface ValidatingAdmissionPolicyStatus {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: { fieldRef: string; warning: string }[] };
  conditions?: Condition[];
}

export interface ValidatingAdmissionPolicy extends KubeObject {
  apiVersion?: 'admissionregistration.k8s.io/v1';
  kind?: 'ValidatingAdmissionPolicy';
  metadata: ObjectMeta;
  spec?: ValidatingAdmissionPolicySpec;
  status?: ValidatingAdmissionPolicyStatus;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: ParameterNotFoundActionType;
}

export interface ValidatingAdmissionPolicyBindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: ValidationAction[];
}

export interface ValidatingAdmissionPolicyBinding extends KubeObject {
  apiVersion?: 'admissionregistration.k8s.io/v1';
  kind?: 'ValidatingAdmissionPolicyBinding';
  metadata: ObjectMeta;
  spec?: ValidatingAdmissionPolicyBindingSpec;
}

export type SideEffectClass = 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';
export type ReinvocationPolicyType = 'Never' | 'IfNeeded';

export interface ServiceReference {
  namespace?: string;
  name?: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** PEM bundle, base64 on the wire. */
  caBundle?: string;
}

/** The fields ValidatingWebhook and MutatingWebhook share. */
export interface Webhook {
  name: string;
  clientConfig?: WebhookClientConfig;
  rules?: NamedRuleWithOperations[];
  failurePolicy?: FailurePolicyType;
  matchPolicy?: MatchPolicyType;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: SideEffectClass;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
}

export interface MutatingWebhook extends Webhook {
  reinvocationPolicy?: ReinvocationPolicyType;
}

export interface ValidatingWebhookConfiguration extends KubeObject {
  apiVersion?: 'admissionregistration.k8s.io/v1';
  kind?: 'ValidatingWebhookConfiguration';
  metadata: ObjectMeta;
  webhooks?: Webhook[];
}

export interface MutatingWebhookConfiguration extends KubeObject {
  apiVersion?: 'admissionregistration.k8s.io/v1';
  kind?: 'MutatingWebhookConfiguration';
  metadata: ObjectMeta;
  webhooks?: MutatingWebhook[];
}
