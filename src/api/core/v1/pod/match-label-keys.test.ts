// matchLabelKeys / mismatchLabelKeys through the Pod strategy: what a created pod stores and which
// pods the API server refuses, with upstream's messages and field paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../../core/index.ts';
import type { Pod, PodSpec, TopologySpreadConstraint } from './types.ts';
import { podDefinition } from './definition.ts';
import { pod } from './fixtures.test-helpers.ts';

const ctx = { now: Date.parse('2026-01-01T00:00:00Z') };
const labels = { app: 'web', 'pod-template-hash': '6d4cf56db6' };

function create(spec: Partial<PodSpec>): { pod: Pod; errors: string[] } {
  const p = pod(spec);
  p.metadata.labels = { ...labels };
  podDefinition.prepareForCreate?.(p, ctx);
  const errors = (podDefinition.validateCreate?.(p, ctx) ?? []).map((e) => formatFieldError(e, { withField: true }));
  return { pod: p, errors };
}

const spread = (over: Partial<TopologySpreadConstraint>): TopologySpreadConstraint => ({ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', ...over });

test('a created pod stores its matchLabelKeys as In and mismatchLabelKeys as NotIn requirements on its own label values', () => {
  const { pod: p, errors } = create({
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'] }],
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: { topologyKey: 'zone', labelSelector: {}, mismatchLabelKeys: ['app'] } }],
      },
    },
    topologySpreadConstraints: [spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'] })],
  });
  assert.deepEqual(errors, []);
  const anti = p.spec.affinity?.podAntiAffinity;
  assert.deepEqual(anti?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector, {
    matchLabels: { app: 'web' },
    matchExpressions: [{ key: 'pod-template-hash', operator: 'In', values: ['6d4cf56db6'] }],
  });
  assert.deepEqual(anti?.preferredDuringSchedulingIgnoredDuringExecution?.[0]?.podAffinityTerm.labelSelector, { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] });
  assert.deepEqual(p.spec.topologySpreadConstraints?.[0]?.labelSelector, {
    matchLabels: { app: 'web' },
    matchExpressions: [{ key: 'pod-template-hash', operator: 'In', values: ['6d4cf56db6'] }],
  });
  // The keys themselves stay as written.
  assert.deepEqual(p.spec.topologySpreadConstraints?.[0]?.matchLabelKeys, ['pod-template-hash']);
});

test('a key the pod does not carry, or a term without labelSelector, adds nothing', () => {
  const { pod: p } = create({
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['track'] }] } },
    topologySpreadConstraints: [spread({ matchLabelKeys: ['pod-template-hash'] })],
  });
  assert.deepEqual(p.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.[0]?.labelSelector, { matchLabels: { app: 'web' } });
  assert.equal(p.spec.topologySpreadConstraints?.[0]?.labelSelector, undefined);
});

test('an update leaves the stored selector alone: the merge happens once, at creation', () => {
  const { pod: created } = create({ topologySpreadConstraints: [spread({ labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['pod-template-hash'] })] });
  const updated = structuredClone(created);
  podDefinition.prepareForUpdate?.(updated, created, ctx);
  assert.deepEqual(updated.spec.topologySpreadConstraints?.[0]?.labelSelector?.matchExpressions, [{ key: 'pod-template-hash', operator: 'In', values: ['6d4cf56db6'] }]);
});

const refused: { name: string; spec: Partial<PodSpec>; want: string[] }[] = [
  {
    name: 'a pod affinity key also in matchLabels (reported at the term index, as upstream)',
    spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['app'] }] } } },
    want: ['spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'],
  },
  {
    name: 'the same key twice in matchLabelKeys',
    spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', labelSelector: {}, matchLabelKeys: ['app', 'app'] }] } } },
    want: ['spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0][1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector'],
  },
  {
    name: 'a key in both matchLabelKeys and mismatchLabelKeys',
    spec: { affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { topologyKey: 'zone', labelSelector: {}, matchLabelKeys: ['track'], mismatchLabelKeys: ['track'] } }] } } },
    want: ['spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.matchLabelKeys[0]: Invalid value: "track": exists in both matchLabelKeys and mismatchLabelKeys'],
  },
  {
    name: 'label keys without a labelSelector, and a key that is no label name',
    spec: {
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'zone', mismatchLabelKeys: ['app'] }] } },
      topologySpreadConstraints: [spread({ labelSelector: {}, matchLabelKeys: ['bad key'] })],
    },
    want: [
      'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].mismatchLabelKeys: Forbidden: must not be specified when labelSelector is not set',
      `spec.topologySpreadConstraints[0].matchLabelKeys[0]: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
  },
  {
    name: 'a topology spread key also in matchLabels',
    spec: { topologySpreadConstraints: [spread({ labelSelector: { matchLabels: { 'pod-template-hash': '6d4cf56db6' } }, matchLabelKeys: ['pod-template-hash'] })] },
    want: ['spec.topologySpreadConstraints[0][0]: Invalid value: "pod-template-hash": exists in both matchLabelKeys and labelSelector'],
  },
];

for (const c of refused) {
  test(`refused: ${c.name}`, () => {
    assert.deepEqual(create(c.spec).errors, c.want);
  });
}
