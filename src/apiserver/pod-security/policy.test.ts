// A namespace's pod-security labels read as upstream's PolicyToEvaluate reads them: defaults,
// versions, warn following a stricter enforce, and bad values (enforced strictly, warned and audited
// openly) reported as field errors on the label.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../core/index.ts';
import { levelVersionString, policyToEvaluate } from './policy.ts';
import type { Policy } from './policy.ts';

const show = (p: Policy): string => `enforce=${levelVersionString(p.enforce)} audit=${levelVersionString(p.audit)} warn=${levelVersionString(p.warn)}`;
const ps = (mode: string): string => `pod-security.kubernetes.io/${mode}`;

const cases: [string, Record<string, string> | undefined, string, string[]][] = [
  ['no labels: privileged everywhere', undefined, 'enforce=privileged:latest audit=privileged:latest warn=privileged:latest', []],
  ['unrelated labels', { team: 'a' }, 'enforce=privileged:latest audit=privileged:latest warn=privileged:latest', []],
  ['enforce alone: warn follows it', { [ps('enforce')]: 'restricted' }, 'enforce=restricted:latest audit=privileged:latest warn=restricted:latest', []],
  ['enforce and its version: warn takes both', { [ps('enforce')]: 'baseline', [ps('enforce-version')]: 'v1.30' }, 'enforce=baseline:v1.30 audit=privileged:latest warn=baseline:v1.30', []],
  ['a warn version of its own is kept', { [ps('enforce')]: 'baseline', [ps('enforce-version')]: 'v1.30', [ps('warn-version')]: 'v1.0' }, 'enforce=baseline:v1.30 audit=privileged:latest warn=baseline:v1.0', []],
  ['an explicit warn level wins', { [ps('enforce')]: 'restricted', [ps('warn')]: 'privileged', [ps('audit')]: 'baseline' }, 'enforce=restricted:latest audit=baseline:latest warn=privileged:latest', []],
  ['a bad enforce level is enforced as restricted, and warn does not follow it', { [ps('enforce')]: 'strict' }, 'enforce=restricted:latest audit=privileged:latest warn=privileged:latest', ['metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted']],
  ['bad warn and audit levels fail open', { [ps('warn')]: 'x', [ps('audit')]: 'y' }, 'enforce=privileged:latest audit=privileged:latest warn=privileged:latest', ['metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "y": must be one of privileged, baseline, restricted', 'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "x": must be one of privileged, baseline, restricted']],
  ['a bad version means latest', { [ps('enforce')]: 'baseline', [ps('enforce-version')]: 'v1.030' }, 'enforce=baseline:latest audit=privileged:latest warn=baseline:latest', ['metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v1.030": must be "latest" or "v1.x"']],
];

for (const [name, labels, policy, errors] of cases) {
  test(`pod-security labels: ${name}`, () => {
    const parsed = policyToEvaluate(labels);
    assert.equal(show(parsed.policy), policy);
    assert.deepEqual(parsed.errors.map((e) => formatFieldError(e, { withField: true })), errors);
  });
}
