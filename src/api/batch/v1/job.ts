// Job (batch/v1): defaults, strategy (generated selector, status split), table and definition.
// Types live in ./job-types.ts and validation in ./job-validation.ts.
// Upstream: pkg/apis/batch/v1/defaults.go, pkg/registry/batch/job/strategy.go,
// pkg/printers/internalversion/printers.go (printJob).
import { FieldPath } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { formatLabelSelector } from '../../apps/v1/selector.ts';
import { ageColumn, column, containersColumn, humanDuration, imagesColumn, layoutContainerCells, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultPodTemplate, validateObjectMetaUpdate } from '../../workload-template.ts';
import type { Job } from './job-types.ts';
import { JobLabel, isJobConditionTrue, maxInt32 } from './job-types.ts';
import { requirePrefixedLabelsOnUpdate, validateJob, validateJobSpecUpdate, validateJobStatusUpdate } from './job-validation.ts';

export * from './job-types.ts';

/** SetDefaults_Job plus the pod template's defaults. */
export function defaultJob(job: Job): void {
  const spec = (job.spec ??= { template: { spec: { containers: [] } } });
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex !== undefined ? maxInt32 : 6;
  const templateLabels = spec.template?.metadata?.labels;
  if (templateLabels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...templateLabels };
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  for (const rule of spec.podFailurePolicy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) pattern.status ||= 'True';
  }
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
  defaultPodTemplate((spec.template ??= { spec: { containers: [] } }));
}

/**
 * generateSelector: labels the template with the Job's uid and name (unless the user set them)
 * and selects on the uid. Needs metadata.name and metadata.uid, so the server must have filled
 * both before prepareForCreate runs.
 */
export function generateJobSelector(job: Job): void {
  const template = (job.spec.template ??= { spec: { containers: [] } });
  const labels = ((template.metadata ??= {}).labels ??= {});
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  for (const key of [JobLabel.LegacyJobName, JobLabel.JobName]) if (!Object.hasOwn(labels, key)) labels[key] = name;
  for (const key of [JobLabel.LegacyControllerUid, JobLabel.ControllerUid]) if (!Object.hasOwn(labels, key)) labels[key] = uid;
  const matchLabels = ((job.spec.selector ??= {}).matchLabels ??= {});
  if (!Object.hasOwn(matchLabels, JobLabel.ControllerUid)) matchLabels[JobLabel.ControllerUid] = uid;
}

/** The STATUS column of `kubectl get jobs`. */
export function jobStatusCell(job: Job): string {
  if (isJobConditionTrue(job, 'Complete')) return 'Complete';
  if (isJobConditionTrue(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (isJobConditionTrue(job, 'Suspended')) return 'Suspended';
  if (isJobConditionTrue(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completionsCell(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec.completions !== undefined) return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function durationCell(job: Job, now: number): string {
  const start = job.status?.startTime;
  if (!start) return '';
  const end = job.status?.completionTime;
  return humanDuration((end ? Date.parse(end) : now) - Date.parse(start));
}

export const jobTable: TablePrinter<Job> = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  cells(job, now) {
    const [names, images] = layoutContainerCells(job.spec.template?.spec?.containers);
    return [
      job.metadata.name ?? '',
      jobStatusCell(job),
      completionsCell(job),
      durationCell(job, now),
      translateTimestampSince(job.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(job.spec.selector),
    ];
  },
};

const root = FieldPath.root;

export const jobDefinition: ResourceDefinition<Job> = {
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  resource: 'jobs',
  singular: 'job',
  namespaced: true,
  categories: ['all'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultJob,
  prepareForCreate(job) {
    if (job.spec.manualSelector !== true) generateJobSelector(job);
    // Upstream's decoder defaults again on every read from storage, so a Job created without labels
    // reads back with its template's, the selector's generated ones included (`kubectl describe job`).
    const templateLabels = job.spec.template.metadata?.labels;
    if (templateLabels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...templateLabels };
    job.status = {};
  },
  prepareForUpdate(job, old, ctx) {
    if (ctx.subresource === 'status') {
      job.spec = old.spec;
      return;
    }
    if (old.status) job.status = old.status;
    else delete job.status;
  },
  validateCreate(job) {
    return validateJob(job, true);
  },
  validateUpdate(job, old): FieldError[] {
    // Upstream runs ValidateJob and then ValidateJobUpdate, which validates the spec again.
    return [
      ...validateJob(job, requirePrefixedLabelsOnUpdate(old)),
      ...validateObjectMetaUpdate(job.metadata, old.metadata, root('metadata')),
      ...validateJobSpecUpdate(job, old),
    ];
  },
  validateStatusUpdate(job, old) {
    return [...validateObjectMetaUpdate(job.metadata, old.metadata, root('metadata')), ...validateJobStatusUpdate(job, old)];
  },
  table: jobTable,
  fieldLabels: {
    'status.successful': (job) => String(job.status?.succeeded ?? 0),
  },
};
