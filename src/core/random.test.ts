import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CryptoRandom, generateName, SeededRandom } from './random.ts';

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('CryptoRandom draws version 4 uuids and floats in [0, 1) across refills of its pool', () => {
  const random = new CryptoRandom();
  const seen = new Set<string>();
  // Mixed sizes cross the 4 KiB pool's end at every offset.
  for (let i = 0; i < 3000; i++) {
    const uuid = random.uuid();
    assert.match(uuid, uuidV4);
    seen.add(uuid);
    const f = random.float();
    assert.ok(f >= 0 && f < 1, String(f));
    assert.match(random.hex(3), /^[0-9a-f]{6}$/);
  }
  assert.equal(seen.size, 3000);
});

test('generated names take five characters from upstream alphabet', () => {
  for (const random of [new CryptoRandom(), new SeededRandom(7)]) {
    const name = generateName(random, 'web-');
    assert.match(name, /^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  }
});

test('SeededRandom repeats its sequence for a seed', () => {
  const a = new SeededRandom(42);
  const b = new SeededRandom(42);
  assert.equal(a.uuid(), b.uuid());
  assert.match(new SeededRandom(1).uuid(), uuidV4);
});
