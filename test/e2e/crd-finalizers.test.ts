// Deleting a CRD whose objects hold finalizers of their own, as `kubectl delete crd --wait=false`
// leaves it: the CRD is Terminating and refuses new objects, the finalized object is marked and
// kept, and once its finalizer is removed both go. Before that, `kubectl get` prints the CRD's
// printer columns converted to their types.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures/crd', name), 'utf8');

interface Crd {
  metadata: { deletionTimestamp?: string; finalizers?: string[] };
  status: { conditions: { type: string; status: string; reason: string; message: string }[] };
}

/** A table kubectl printed, cut at its header's column starts (an empty cell stays a column). */
function cells(text: string): string[][] {
  const [header = '', ...rows] = text.trimEnd().split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => m.index);
  return [header, ...rows].map((line) => starts.map((start, i) => line.slice(start, starts[i + 1]).trim()));
}

describe('CRD finalizers', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock();
    await dd.ok(['apply', '-f', dd.writeFile('holds.yaml', fixture('holds.yaml'))]);
    await dd.ok(['wait', '--for=condition=Established', 'crd/holds.example.com']);
    await dd.ok(['apply', '-f', dd.writeFile('holds-objects.yaml', fixture('holds-objects.yaml'))]);
  });
  after(async () => {
    await dd?.stop();
  });

  test('kubectl get prints each printer column in its type: JSON for a string column of a map or list, a truncated integer, nothing for a mismatch', async () => {
    // A cell the server leaves null prints empty.
    assert.deepEqual(cells(await dd.ok(['get', 'holds'])), [
      ['NAME', 'LABELS', 'ITEMS', 'COUNT', 'RATIO', 'READY', 'SINCE'],
      ['h1', '{"a":"b","c":[1]}', '["x",true]', '1', '2', '', '<invalid>'],
      ['h2', '', '', '', '0.5', 'true', ''],
    ]);
  });

  test('a deleted CRD terminates until its finalized object is released, then goes', async () => {
    assert.equal(await dd.ok(['get', 'crd', 'holds.example.com', '-o', 'jsonpath={.metadata.finalizers}']), '["customresourcecleanup.apiextensions.k8s.io"]');
    assert.equal(await dd.ok(['delete', 'crd', 'holds.example.com', '--wait=false']), 'customresourcedefinition.apiextensions.k8s.io "holds.example.com" deleted\n');
    await dd.ok(['wait', '--for=condition=Terminating', 'crd/holds.example.com']);
    await dd.ok(['wait', '--for=delete', 'hold/h2']);

    const crd = JSON.parse(await dd.ok(['get', 'crd', 'holds.example.com', '-o', 'json'])) as Crd;
    assert.ok(crd.metadata.deletionTimestamp);
    assert.deepEqual(crd.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);
    assert.deepEqual(crd.status.conditions.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
      ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
      ['Terminating', 'True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress'],
    ]);
    const h1 = JSON.parse(await dd.ok(['get', 'hold', 'h1', '-o', 'json'])) as Crd;
    assert.ok(h1.metadata.deletionTimestamp, 'h1 is marked and kept for its finalizer');

    const h3 = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Hold', metadata: { name: 'h3' } });
    const refused = await dd.kubectl(['create', '-f', '-'], { input: h3 });
    assert.equal(refused.stderr, 'Error from server (Forbidden): error when creating "STDIN": holds.example.com "h3" is forbidden: create not allowed while custom resource definition is terminating\n');

    assert.equal(await dd.ok(['patch', 'hold', 'h1', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']), 'hold.example.com/h1 patched\n');
    await dd.ok(['wait', '--for=delete', 'crd/holds.example.com', '--timeout=30s']);
    const gone = await dd.kubectl(['get', '--raw', '/apis/example.com/v1/namespaces/default/holds']);
    assert.equal(gone.code, 1, 'no longer served');
  });
});
