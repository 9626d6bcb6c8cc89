// The Status an ApiError renders as, with Go's omitempty on its details.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalid } from './errors.ts';
import { forbiddenField } from './field-errors.ts';

test('an Invalid for an object with no name (an options kind) leaves the empty name out of its details, as Go does', () => {
  const status = invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [forbiddenField('sendInitialEvents', 'sendInitialEvents is forbidden for list')]).toStatus();
  assert.equal(status.message, 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list');
  assert.deepEqual(status.details, { group: 'meta.k8s.io', kind: 'ListOptions', causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: sendInitialEvents is forbidden for list', field: 'sendInitialEvents' }] });
  assert.deepEqual(invalid({ group: '', kind: '' }, '', []).toStatus().details, {});
});
