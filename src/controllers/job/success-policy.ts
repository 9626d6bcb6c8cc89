// spec.successPolicy of Indexed Jobs: the first rule the succeeded indexes satisfy.
// Upstream: pkg/controller/job/success_policy.go.
import type { DeepReadonly } from '../../core/index.ts';
import type { SuccessPolicy } from '../../api/index.ts';
import type { OrderedIntervals } from './indexes.ts';
import { parseIndexesFromString, totalIndexes } from './indexes.ts';

/** The SuccessCriteriaMet message (`Matched rules at index 0`), or undefined if no rule matches. */
export function matchSuccessPolicy(policy: DeepReadonly<SuccessPolicy> | undefined, completions: number, succeeded: OrderedIntervals): string | undefined {
  if (!policy || succeeded.length === 0) return undefined;
  for (const [index, rule] of policy.rules.entries()) {
    if (rule.succeededIndexes !== undefined) {
      const required = parseIndexesFromString(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      if (matchSucceededIndexesRule(required, succeeded, rule.succeededCount)) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && totalIndexes(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}

/** All required indexes succeeded, or at least succeededCount of them. */
function matchSucceededIndexesRule(required: OrderedIntervals, succeeded: OrderedIntervals, succeededCount: number | undefined): boolean {
  let contains = 0;
  let s = 0;
  let r = 0;
  while (r < required.length && s < succeeded.length) {
    const ri = required[r] as OrderedIntervals[number];
    const si = succeeded[s] as OrderedIntervals[number];
    const overlap = Math.min(ri.last, si.last) - Math.max(ri.first, si.first) + 1;
    if (overlap > 0) contains += overlap;
    if (si.last < ri.last) s++;
    else if (si.last > ri.last) r++;
    else {
      s++;
      r++;
    }
  }
  return contains === totalIndexes(required) || (succeededCount !== undefined && contains >= succeededCount);
}
