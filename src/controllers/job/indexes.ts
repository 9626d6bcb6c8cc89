// Completion indexes of Indexed Jobs as ordered, non-overlapping intervals, the form
// status.completedIndexes and status.failedIndexes take on the wire ("1,3-5,7").
// Upstream: pkg/controller/job/indexed_job_utils.go (orderedIntervals).
//
// Worked example: [{first: 1, last: 1}, {first: 3, last: 5}] prints "1,3-5"; adding 2
// merges into [{1, 5}] = "1-5"; an interval of exactly two prints "7,8", not "7-8".
import { JobAnnotation } from '../../api/index.ts';

export interface Interval {
  readonly first: number;
  readonly last: number;
}

export type OrderedIntervals = readonly Interval[];

/** What getCompletionIndex returns for a missing or malformed annotation. */
export const unknownCompletionIndex = -1;

/** Parses intervals, skipping corrupt fragments and clipping to [0, completions) as upstream. */
export function parseIndexesFromString(text: string | undefined, completions: number): OrderedIntervals {
  const result: Interval[] = [];
  if (!text) return result;
  for (const fragment of text.split(',')) {
    const limits = fragment.split('-');
    const first = atoi(limits[0] ?? '');
    if (first === undefined) continue;
    if (first >= completions) break;
    let last = first;
    if (limits.length > 1) {
      const parsed = atoi(limits[1] ?? '');
      if (parsed === undefined) continue;
      last = Math.min(parsed, completions - 1);
    }
    const prev = result[result.length - 1];
    if (prev && prev.last === first - 1) result[result.length - 1] = { first: prev.first, last };
    else result.push({ first, last });
  }
  return result;
}

function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

export function formatIntervals(intervals: OrderedIntervals): string {
  const parts: string[] = [];
  for (const { first, last } of intervals) {
    if (last === first) parts.push(String(first));
    else if (last === first + 1) parts.push(`${first},${last}`);
    else parts.push(`${first}-${last}`);
  }
  return parts.join(',');
}

export function totalIndexes(intervals: OrderedIntervals): number {
  let total = 0;
  for (const { first, last } of intervals) total += last - first + 1;
  return total;
}

export function hasIndex(intervals: OrderedIntervals | undefined, ix: number): boolean {
  return (intervals ?? []).some(({ first, last }) => first <= ix && ix <= last);
}

/** Merges two interval lists into one ordered list, joining adjacent intervals. */
export function mergeIntervals(a: OrderedIntervals, b: OrderedIntervals): OrderedIntervals {
  const all = [...a, ...b].sort((x, y) => x.first - y.first);
  const result: Interval[] = [];
  for (const iv of all) {
    const prev = result[result.length - 1];
    if (prev && iv.first <= prev.last + 1) result[result.length - 1] = { first: prev.first, last: Math.max(prev.last, iv.last) };
    else result.push(iv);
  }
  return result;
}

/** Adds single indexes (any order, duplicates allowed). */
export function withIndexes(intervals: OrderedIntervals, indexes: readonly number[]): OrderedIntervals {
  return mergeIntervals(intervals, indexes.map((ix) => ({ first: ix, last: ix })));
}

/** The completion index from the pod annotation; unknownCompletionIndex when absent or malformed. */
export function getCompletionIndex(annotations: Readonly<Record<string, string>> | undefined): number {
  const value = annotations?.[JobAnnotation.JobCompletionIndex];
  if (value === undefined || !/^\d+$/.test(value)) return unknownCompletionIndex;
  const ix = Number(value);
  return Number.isSafeInteger(ix) ? ix : unknownCompletionIndex;
}

/**
 * The first `count` indexes below `completions` that are not in `nonPending`
 * (succeeded, failed, active or, when only failed pods are replaced, terminating).
 */
export function firstPendingIndexes(nonPending: OrderedIntervals, count: number, completions: number): number[] {
  const result: number[] = [];
  let candidate = 0;
  for (const iv of nonPending) {
    for (; candidate < completions && result.length < count && candidate < iv.first; candidate++) result.push(candidate);
    if (candidate < iv.last + 1) candidate = iv.last + 1;
  }
  for (; candidate < completions && result.length < count; candidate++) result.push(candidate);
  return result;
}
