// When a CronJob is due: the most recent scheduled time it has not run yet (nothing before its
// creation or last schedule, nothing older than its starting deadline), and when it is next due.
// Pure. Upstream: pkg/controller/cronjob/utils.go (mostRecentScheduleTime, nextScheduleTimeDuration, getJobName).
import { parseSchedule } from '../../api/index.ts';
import type { CronJob } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';

/** More missed starts than this and the controller says so (TooManyMissedTimes). */
export const tooManyMissed = 100;

export interface Due {
  /** The scheduled time to run now, if any came due since the last one. */
  scheduled?: number;
  /** How many scheduled times came due since the last one (the others were missed). */
  missed: number;
  /** The next scheduled time after now. */
  next: number;
}

/** mostRecentScheduleTime with the starting deadline; undefined when the schedule or zone is invalid. */
export function dueTimes(cj: DeepReadonly<CronJob>, now: number): Due | undefined {
  const schedule = parseSchedule(cj.spec.schedule, cj.spec.timeZone);
  if ('error' in schedule) return undefined;
  let earliest = Date.parse(cj.status?.lastScheduleTime ?? cj.metadata.creationTimestamp ?? '');
  if (!Number.isFinite(earliest)) earliest = now;
  const deadline = cj.spec.startingDeadlineSeconds;
  if (deadline !== undefined && now - deadline * 1000 > earliest) earliest = now - deadline * 1000;
  let missed = 0;
  let scheduled: number | undefined;
  for (let t = schedule.next(earliest); t <= now; t = schedule.next(t)) {
    scheduled = t;
    // Past the warning threshold counting stops: only the most recent time is run.
    if (++missed > tooManyMissed) {
      scheduled = lastBefore(schedule, t, now);
      break;
    }
  }
  return { ...(scheduled !== undefined ? { scheduled } : {}), missed, next: schedule.next(now) };
}

/** The last scheduled time at or before now, found from a day back (then further): a minute schedule missed for a year must not be walked minute by minute. */
function lastBefore(schedule: { next(after: number): number }, from: number, now: number): number {
  for (let days = 1; days <= 512; days *= 2) {
    let t = schedule.next(Math.max(from, now - days * 86_400_000));
    if (t > now) continue;
    for (let n = schedule.next(t); n <= now; n = schedule.next(n)) t = n;
    return t;
  }
  return from;
}

/** getJobName: `<cronjob>-<minutes since the epoch of the scheduled time>`. */
export const jobNameFor = (cj: DeepReadonly<CronJob>, scheduled: number): string => `${cj.metadata.name ?? ''}-${Math.floor(scheduled / 60000)}`;
