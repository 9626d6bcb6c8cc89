// PodTemplate: the template defaulted and validated as a workload's, the generation bumped only by
// template changes, and upstream's columns (containers and images by default, no age).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { PodTemplate } from './pod-template.ts';
import { podTemplateDefinition as def } from './pod-template.ts';

const ctx = { now: 0 };
const template = (image: string): PodTemplate => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name: 'trainer', namespace: 'ml', generation: 1 },
  template: { metadata: { labels: { tier: 'gpu', app: 'trainer' } }, spec: { containers: [{ name: 'main', image }, { name: 'sidecar', image: 'busybox' }] } },
});

test('PodTemplate: defaults and validation of the template at template.*', () => {
  const pt = template('pytorch/pytorch:2.5');
  def.defaults?.(pt);
  assert.equal(pt.template?.spec.restartPolicy, 'Always');
  assert.equal(pt.template?.spec.containers[1]?.imagePullPolicy, 'Always', 'busybox has no tag');
  assert.deepEqual((def.validateCreate?.(pt, ctx) ?? []).map((e) => formatFieldError(e, { withField: true })), []);
  const bad: PodTemplate = { ...pt, template: { metadata: { labels: { 'a/b/c': 'x' } }, spec: { containers: [{ name: 'main', image: '' }] } } };
  def.defaults?.(bad);
  assert.deepEqual((def.validateCreate?.(bad, ctx) ?? []).map((e) => formatFieldError(e, { withField: true })).map((m) => m.split(':')[0]), ['template.labels', 'template.spec.containers[0].image']);
});

test('PodTemplate: a template change bumps the generation, a label change does not; the table shows containers and pod labels', () => {
  const old = template('a:1');
  const relabelled = { ...template('a:1'), metadata: { ...old.metadata, labels: { x: 'y' } } };
  def.prepareForUpdate?.(relabelled, old, ctx);
  assert.equal(relabelled.metadata.generation, 1);
  const changed = template('a:2');
  def.prepareForUpdate?.(changed, old, ctx);
  assert.equal(changed.metadata.generation, 2);
  assert.deepEqual(def.table?.columns.map((c) => c.name), ['Name', 'Containers', 'Images', 'Pod Labels']);
  assert.deepEqual(def.table?.cells(old, 0), ['trainer', 'main,sidecar', 'a:1,busybox', 'app=trainer,tier=gpu']);
});
