import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import { serviceAccountDefinition as def } from './service-account.ts';
import type { ServiceAccount } from './service-account.ts';

const now = Date.parse('2026-01-01T00:00:05Z');
const ctx = { now };

test('service account: secret references keep the name only; table and discovery', () => {
  const sa: ServiceAccount = { metadata: { name: 'default', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z' }, secrets: [{ name: 'tok', namespace: 'ns', uid: 'x' }] };
  def.prepareForCreate?.(sa, ctx);
  assert.deepEqual(sa.secrets, [{ name: 'tok' }]);
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Secrets', 'Age']);
  assert.deepEqual(def.table?.cells(sa, now), ['default', 1, '5s']);
  assert.deepEqual(def.shortNames, ['sa']);
  assert.deepEqual(def.subresources, [{ name: 'token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }]);
});

test('service account names are DNS subdomains', () => {
  const errs = def.validateCreate?.({ metadata: { name: 'Bad', namespace: 'ns' } }, ctx) ?? [];
  assert.equal(formatFieldError(errs[0] ?? { type: 'FieldValueInvalid', field: '', detail: '' }, { withField: true }).startsWith('metadata.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain'), true);
});
