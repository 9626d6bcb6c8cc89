// Responses written in pieces read exactly as the one string they replace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonPieces } from './encode.ts';

const table = (rows: number): Record<string, unknown> => ({
  kind: 'Table',
  apiVersion: 'meta.k8s.io/v1',
  metadata: { resourceVersion: '7' },
  columnDefinitions: [{ name: 'Name', type: 'string', format: 'name', description: '', priority: 0 }],
  rows: Array.from({ length: rows }, (_, i) => ({ cells: [`pod-${i}`, 'ü'.repeat(500)], object: { kind: 'PartialObjectMetadata', metadata: { name: `pod-${i}` } } })),
});

test('jsonPieces joins to JSON.stringify of the object, in pieces of bounded size', () => {
  for (const rows of [0, 1, 3, 500]) {
    const object = table(rows);
    const pieces = [...jsonPieces(object, 'rows')];
    assert.equal(pieces.join(''), JSON.stringify(object));
    if (rows === 500) {
      assert.ok(pieces.length > 5, `${pieces.length} pieces`);
      for (const piece of pieces) assert.ok(piece.length < 40 * 1024, `a piece of ${piece.length} characters`);
    }
  }
});

test('jsonPieces keeps JSON.stringify\'s reading of odd values and fields', () => {
  const withHoles = { kind: 'List', items: [1, undefined, () => 0, 'x', null] };
  assert.equal([...jsonPieces(withHoles, 'items')].join(''), JSON.stringify(withHoles));
  const notLast = { items: [1, 2], kind: 'List' };
  assert.deepEqual([...jsonPieces(notLast, 'items')], [JSON.stringify(notLast)]);
  const notArray = { kind: 'List', items: 'none' };
  assert.deepEqual([...jsonPieces(notArray, 'items')], [JSON.stringify(notArray)]);
});
