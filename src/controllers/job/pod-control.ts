// Pod writes on behalf of a Job, with the events upstream's PodControl records.
// Upstream: pkg/controller/controller_utils.go (RealPodControl, GetPodFromTemplate),
// pkg/controller/job/job_controller.go (removeTrackingFinalizerPatch).
import { isApiError } from '../../core/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import type { Container, EnvVar, Job, Pod, PodTemplateSpec } from '../../api/index.ts';
import { JobAnnotation, JobLabel, JobTrackingFinalizer, refs } from '../../api/index.ts';
import type { JobSyncDeps } from './context.ts';
import { jobGvk } from './context.ts';
import type { ReadonlyPod } from './pods.ts';
import { hasJobTrackingFinalizer } from './pods.ts';

const completionIndexEnvName = 'JOB_COMPLETION_INDEX';
/** names.MaxGeneratedNameLength: 63 minus the 5-character random suffix. */
const maxGeneratedNameLength = 58;

/** The template every pod of the Job starts from: tracking finalizer, index env var. */
export function basePodTemplate(job: DeepReadonly<Job>): PodTemplateSpec {
  const template = structuredClone(job.spec.template) as PodTemplateSpec;
  const meta = (template.metadata ??= {});
  if (job.spec.completionMode === 'Indexed') {
    for (const c of template.spec.initContainers ?? []) addCompletionIndexEnv(c);
    for (const c of template.spec.containers) addCompletionIndexEnv(c);
  }
  const finalizers = meta.finalizers ?? [];
  if (!finalizers.includes(JobTrackingFinalizer)) meta.finalizers = [...finalizers, JobTrackingFinalizer];
  return template;
}

function addCompletionIndexEnv(c: Container): void {
  if ((c.env ?? []).some((e) => e.name === completionIndexEnvName)) return;
  const env: EnvVar = { name: completionIndexEnvName, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JobAnnotation.JobCompletionIndex}']` } } };
  c.env = [...(c.env ?? []), env];
}

/** The per-index template: annotation and label, hostname `<job>-<i>`, and the generateName. */
export function indexedPodTemplate(job: DeepReadonly<Job>, base: PodTemplateSpec, index: number, failureCounts?: { failures: number; ignored: number }): { template: PodTemplateSpec; generateName: string } {
  const template = structuredClone(base);
  const meta = (template.metadata ??= {});
  const name = job.metadata.name ?? '';
  meta.annotations = { ...meta.annotations, [JobAnnotation.JobCompletionIndex]: String(index) };
  meta.labels = { ...meta.labels, [JobLabel.JobCompletionIndex]: String(index) };
  if (failureCounts) {
    meta.annotations[JobAnnotation.JobIndexFailureCount] = String(failureCounts.failures);
    if (failureCounts.ignored > 0) meta.annotations[JobAnnotation.JobIndexIgnoredFailureCount] = String(failureCounts.ignored);
  }
  template.spec.hostname = `${name}-${index}`;
  return { template, generateName: podGenerateNameWithIndex(name, index) };
}

export function podGenerateNameWithIndex(jobName: string, index: number): string {
  const suffix = `-${index}-`;
  const prefix = jobName + suffix;
  return prefix.length > maxGeneratedNameLength ? jobName.slice(0, maxGeneratedNameLength - suffix.length) + suffix : prefix;
}

/** CreatePodsWithGenerateName: SuccessfulCreate `Created pod: <name>` or FailedCreate. */
export async function createPod(deps: JobSyncDeps, job: DeepReadonly<Job>, template: PodTemplateSpec, generateName: string): Promise<void> {
  const namespace = job.metadata.namespace ?? '';
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: generateName || `${job.metadata.name ?? ''}-`,
      namespace,
      ...(template.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ...(template.metadata?.finalizers ? { finalizers: [...template.metadata.finalizers] } : {}),
      ownerReferences: [{ ...jobGvk, name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: template.spec,
  };
  const event = { ...jobGvk, metadata: job.metadata };
  try {
    const created = await deps.client.create<Pod>(refs.pods, pod, { namespace });
    deps.recorder.event(event, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name ?? ''}`);
  } catch (error) {
    deps.recorder.event(event, 'Warning', 'FailedCreate', `Error creating: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

/** DeletePod: SuccessfulDelete `Deleted pod: <name>` or FailedDelete; NotFound is rethrown silently. */
export async function deletePod(deps: JobSyncDeps, job: DeepReadonly<Job>, pod: ReadonlyPod): Promise<void> {
  const event = { ...jobGvk, metadata: job.metadata };
  const name = pod.metadata.name ?? '';
  try {
    await deps.client.delete(refs.pods, pod.metadata.namespace, name);
    deps.recorder.event(event, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  } catch (error) {
    if (!(isApiError(error) && error.reason === 'NotFound')) {
      deps.recorder.event(event, 'Warning', 'FailedDelete', `Error deleting: ${error instanceof Error ? error.message : String(error)}`);
    }
    throw error;
  }
}

/**
 * Drops the tracking finalizer; a no-op for pods without it. Upstream sends the strategic
 * `$deleteFromPrimitiveList/finalizers` patch; a JSON patch whose `test` guards the index
 * has the same effect and fails cleanly (and is retried) if the cached pod was stale.
 */
export async function removeTrackingFinalizer(deps: JobSyncDeps, pod: ReadonlyPod): Promise<void> {
  if (!hasJobTrackingFinalizer(pod)) return;
  const i = (pod.metadata.finalizers ?? []).indexOf(JobTrackingFinalizer);
  const path = `/metadata/finalizers/${i}`;
  await deps.client.patch(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', 'json', [
    { op: 'test', path, value: JobTrackingFinalizer },
    { op: 'remove', path },
  ]);
}

export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.reason === 'NotFound';
}
