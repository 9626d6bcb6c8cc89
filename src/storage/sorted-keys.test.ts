// SortedKeys against a plain sorted array: adds and deletes in random order, enough keys to split
// chunks many times and to merge them back as they empty, with has, rank, size and scans checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../core/index.ts';
import { SortedKeys } from './sorted-keys.ts';

const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function scanned(set: SortedKeys<{ key: string }>, from: string, exclusive: boolean, end: string | undefined, limit = Infinity): string[] {
  const out: string[] = [];
  set.scan(from, exclusive, end, (item) => {
    out.push(item.key);
    return out.length < limit;
  });
  return out;
}

function assertSame(set: SortedKeys<{ key: string }>, model: string[], random: SeededRandom): void {
  assert.equal(set.size, model.length);
  assert.deepEqual(scanned(set, '', false, undefined), model);
  for (let i = 0; i < 20 && model.length > 0; i++) {
    const at = random.int(model.length);
    const key = model[at] as string;
    assert.equal(set.has(key), true);
    assert.equal(set.has(`${key}~`), false);
    assert.equal(set.rank(key), at);
    const end = model[Math.min(model.length - 1, at + random.int(300))];
    const expected = model.filter((k) => k > key && (end === undefined || k < end));
    assert.deepEqual(scanned(set, key, true, end), expected);
    assert.deepEqual(scanned(set, key, false, undefined, 5), model.slice(at, at + 5));
  }
}

test('SortedKeys keeps keys in order through chunk splits and merges, as a sorted array does', () => {
  const random = new SeededRandom(7);
  const set = new SortedKeys<{ key: string }>();
  let model: string[] = [];
  const name = (): string => `/registry/core/pods/ns-${random.int(5)}/created-${random.hex(3)}`;
  for (let round = 0; round < 6; round++) {
    for (let i = 0; i < 1500; i++) {
      const key = name();
      const fresh = !model.includes(key);
      assert.equal(set.add({ key }), fresh);
      if (fresh) model.push(key);
    }
    model.sort(byKey);
    assertSame(set, model, random);
    // Delete most keys, in random order, so chunks shrink and merge; an absent key is refused.
    const doomed = model.filter(() => random.float() < 0.8);
    for (const key of doomed) assert.equal(set.delete(key), true);
    assert.equal(set.delete('/registry/none'), false);
    const gone = new Set(doomed);
    model = model.filter((k) => !gone.has(k));
    assertSame(set, model, random);
  }
  for (const key of [...model]) set.delete(key);
  assert.equal(set.size, 0);
  assert.deepEqual(scanned(set, '', false, undefined), []);
  assert.equal(set.rank(undefined), 0);
});
