import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath, forbiddenField, formatFieldError, invalidValue, required } from './field-errors.ts';
import { invalid } from './errors.ts';

test('FieldPath spells paths as upstream field.Path does, from any root', () => {
  const spec = FieldPath.root('spec');
  assert.equal(String(spec.child('containers').index(0).child('resources', 'limits').key('cpu')), 'spec.containers[0].resources.limits[cpu]');
  assert.equal(String(FieldPath.root('').child('metadata').child('name')), 'metadata.name');
  assert.equal(String(spec.child('securityContext', 'seLinuxOptions', 'level')), 'spec.securityContext.seLinuxOptions.level');
  assert.equal(String(FieldPath.root('').index(2)), '[2]');
  assert.equal(String(new FieldPath('spec.template').child('spec')), 'spec.template.spec');
  // A path is immutable: children share it, and its own text does not change.
  const c = spec.child('containers');
  c.index(1);
  assert.equal(String(c), 'spec.containers');
});

test('field errors carry the path text', () => {
  const p = FieldPath.root('spec').child('containers').index(0).child('image');
  assert.deepEqual(required(p), { type: 'FieldValueRequired', field: 'spec.containers[0].image', detail: '', omitValue: true });
  assert.equal(invalidValue(p, 'x', 'bad').field, 'spec.containers[0].image');
});

test('an error at the empty path keeps field.Error\'s separator in the aggregate, not in its cause', () => {
  const e = forbiddenField(FieldPath.root(''), 'at most one of `sinceTime` or `sinceSeconds` may be specified');
  assert.equal(formatFieldError(e, { withField: true }), ': Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
  assert.equal(formatFieldError(e, { withField: false }), 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
  assert.equal(invalid({ group: '', kind: 'PodLogOptions' }, 'p', [e]).message, 'PodLogOptions "p" is invalid: : Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified');
});
