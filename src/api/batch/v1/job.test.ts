import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { jobDefinition as def } from './job.ts';
import type { Job, JobSpec } from './job.ts';

const now = Date.parse('2025-01-01T00:05:00Z');
const ctx = { now };
const messages = (errs: FieldError[]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));

/** A Job as the server sees it at prepareForCreate: decoded, defaulted, name and uid filled. */
function job(spec: Partial<JobSpec> = {}, restartPolicy: 'Never' | 'OnFailure' | 'unset' = 'Never'): Job {
  const j: Job = {
    metadata: { name: 'pi', namespace: 'default', uid: 'uid-1', creationTimestamp: '2025-01-01T00:00:00Z', resourceVersion: '3' },
    spec: { template: { spec: { containers: [{ name: 'pi', image: 'perl' }], ...(restartPolicy === 'unset' ? {} : { restartPolicy }) } }, ...spec },
  };
  def.defaults?.(j);
  def.prepareForCreate?.(j, ctx);
  return j;
}

test('Job defaults', () => {
  const j = job();
  assert.equal(j.spec.completions, 1);
  assert.equal(j.spec.parallelism, 1);
  assert.equal(j.spec.backoffLimit, 6);
  assert.equal(j.spec.completionMode, 'NonIndexed');
  assert.equal(j.spec.suspend, false);
  assert.equal(j.spec.manualSelector, false);
  assert.equal(j.spec.podReplacementPolicy, 'TerminatingOrFailed');
  const perIndex = job({ completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1 });
  assert.equal(perIndex.spec.backoffLimit, 2147483647);
  assert.equal(perIndex.spec.parallelism, 1);
  const withPolicy = job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } });
  assert.equal(withPolicy.spec.podReplacementPolicy, 'Failed');
  assert.equal(withPolicy.spec.podFailurePolicy?.rules[0]?.onPodConditions?.[0]?.status, 'True');
  const workQueue = job({ parallelism: 3 });
  assert.equal(workQueue.spec.completions, undefined);
});

test('Job generated selector and labels', () => {
  const j = job();
  assert.deepEqual(j.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': 'uid-1' } });
  assert.deepEqual(j.spec.template.metadata?.labels, {
    'job-name': 'pi',
    'batch.kubernetes.io/job-name': 'pi',
    'controller-uid': 'uid-1',
    'batch.kubernetes.io/controller-uid': 'uid-1',
  });
  assert.deepEqual(j.metadata.labels, j.spec.template.metadata?.labels, 'a Job without labels reads back with its template\'s');
  assert.deepEqual(messages(def.validateCreate!(j, ctx)), []);
});

test('Job validation messages match upstream', () => {
  const cases: [string, Job, string[]][] = [
    ['no restartPolicy', job({}, 'unset'), ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['negative backoffLimit', job({ backoffLimit: -1 }), ['spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']],
    ['indexed without completions', job({ completionMode: 'Indexed', parallelism: 2 }), ['spec.completions: Required value: when completion mode is Indexed']],
    [
      'per-index limit on NonIndexed',
      job({ backoffLimitPerIndex: 1 }),
      ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode'],
    ],
    [
      'pod failure policy with OnFailure',
      job({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [0, 3, 2] } }] } }, 'OnFailure'),
      [
        'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
        'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,2]: must be ordered',
        'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
      ],
    ],
    [
      'rule with neither requirement',
      job({ podFailurePolicy: { rules: [{ action: 'Count' }] } }),
      ['spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required'],
    ],
    [
      'FailIndex without backoffLimitPerIndex',
      job({ podFailurePolicy: { rules: [{ action: 'FailIndex', onPodConditions: [{ type: 'X', status: 'True' }] }] } }),
      ['spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set'],
    ],
    [
      'success policy on NonIndexed',
      job({ successPolicy: { rules: [{ succeededCount: 1 }] } }),
      ['spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode'],
    ],
    [
      'success policy index out of range',
      job({ completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{ succeededIndexes: '0,5' }] } }),
      ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0,5": error parsing succeededIndexes: too large index: "5"'],
    ],
  ];
  for (const [name, j, want] of cases) assert.deepEqual(messages(def.validateCreate!(j, ctx)), want, name);
});

test('Job template is immutable unless the Job is suspended and never started', () => {
  const old = job();
  const next = structuredClone(old);
  next.spec.template.spec.nodeSelector = { zone: 'a' };
  const errs = messages(def.validateUpdate!(next, old, ctx));
  assert.equal(errs.length, 1);
  assert.match(errs[0] ?? '', /^spec\.template: Invalid value: .*: field is immutable$/);

  const suspended = job({ suspend: true });
  const edited = structuredClone(suspended);
  edited.spec.template.spec.nodeSelector = { zone: 'a' };
  edited.spec.template.metadata!.annotations = { a: 'b' };
  assert.deepEqual(messages(def.validateUpdate!(edited, suspended, ctx)), []);
});

test('Job status update rules', () => {
  const old = job();
  old.status = { failed: 2, startTime: '2025-01-01T00:00:10Z' };
  const next = structuredClone(old);
  next.status = { failed: 1, startTime: '2025-01-01T00:00:10Z', conditions: [{ type: 'Failed', status: 'True' }] };
  assert.deepEqual(messages(def.validateStatusUpdate!(next, old, ctx)), [
    'status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition',
    'status.failed: Invalid value: 1: cannot decrease the failed counter',
  ]);
});

test('Job table cells', () => {
  const j = job({ parallelism: 1 });
  j.status = { succeeded: 1, startTime: '2025-01-01T00:00:10Z', completionTime: '2025-01-01T00:01:20Z', conditions: [{ type: 'Complete', status: 'True' }] };
  assert.deepEqual(def.table!.columns.map((c) => c.name), ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector']);
  assert.deepEqual(def.table!.cells(j, now), ['pi', 'Complete', '1/1', '70s', '5m', 'pi', 'perl', 'batch.kubernetes.io/controller-uid=uid-1']);
  const running = job({ parallelism: 3 });
  running.status = { startTime: '2025-01-01T00:02:00Z' };
  assert.deepEqual(def.table!.cells(running, now).slice(1, 4), ['Running', '0/1 of 3', '3m']);
  const pending = job();
  pending.metadata.deletionTimestamp = '2025-01-01T00:04:00Z';
  assert.deepEqual(def.table!.cells(pending, now).slice(1, 4), ['Terminating', '0/1', '']);
  assert.equal(def.fieldLabels!['status.successful']!(j), '1');
});
