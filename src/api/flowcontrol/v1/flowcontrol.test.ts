// FlowSchema and PriorityLevelConfiguration: defaults, upstream's validation words, the rule on
// mandatory objects, and the tables (FlowSchemas listed by precedence).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import { flowSchemaDefinition as fsDef } from './flow-schema.ts';
import type { FlowSchema } from './flow-schema.ts';
import { priorityLevelConfigurationDefinition as plDef } from './priority-level-configuration.ts';
import type { PriorityLevelConfiguration } from './priority-level-configuration.ts';
import { mandatoryConfiguration, suggestedConfiguration } from './bootstrap.ts';

const ctx = { now: Date.parse('2026-12-05T00:01:00Z') };
const text = (errs: readonly Parameters<typeof formatFieldError>[0][] | undefined): string[] => (errs ?? []).map((e) => formatFieldError(e, { withField: true }));
const meta = (name: string): FlowSchema['metadata'] => ({ name, resourceVersion: '1', creationTimestamp: '2026-12-05T00:00:00Z' });

test('PriorityLevelConfiguration: defaults for limited queuing levels; validation in upstream words', () => {
  const pl: PriorityLevelConfiguration = { metadata: meta('batch'), spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } };
  plDef.defaults?.(pl);
  assert.deepEqual(pl.spec?.limited, { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } } });
  assert.deepEqual(text(plDef.validateCreate?.(pl, ctx)), []);
  const bad: PriorityLevelConfiguration = { metadata: meta('batch'), spec: { type: 'Limited', exempt: {}, limited: { nominalConcurrencyShares: -1, lendablePercent: 101, limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5, queueLengthLimit: 0 } } } } };
  assert.deepEqual(text(plDef.validateCreate?.(bad, ctx)), [
    'spec.exempt: Forbidden: must be nil if the type is Limited',
    'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
    'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: 0: must be positive',
    'spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)',
    'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
  ]);
  assert.deepEqual(text(plDef.validateCreate?.({ metadata: meta('exempt'), spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } }, ctx)), [
    "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'",
    "spec: Invalid value: {\"type\":\"Limited\",\"limited\":{\"limitResponse\":{\"type\":\"Reject\"}}}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value",
  ]);
});

test('mandatory levels keep their spec, except exempt settings of the exempt level', () => {
  const exempt = structuredClone(mandatoryConfiguration.priorityLevelConfigurations.find((p) => p.metadata.name === 'exempt')) as PriorityLevelConfiguration;
  exempt.metadata.resourceVersion = '1';
  (exempt.spec as NonNullable<PriorityLevelConfiguration['spec']>).exempt = { nominalConcurrencyShares: 10, lendablePercent: 50 };
  assert.deepEqual(text(plDef.validateCreate?.(exempt, ctx)), []);
  const catchAll = structuredClone(mandatoryConfiguration.priorityLevelConfigurations.find((p) => p.metadata.name === 'catch-all')) as PriorityLevelConfiguration;
  catchAll.metadata.resourceVersion = '1';
  (catchAll.spec?.limited as { nominalConcurrencyShares?: number }).nominalConcurrencyShares = 6;
  assert.match(text(plDef.validateCreate?.(catchAll, ctx))[0] ?? '', /spec of 'catch-all' must equal the fixed value$/);
});

test('FlowSchema: precedence default and rules; the table shows MissingPL and sorts by precedence then name', () => {
  const fs: FlowSchema = {
    metadata: meta('batch-jobs'),
    spec: { priorityLevelConfiguration: { name: 'workload-low' }, rules: [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ml', name: '*' } }], resourceRules: [{ verbs: ['create'], apiGroups: ['batch'], resources: ['jobs'], namespaces: ['ml'] }] }] },
  };
  fsDef.defaults?.(fs);
  assert.equal(fs.spec?.matchingPrecedence, 1000);
  assert.deepEqual(text(fsDef.validateCreate?.(fs, ctx)), []);
  const bad: FlowSchema = {
    metadata: meta('bad'),
    spec: {
      matchingPrecedence: 1,
      distinguisherMethod: { type: 'ByPod' },
      priorityLevelConfiguration: {},
      rules: [{ subjects: [{ kind: 'User', group: { name: 'g' } }], resourceRules: [{ verbs: ['get', '*'], apiGroups: [''], resources: ['pods'], namespaces: ['Bad'] }], nonResourceRules: [{ verbs: ['fetch'], nonResourceURLs: ['/a/*/b'] }] }, { subjects: [] }],
    },
  };
  assert.deepEqual(text(fsDef.validateCreate?.(bad, ctx)), [
    "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
    'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByPod"}: supported values: "ByNamespace", "ByUser"',
    'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
    "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
    "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
    "spec.rules[0].resourceRules[0].verbs: Invalid value: []string{\"get\", \"*\"}: if '*' is present, must not specify other verbs",
    "spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"Bad\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    'spec.rules[0].nonResourceRules[0].verbs: Unsupported value: []string{"fetch"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a/*/b": wildcard can only do suffix matching',
    'spec.rules[1].subjects: Required value: subjects must contain at least one value',
    'spec.rules[1]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
  ]);
  const schemas = [...suggestedConfiguration.flowSchemas, ...mandatoryConfiguration.flowSchemas];
  const sorted = [...schemas].sort(fsDef.table?.compareRows).map((s) => s.metadata.name);
  assert.deepEqual(sorted.slice(0, 3), ['exempt', 'probes', 'system-leader-election']);
  assert.deepEqual(sorted.slice(5, 7), ['kube-controller-manager', 'kube-scheduler'], 'equal precedence: by name');
  assert.equal(sorted.at(-1), 'catch-all');
  const dangling = { ...fs, status: { conditions: [{ type: 'Dangling', status: 'True' }] } };
  assert.deepEqual(fsDef.table?.cells(dangling, ctx.now), ['batch-jobs', 'workload-low', 1000, '<none>', '60s', 'True']);
  assert.equal(fsDef.table?.cells(fs, ctx.now)[5], '?');
});

test('PriorityLevelConfiguration table: <none> where a level has no such setting', () => {
  const cells = (name: string): unknown[] | undefined => {
    const pl = [...mandatoryConfiguration.priorityLevelConfigurations, ...suggestedConfiguration.priorityLevelConfigurations].find((p) => p.metadata.name === name);
    return pl && plDef.table?.cells({ ...pl, metadata: meta(name) }, ctx.now);
  };
  assert.deepEqual(cells('exempt'), ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '60s']);
  assert.deepEqual(cells('catch-all'), ['catch-all', 'Limited', 5, '<none>', '<none>', '<none>', '60s']);
  assert.deepEqual(cells('workload-low'), ['workload-low', 'Limited', 100, 128, 6, 50, '60s']);
});
