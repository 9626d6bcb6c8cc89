import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ContainerRestartRule, RestartPolicy } from './types.ts';
import { shouldRestart } from './restart-policy.ts';

const rule = (operator: 'In' | 'NotIn', values: number[]): ContainerRestartRule => ({ action: 'Restart', exitCodes: { operator, values } });
const c = (over: Partial<Container> = {}): Container => ({ name: 'app', ...over });

const cases: [string, Container, RestartPolicy, number, boolean][] = [
  ['pod Always restarts a clean exit', c(), 'Always', 0, true],
  ['pod OnFailure restarts a failure', c(), 'OnFailure', 1, true],
  ['pod OnFailure leaves a clean exit', c(), 'OnFailure', 0, false],
  ['pod Never leaves a failure', c(), 'Never', 1, false],
  ['container Never overrides pod Always', c({ restartPolicy: 'Never' }), 'Always', 1, false],
  ['container OnFailure overrides pod Never', c({ restartPolicy: 'OnFailure' }), 'Never', 1, true],
  ['an In rule restarts its exit code', c({ restartPolicy: 'Never', restartPolicyRules: [rule('In', [42])] }), 'Never', 42, true],
  ['an In rule leaves another code to the container policy', c({ restartPolicy: 'Never', restartPolicyRules: [rule('In', [42])] }), 'Never', 1, false],
  ['a NotIn rule restarts every other code', c({ restartPolicy: 'Never', restartPolicyRules: [rule('NotIn', [0])] }), 'Never', 137, true],
  ['NotIn [] matches any code', c({ restartPolicy: 'Never', restartPolicyRules: [rule('NotIn', [])] }), 'Never', 0, true],
  ['In [] matches none', c({ restartPolicy: 'Never', restartPolicyRules: [rule('In', [])] }), 'Never', 0, false],
  ['the first matching rule decides: an unknown action does not restart', c({ restartPolicy: 'Always', restartPolicyRules: [{ action: 'RestartAllContainers' as 'Restart', exitCodes: { operator: 'In', values: [3] } }, rule('In', [3])] }), 'Always', 3, false],
  ['rules without a container restartPolicy are ignored', c({ restartPolicyRules: [rule('In', [42])] }), 'Never', 42, false],
];

for (const [name, container, podPolicy, exitCode, want] of cases) {
  test(`shouldRestart: ${name}`, () => assert.equal(shouldRestart(container, podPolicy, exitCode), want));
}
