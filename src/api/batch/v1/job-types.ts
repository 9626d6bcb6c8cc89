// Job (batch/v1) wire types and the label, annotation and condition names the API and the
// Job controller share.
// Upstream: staging/src/k8s.io/api/batch/v1/types.go.
import type { Condition, KubeObject, LabelSelector, ObjectMeta } from '../../../core/index.ts';
import type { PodTemplateSpec } from '../../core/v1/pod.ts';

export type CompletionMode = 'NonIndexed' | 'Indexed';
export type PodReplacementPolicy = 'TerminatingOrFailed' | 'Failed';
export type PodFailurePolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';
export type PodFailurePolicyOnExitCodesOperator = 'In' | 'NotIn';

export interface PodFailurePolicyOnExitCodesRequirement {
  containerName?: string;
  operator: PodFailurePolicyOnExitCodesOperator;
  values: number[];
}

export interface PodFailurePolicyOnPodConditionsPattern {
  type: string;
  /** Defaulted to True. */
  status?: 'True' | 'False' | 'Unknown';
}

export interface PodFailurePolicyRule {
  action: PodFailurePolicyAction;
  onExitCodes?: PodFailurePolicyOnExitCodesRequirement;
  onPodConditions?: PodFailurePolicyOnPodConditionsPattern[];
}

export interface PodFailurePolicy {
  rules: PodFailurePolicyRule[];
}

export interface SuccessPolicyRule {
  succeededIndexes?: string;
  succeededCount?: number;
}

export interface SuccessPolicy {
  rules: SuccessPolicyRule[];
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: PodFailurePolicy;
  successPolicy?: SuccessPolicy;
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: CompletionMode;
  suspend?: boolean;
  podReplacementPolicy?: PodReplacementPolicy;
  managedBy?: string;
}

export const JobConditionType = {
  Suspended: 'Suspended',
  Complete: 'Complete',
  Failed: 'Failed',
  FailureTarget: 'FailureTarget',
  SuccessCriteriaMet: 'SuccessCriteriaMet',
} as const;
export type JobConditionType = (typeof JobConditionType)[keyof typeof JobConditionType];

export interface JobCondition extends Condition {
  type: JobConditionType | (string & {});
}

export interface UncountedTerminatedPods {
  succeeded?: string[];
  failed?: string[];
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: UncountedTerminatedPods;
  ready?: number;
}

export interface Job extends KubeObject {
  apiVersion?: 'batch/v1';
  kind?: 'Job';
  metadata: ObjectMeta;
  spec: JobSpec;
  status?: JobStatus;
}

/** Labels generateSelector puts on the template (and selects on, for the uid ones). */
export const JobLabel = {
  ControllerUid: 'batch.kubernetes.io/controller-uid',
  JobName: 'batch.kubernetes.io/job-name',
  LegacyControllerUid: 'controller-uid',
  LegacyJobName: 'job-name',
  /** Label and annotation on Indexed Job pods. */
  JobCompletionIndex: 'batch.kubernetes.io/job-completion-index',
} as const;

export const JobAnnotation = {
  JobCompletionIndex: 'batch.kubernetes.io/job-completion-index',
  JobIndexFailureCount: 'batch.kubernetes.io/job-index-failure-count',
  JobIndexIgnoredFailureCount: 'batch.kubernetes.io/job-index-ignored-failure-count',
} as const;

/** Finalizer the Job controller puts on its pods while it has not counted them. */
export const JobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

/** spec.managedBy value (or absence) that means the built-in controller syncs the Job. */
export const JobControllerName = 'kubernetes.io/job-controller';

export const maxInt32 = 2147483647;

export function isJobConditionTrue(job: { status?: JobStatus | undefined }, type: JobConditionType): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}
