import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError, type FieldError, type ObjectMeta } from '../../core/index.ts';
import { nameIsDNSLabel, nameIsDNSSubdomain } from './names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.ts';

const text = (errs: FieldError[]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));
const namespaced = { namespaced: true, nameValidator: nameIsDNSSubdomain };
const clusterScoped = { namespaced: false, nameValidator: nameIsDNSLabel };

test('validateObjectMeta on create', () => {
  const table: [string, ObjectMeta, typeof namespaced, string[]][] = [
    ['valid namespaced', { name: 'web', namespace: 'default' }, namespaced, []],
    ['valid generated', { name: 'web-abcde', generateName: 'web-', namespace: 'default' }, namespaced, []],
    ['missing name', { namespace: 'default' }, namespaced, ['metadata.name: Required value: name or generateName is required']],
    ['missing namespace', { name: 'web' }, namespaced, ['metadata.namespace: Required value']],
    ['namespace on cluster-scoped', { name: 'n1', namespace: 'default' }, clusterScoped, ['metadata.namespace: Forbidden: not allowed on this type']],
    [
      'bad name',
      { name: 'Web', namespace: 'default' },
      namespaced,
      [
        `metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    ['bad namespace', { name: 'web', namespace: 'a.b' }, namespaced, ['metadata.namespace: Invalid value: "a.b": must not contain dots']],
    ['negative generation', { name: 'web', namespace: 'd', generation: -1 }, namespaced, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    [
      'conflicting finalizers',
      { name: 'web', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion'] },
      namespaced,
      ['metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set'],
    ],
  ];
  for (const [name, meta, opts, expected] of table) assert.deepEqual(text(validateObjectMeta(meta, opts)), expected, name);
});

test('validateObjectMeta checks owner references', () => {
  const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true };
  const errs = validateObjectMeta(
    { name: 'p', namespace: 'd', ownerReferences: [ref, { ...ref, name: 'rs2' }, { apiVersion: '', kind: '', name: '', uid: '' }] },
    namespaced,
  );
  assert.deepEqual(
    errs.map((e) => `${e.field}: ${e.detail}`),
    [
      'metadata.ownerReferences: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/rs and ReplicaSet/rs2',
      'metadata.ownerReferences.apiVersion: version must not be empty',
      'metadata.ownerReferences.kind: must not be empty',
      'metadata.ownerReferences.name: must not be empty',
      'metadata.ownerReferences.uid: must not be empty',
    ],
  );
  const event = validateObjectMeta({ name: 'p', namespace: 'd', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] }, namespaced);
  assert.deepEqual(event.map((e) => e.detail), ['/v1, Kind=Event is disallowed from being an owner']);
});

test('validateObjectMetaUpdate rejects changes to immutable fields', () => {
  const old: ObjectMeta = { name: 'web', namespace: 'default', uid: 'u1', resourceVersion: '5', creationTimestamp: '2025-01-01T00:00:00Z', generation: 2 };
  assert.deepEqual(validateObjectMetaUpdate({ ...old, labels: { a: 'b' } }, old), []);
  assert.deepEqual(text(validateObjectMetaUpdate({ ...old, name: 'other', uid: 'u2' }, old)), [
    'metadata.name: Invalid value: "other": field is immutable',
    'metadata.uid: Invalid value: "u2": field is immutable',
  ]);
  assert.deepEqual(text(validateObjectMetaUpdate({ ...old, resourceVersion: '', generation: 1 }, old)), [
    'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    'metadata.generation: Invalid value: 1: must not be decremented',
  ]);
  const deleting = { ...old, deletionTimestamp: '2025-01-02T00:00:00Z', finalizers: ['a'] };
  assert.deepEqual(text(validateObjectMetaUpdate({ ...deleting, finalizers: ['a', 'b'] }, deleting)), [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b"}',
  ]);
});
