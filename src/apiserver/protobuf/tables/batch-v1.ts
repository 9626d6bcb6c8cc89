// Protobuf field tables for k8s.io.api.batch.v1 (number:jsonName:type, see ../field-table.ts for the grammar).
// Upstream: staging/src/k8s.io/api/batch/v1/generated.proto
import type { ProtoPackage } from '../field-table.ts';

export const batchV1: ProtoPackage = {
  proto: 'batch.v1',
  group: 'batch',
  version: 'v1',
  kinds: [
    'CronJob', 'CronJobList', 'Job', 'JobList',
  ],
  messages: {
    CronJob: '1:metadata:meta.v1.ObjectMeta 2:spec:CronJobSpec 3:status:CronJobStatus',
    CronJobList: '1:metadata:meta.v1.ListMeta 2:items:CronJob*',
    CronJobSpec: '1:schedule:s 8:timeZone:s? 2:startingDeadlineSeconds:l? 3:concurrencyPolicy:s 4:suspend:b? 5:jobTemplate:JobTemplateSpec 6:successfulJobsHistoryLimit:i? 7:failedJobsHistoryLimit:i?',
    CronJobStatus: '1:active:core.v1.ObjectReference* 4:lastScheduleTime:@time? 5:lastSuccessfulTime:@time?',
    Job: '1:metadata:meta.v1.ObjectMeta 2:spec:JobSpec 3:status:JobStatus',
    JobCondition: '1:type:s 2:status:s 3:lastProbeTime:@time 4:lastTransitionTime:@time 5:reason:s 6:message:s',
    JobList: '1:metadata:meta.v1.ListMeta 2:items:Job*',
    JobSpec: '1:parallelism:i? 2:completions:i? 3:activeDeadlineSeconds:l? 11:podFailurePolicy:PodFailurePolicy? 16:successPolicy:SuccessPolicy? 7:backoffLimit:i? 12:backoffLimitPerIndex:i? 13:maxFailedIndexes:i? 4:selector:meta.v1.LabelSelector? 5:manualSelector:b? 6:template:core.v1.PodTemplateSpec 8:ttlSecondsAfterFinished:i? 9:completionMode:s? 10:suspend:b? 14:podReplacementPolicy:s? 15:managedBy:s?',
    JobStatus: '1:conditions:JobCondition* 2:startTime:@time? 3:completionTime:@time? 4:active:i 5:succeeded:i 6:failed:i 11:terminating:i? 7:completedIndexes:s 10:failedIndexes:s? 8:uncountedTerminatedPods:UncountedTerminatedPods? 9:ready:i?',
    JobTemplateSpec: '1:metadata:meta.v1.ObjectMeta 2:spec:JobSpec',
    PodFailurePolicy: '1:rules:PodFailurePolicyRule*',
    PodFailurePolicyOnExitCodesRequirement: '1:containerName:s? 2:operator:s 3:values:i*',
    PodFailurePolicyOnPodConditionsPattern: '1:type:s 2:status:s',
    PodFailurePolicyRule: '1:action:s 2:onExitCodes:PodFailurePolicyOnExitCodesRequirement? 3:onPodConditions:PodFailurePolicyOnPodConditionsPattern*',
    SuccessPolicy: '1:rules:SuccessPolicyRule*',
    SuccessPolicyRule: '1:succeededIndexes:s? 2:succeededCount:i?',
    UncountedTerminatedPods: '1:succeeded:s* 2:failed:s*',
  },
};
