// CronJob (batch/v1): wire types, defaults, the schedule (robfig/cron's standard form: five fields
// or a descriptor) and time zone, validation, status split and table.
// Upstream: staging/src/k8s.io/api/batch/v1/types.go, pkg/apis/batch/v1/defaults.go (SetDefaults_CronJob),
// pkg/apis/batch/validation/validation.go (ValidateCronJob*, validateScheduleFormat, ValidateJobTemplateSpec),
// pkg/registry/batch/cronjob/strategy.go, printers.go (printCronJob).
import { CronExpressionParser } from 'cron-parser';
import { FieldPath, formatLabelSelector, GoSyntax, invalidValue, lookupTable, notSupported } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, containersColumn, imagesColumn, layoutContainerCells, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { defaultPodTemplate, validateObjectMetaCreate, validateObjectMetaUpdate, validatePodTemplate } from '../../workload-template.ts';
import type { JobSpec } from './job-types.ts';
import { validateJobSpecFields } from './job-validation.ts';

export interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
  suspend?: boolean;
  jobTemplate: { metadata?: ObjectMeta; spec: JobSpec };
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface CronJobStatus {
  active?: { apiVersion?: string; kind?: string; name?: string; namespace?: string; uid?: string; resourceVersion?: string }[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export interface CronJob extends KubeObject {
  apiVersion?: 'batch/v1';
  kind?: 'CronJob';
  metadata: ObjectMeta;
  spec: CronJobSpec;
  status?: CronJobStatus;
}

/** The annotation a CronJob's Job carries with the time it was scheduled for. */
export const cronJobScheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

const descriptors: Readonly<Record<string, string>> = lookupTable({ '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *' });

/**
 * cron.ParseStandard: five fields or a descriptor, after an optional `TZ=<zone> ` or `CRON_TZ=<zone> `
 * prefix naming the zone it runs in (validation refuses the prefix separately); the error text is robfig/cron's.
 */
export function parseSchedule(schedule: string, timeZone: string | undefined): { next(after: number): number } | { error: string } {
  let text = schedule.trim();
  const prefixed = /^(?:CRON_)?TZ=(\S*)\s+/.exec(text);
  if (prefixed) {
    const zone = prefixed[1] ?? '';
    if (!knownTimeZone(zone)) return { error: `provided bad location ${zone}: unknown time zone ${zone}` };
    timeZone = zone;
    text = text.slice(prefixed[0].length);
  }
  let expression = descriptors[text];
  if (expression === undefined) {
    if (text.startsWith('@')) return { error: `unrecognized descriptor: ${text}` };
    const fields = text.split(/\s+/).filter(Boolean);
    if (fields.length !== 5) return { error: `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]` };
    expression = fields.join(' ');
  }
  try {
    CronExpressionParser.parse(expression, { currentDate: new Date(0), ...(timeZone ? { tz: timeZone } : {}) });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const e = expression;
  return { next: (after) => CronExpressionParser.parse(e, { currentDate: new Date(after), tz: timeZone ?? 'UTC' }).next().getTime() };
}

/** time.LoadLocation: an IANA zone name this runtime knows. */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** SetDefaults_CronJob; the job template's pod spec gets the pod defaults. */
export function defaultCronJob(cj: CronJob): void {
  const spec = (cj.spec ??= { schedule: '', jobTemplate: { spec: { template: { spec: { containers: [] } } } } });
  spec.concurrencyPolicy ||= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jobSpec = ((spec.jobTemplate ??= { spec: { template: { spec: { containers: [] } } } }).spec ??= { template: { spec: { containers: [] } } });
  defaultPodTemplate((jobSpec.template ??= { spec: { containers: [] } }));
}

function validateCronJobSpec(spec: CronJobSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = spec.schedule ?? '';
  if (!schedule) errs.push({ type: 'FieldValueRequired', field: String(path.child('schedule')), detail: '', omitValue: true });
  else {
    const parsed = parseSchedule(schedule, undefined);
    if ('error' in parsed) errs.push(invalidValue(path.child('schedule'), schedule, parsed.error));
    if (schedule.includes('TZ')) errs.push(invalidValue(path.child('schedule'), schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  const tz = spec.timeZone;
  if (tz !== undefined) {
    if (tz.toLowerCase() === 'local') errs.push(invalidValue(path.child('timeZone'), tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
    else if (!knownTimeZone(tz)) errs.push(invalidValue(path.child('timeZone'), tz, `unknown time zone ${tz}`));
  }
  if (spec.startingDeadlineSeconds !== undefined && spec.startingDeadlineSeconds < 0) errs.push(invalidValue(path.child('startingDeadlineSeconds'), spec.startingDeadlineSeconds, 'must be greater than or equal to 0'));
  if (!['Allow', 'Forbid', 'Replace'].includes(spec.concurrencyPolicy ?? '')) errs.push(notSupported(path.child('concurrencyPolicy'), spec.concurrencyPolicy ?? '', ['Allow', 'Forbid', 'Replace']));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const) {
    const v = spec[f];
    if (v !== undefined && v < 0) errs.push(invalidValue(path.child(f), v, 'must be greater than or equal to 0'));
  }
  // ValidateJobTemplateSpec: the Job's own checks, its pod template, and a selector left to the Job.
  const jobPath = path.child('jobTemplate', 'spec');
  const jobSpec = spec.jobTemplate?.spec ?? { template: { spec: { containers: [] } } };
  errs.push(...validateJobSpecFields(jobSpec, jobPath), ...validatePodTemplate(jobSpec.template, jobPath.child('template')));
  if (jobSpec.selector) errs.push(invalidValue(jobPath.child('selector'), jobSpec.selector, '`selector` will be auto-generated'));
  if (jobSpec.manualSelector) errs.push(notSupported(jobPath.child('manualSelector'), new GoSyntax('true'), ['nil', 'false']));
  return errs;
}

function validateName(cj: CronJob): FieldError[] {
  const name = cj.metadata.name ?? '';
  // Its Jobs are named <cronjob>-<minutes since the epoch>, which must stay a DNS-1035 label.
  return name.length > 52 ? [invalidValue(FieldPath.root('metadata').child('name'), name, 'must be no more than 52 characters')] : [];
}

const root = FieldPath.root;

const cronJobTable: TablePrinter<CronJob> = {
  columns: [
    nameColumn,
    column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    column('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones'),
    column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    column('Active', 'integer', 'A list of pointers to currently running jobs.'),
    column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    column('Selector', 'string', 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  cells(cj, now) {
    const [names, images] = layoutContainerCells(cj.spec.jobTemplate?.spec?.template?.spec?.containers);
    const last = cj.status?.lastScheduleTime;
    return [
      cj.metadata.name ?? '',
      cj.spec.schedule,
      cj.spec.timeZone ?? '<none>',
      // printBoolPtr: a string, True / False / <unset>.
      cj.spec.suspend === undefined ? '<unset>' : cj.spec.suspend ? 'True' : 'False',
      cj.status?.active?.length ?? 0,
      last ? translateTimestampSince(last, now) : '<none>',
      translateTimestampSince(cj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(cj.spec.jobTemplate?.spec?.selector) || '<none>',
    ];
  },
};

export const cronJobDefinition: ResourceDefinition<CronJob> = {
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  resource: 'cronjobs',
  singular: 'cronjob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
  hasStatus: true,
  defaults: defaultCronJob,
  prepareForCreate(cj) {
    cj.status = {};
  },
  prepareForUpdate(cj, old, ctx) {
    if (ctx.subresource === 'status') {
      cj.spec = old.spec;
      return;
    }
    cj.status = old.status ?? {};
  },
  validateCreate: (cj) => [...validateObjectMetaCreate(cj.metadata, true, root('metadata')), ...validateName(cj), ...validateCronJobSpec(cj.spec, root('spec'))],
  validateUpdate: (cj, old) => [...validateObjectMetaUpdate(cj.metadata, old.metadata, root('metadata')), ...validateCronJobSpec(cj.spec, root('spec'))],
  table: cronJobTable,
};
