// CRD selectable fields as the documentation shows them: the Shirt CRD declares .spec.color and
// .spec.size selectable, so kubectl get and get -w select shirts by them (alone, together, with
// metadata.name), an undeclared field is refused in upstream's words, and a CRD naming a field its
// schema lacks, or one of the wrong type, is refused when applied.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDrydock } from './harness.ts';
import type { Drydock } from './harness.ts';

const fixture = (name: string): string => readFileSync(join(import.meta.dirname, '../../../test/fixtures/crd', name), 'utf8');

describe('CRD selectable fields', () => {
  let dd: Drydock;
  before(async () => {
    dd = await startDrydock();
    const applied = await dd.kubectl(['apply', '-f', dd.writeFile('crd.yaml', fixture('shirt-selectable-fields.yaml'))]);
    assert.deepEqual([applied.stdout, applied.stderr], ['customresourcedefinition.apiextensions.k8s.io/shirts.stable.example.com created\n', ''], 'no unknown-field warning for selectableFields');
    await dd.ok(['wait', '--for=condition=Established', 'crd/shirts.stable.example.com']);
    await dd.ok(['apply', '-f', dd.writeFile('shirts.yaml', fixture('shirts.yaml'))]);
  });
  after(async () => {
    await dd?.stop();
  });

  const names = async (...selector: string[]): Promise<string[]> => {
    const list = JSON.parse(await dd.ok(['get', 'shirts', '-o', 'json', ...selector])) as { items: { metadata: { name: string } }[] };
    return list.items.map((i) => i.metadata.name);
  };

  test('get --field-selector selects by a selectable field, by two, and with metadata.name', async () => {
    assert.equal(await dd.ok(['get', 'shirts.stable.example.com', '--field-selector', 'spec.color=blue']), 'NAME       COLOR   SIZE\nexample1   blue    S\nexample2   blue    M\n');
    assert.deepEqual(await names('--field-selector', 'spec.color=green,spec.size=M'), ['example3']);
    assert.deepEqual(await names('--field-selector', 'spec.size!=M'), ['example1']);
    assert.deepEqual(await names('--field-selector', 'spec.color==blue,metadata.name!=example1'), ['example2']);
    assert.deepEqual(await names('--field-selector', 'spec.color=red'), []);
  });

  test('a field the CRD does not declare selectable is refused', async () => {
    const r = await dd.kubectl(['get', 'shirts', '--field-selector', 'spec.material=cotton']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error from server (BadRequest): Unable to find "stable.example.com/v1, Resource=shirts" that match label selector "", field selector "spec.material=cotton": field label not supported: spec.material\n');
  });

  test('get -w --field-selector streams a shirt entering and leaving the selection', async () => {
    const watcher = dd.spawnKubectl(['get', 'shirts', '-w', '--output-watch-events', '--field-selector', 'spec.color=green']);
    let out = '';
    watcher.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    const seen = async (pattern: RegExp): Promise<void> => {
      for (let i = 0; i < 100 && !pattern.test(out); i++) await new Promise((r) => globalThis.setTimeout(r, 100));
      assert.match(out, pattern);
    };
    await seen(/^ADDED\s+example3\s+green\s+M$/m);
    await dd.ok(['patch', 'shirt', 'example1', '--type=merge', '-p', '{"spec":{"color":"green"}}']);
    await seen(/^ADDED\s+example1\s+green\s+S$/m);
    await dd.ok(['patch', 'shirt', 'example1', '--type=merge', '-p', '{"spec":{"size":"L"}}']);
    await seen(/^MODIFIED\s+example1\s+green\s+L$/m);
    await dd.ok(['patch', 'shirt', 'example3', '--type=merge', '-p', '{"spec":{"color":"blue"}}']);
    await seen(/^DELETED\s+example3\s+blue\s+M$/m);
    await dd.ok(['patch', 'shirt', 'example2', '--type=merge', '-p', '{"spec":{"size":"S"}}']);
    await dd.ok(['patch', 'shirt', 'example1', '--type=merge', '-p', '{"spec":{"color":"blue"}}']);
    await seen(/^DELETED\s+example1\s+blue\s+L$/m);
    watcher.kill('SIGTERM');
    await once(watcher, 'close');
    assert.deepEqual(
      out.trimEnd().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' ')),
      ['EVENT NAME', 'ADDED example3', 'ADDED example1', 'MODIFIED example1', 'DELETED example3', 'DELETED example1'],
      'example2 never matched, so none of its changes were sent',
    );
  });

  test('a CRD whose selectable field is not a string, boolean or integer field of its schema is refused', async () => {
    const crd = fixture('shirt-selectable-fields.yaml')
      .replaceAll('shirts', 'coats')
      .replace('kind: Shirt', 'kind: Coat')
      .replace('singular: shirt', 'singular: coat')
      .replace('- jsonPath: .spec.color\n    - jsonPath: .spec.size', '- jsonPath: .spec.colour\n    - jsonPath: .spec\n    - jsonPath: .spec.size');
    const r = await dd.kubectl(['apply', '-f', dd.writeFile('coats.yaml', crd)]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `The CustomResourceDefinition "coats.stable.example.com" is invalid: \n* spec.selectableFields[0].jsonPath: Invalid value: ".spec.colour": is an invalid path: does not refer to a valid field\n* spec.selectableFields[1].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.\n`,
    );
  });
});
