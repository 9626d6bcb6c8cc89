// Evaluates a pod (or a pod template) against a Pod Security level and version: the checks of that
// level at that version, baseline's first, each group in check-ID order so messages read as upstream's.
// Upstream: staging/src/k8s.io/pod-security-admission/policy/{registry,checks}.go.
import type { PodSpec } from '../../api/index.ts';
import type { ObjectMeta } from '../../core/index.ts';
import { baselineChecks } from './baseline-checks.ts';
import type { Check, CheckPod, Violation } from './check.ts';
import type { LevelVersion } from './policy.ts';
import { restrictedChecks } from './restricted-checks.ts';

const byId = (a: Check, b: Check): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const orderedChecks = [...[...baselineChecks].sort(byId), ...[...restrictedChecks].sort(byId)];

/** The newest policy version any check has a revision for: `latest` and newer versions evaluate as this one. */
export const maxPolicyMinor = Math.max(...orderedChecks.map((c) => (c.versions.at(-1) as { min: number }).min));

/** The revision of `check` in force at `minor`, if it exists yet. */
function revisionAt(check: Check, minor: number): CheckPod | undefined {
  let found: CheckPod | undefined;
  for (const v of check.versions) if (v.min <= minor) found = v.check;
  return found;
}

function checksFor(level: 'baseline' | 'restricted', minor: number): CheckPod[] {
  const inForce = orderedChecks.filter((c) => (level === 'restricted' || c.level === 'baseline') && revisionAt(c, minor));
  const overridden = new Set(level === 'restricted' ? inForce.flatMap((c) => c.overrides ?? []) : []);
  return inForce.filter((c) => !overridden.has(c.id)).map((c) => revisionAt(c, minor) as CheckPod);
}

const cache = new Map<string, CheckPod[]>();

/** What the pod does that `lv` forbids, in upstream's order; empty when it is allowed (always, for privileged). */
export function evaluatePod(lv: LevelVersion, meta: Readonly<ObjectMeta>, spec: Readonly<PodSpec>): Violation[] {
  if (lv.level === 'privileged') return [];
  const minor = lv.version === 'latest' ? maxPolicyMinor : Math.min(lv.version, maxPolicyMinor);
  const key = `${lv.level}:${minor}`;
  let checks = cache.get(key);
  if (!checks) cache.set(key, (checks = checksFor(lv.level, minor)));
  const violations: Violation[] = [];
  for (const check of checks) {
    const v = check(meta, spec);
    if (v) violations.push(v);
  }
  return violations;
}

/** `reason (detail), reason`: the message of a single pod's violations (AggregateCheckResult.ForbiddenDetail). */
export function forbiddenDetail(violations: readonly Violation[]): string {
  return violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(', ');
}

/** `reason, reason`: the reasons alone, as a namespace's warnings list them per pod. */
export function forbiddenReason(violations: readonly Violation[]): string {
  return violations.map((v) => v.reason).join(', ');
}
