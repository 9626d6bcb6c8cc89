// A CronJob's schedule as robfig/cron reads it and as validation judges it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import { cronJobDefinition as def, parseSchedule } from './cron-job.ts';
import type { CronJob } from './cron-job.ts';

const ctx = { now: Date.parse('2025-01-01T00:05:00Z') };

function errors(schedule: string, timeZone?: string): string[] {
  const cj: CronJob = {
    metadata: { name: 'nightly', namespace: 'default' },
    spec: { schedule, ...(timeZone ? { timeZone } : {}), jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] } } } } },
  };
  def.defaults?.(cj);
  return (def.validateCreate?.(cj, ctx) ?? []).map((e) => formatFieldError(e, { withField: true }));
}

test('a TZ or CRON_TZ prefix parses (the zone it runs in) but validation refuses it in favour of timeZone', () => {
  assert.deepEqual(errors('CRON_TZ=UTC 0 3 * * *'), ['spec.schedule: Invalid value: "CRON_TZ=UTC 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']);
  assert.deepEqual(errors('TZ=Moon/Base 0 3 * * *'), [
    'spec.schedule: Invalid value: "TZ=Moon/Base 0 3 * * *": provided bad location Moon/Base: unknown time zone Moon/Base',
    'spec.schedule: Invalid value: "TZ=Moon/Base 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
  ]);
  assert.deepEqual(errors('0 3 * *'), ['spec.schedule: Invalid value: "0 3 * *": expected exactly 5 fields, found 4: [0 3 * *]']);
  const tokyo = parseSchedule('CRON_TZ=Asia/Tokyo 0 3 * * *', undefined);
  assert.ok('next' in tokyo);
  assert.equal(new Date(tokyo.next(Date.parse('2025-01-01T00:00:00Z'))).toISOString(), '2025-01-01T18:00:00.000Z', '03:00 in Tokyo');
});
