// CronJobs as a kubectl user meets them: `kubectl create cronjob` (a protobuf body), the
// SCHEDULE/TIMEZONE/SUSPEND/ACTIVE columns, `kubectl create job --from=cronjob/...` running the
// template at once, and an invalid schedule refused in robfig/cron's words.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { drydockForSuite } from './harness.ts';

describe('CronJobs with kubectl', () => {
  const dd = drydockForSuite({ config: 'apiVersion: drydock.dev/v1alpha1\nkind: Cluster\nnodePools:\n- name: cpu\n  count: 1\n' });

  test('create cronjob, get, create job --from, and a bad schedule', async () => {
    assert.equal((await dd.ok(['create', 'cronjob', 'nightly-eval', '--image=busybox', '--schedule=0 3 * * *', '--', 'sh', '-c', 'echo evaluating'])).trim(), 'cronjob.batch/nightly-eval created');
    assert.match(await dd.ok(['get', 'cronjob', 'nightly-eval']), /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\nnightly-eval\s+0 3 \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\S+\n$/);
    assert.equal((await dd.ok(['create', 'job', '--from=cronjob/nightly-eval', 'eval-now'])).trim(), 'job.batch/eval-now created');
    await dd.ok(['wait', '--for=condition=complete', 'job/eval-now', '--timeout=60s']);
    assert.equal(await dd.ok(['logs', 'job/eval-now']), 'evaluating\n');
    const r = await dd.kubectl(['patch', 'cronjob', 'nightly-eval', '-p', '{"spec":{"schedule":"0 3 * *","timeZone":"Moon/Base"}}']);
    assert.equal(r.stderr.trim(), 'The CronJob "nightly-eval" is invalid: \n* spec.schedule: Invalid value: "0 3 * *": expected exactly 5 fields, found 4: [0 3 * *]\n* spec.timeZone: Invalid value: "Moon/Base": unknown time zone Moon/Base');
  });
});
