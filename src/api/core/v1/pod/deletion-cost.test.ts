// controller.kubernetes.io/pod-deletion-cost as the API server checks it: pods on create and update,
// and the pod templates of workloads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldPath, formatFieldError } from '../../../../core/index.ts';
import type { FieldError } from '../../../../core/index.ts';
import type { Pod } from './types.ts';
import { parsePodDeletionCost } from './deletion-cost.ts';
import { validatePodCreate } from './validation.ts';
import { validatePodUpdate } from './update-validation.ts';
import { validatePodTemplate } from '../../../workload-template.ts';
import { pod } from './fixtures.test-helpers.ts';

const key = 'controller.kubernetes.io/pod-deletion-cost';
const messages = (errs: FieldError[]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));
const withCost = (value: string): Pod => {
  const p = pod();
  p.metadata = { ...p.metadata, uid: 'u1', resourceVersion: '7', annotations: { [key]: value } };
  return p;
};

test('parsePodDeletionCost takes what strconv.ParseInt(v, 10, 32) takes after validFirstDigit', () => {
  const cases: [string | undefined, number | undefined][] = [
    [undefined, 0], ['0', 0], ['42', 42], ['-5', -5], ['-007', -7], ['2147483647', 2147483647], ['-2147483648', -2147483648],
    ['+10', undefined], ['008', undefined], ['', undefined], ['-', undefined], ['1.5', undefined], ['2147483648', undefined], ['x', undefined],
  ];
  for (const [value, want] of cases) assert.equal(parsePodDeletionCost(value === undefined ? {} : { [key]: value }), want, String(value));
});

test('a pod with a pod-deletion-cost that is no int32 is refused with upstream\'s message', () => {
  assert.deepEqual(messages(validatePodCreate(withCost('+10'))), [`metadata.annotations[${key}]: Invalid value: "+10": must be a 32bit integer`]);
  assert.deepEqual(messages(validatePodCreate(withCost('-3'))), []);
});

test('an update may keep an invalid cost the stored pod already had, but not introduce one', () => {
  const stored = withCost('abc');
  assert.deepEqual(messages(validatePodUpdate(withCost('abc'), stored)), []);
  assert.deepEqual(messages(validatePodUpdate(withCost('abc'), withCost('1'))), [`metadata.annotations[${key}]: Invalid value: "abc": must be a 32bit integer`]);
});

// ValidatePodTemplateSpec reports a template's metadata at `<template>.annotations`, without `.metadata`.
test('a workload\'s pod template is checked too, at upstream\'s template annotations path', () => {
  const template = { metadata: { labels: { app: 'web' }, annotations: { [key]: 'high' } }, spec: pod().spec };
  const path = new FieldPath('spec').child('template');
  assert.deepEqual(messages(validatePodTemplate(template, path)), [`spec.template.annotations[${key}]: Invalid value: "high": must be a 32bit integer`]);
});
