import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath, formatFieldError } from '../../../core/index.ts';
import { validateLabelSelectorStrict } from '../../workload-template.ts';
import { validateNodeSelectorTerm } from './node-selector-validation.ts';
import type { NodeSelectorTerm } from './pod/types.ts';

const shown = (errs: Parameters<typeof formatFieldError>[0][]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));

test('a requirement without key or operator is their Go zero value "", worded as upstream words it', () => {
  const term = { matchExpressions: [{ values: ['a'] }] } as unknown as NodeSelectorTerm;
  assert.deepEqual(shown(validateNodeSelectorTerm(term, FieldPath.root('t'), true)), [
    't.matchExpressions[0].operator: Invalid value: "": not a valid selector operator',
    't.matchExpressions[0].key: Invalid value: "": name part must be non-empty',
    "t.matchExpressions[0].key: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
  const selector = { matchExpressions: [{ operator: 'Exists' }] } as never;
  assert.deepEqual(shown(validateLabelSelectorStrict(selector, FieldPath.root('s'))).slice(0, 1), ['s.matchExpressions[0].key: Invalid value: "": name part must be non-empty']);
});
