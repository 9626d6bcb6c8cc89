// Decodes the request bodies real kubectl 1.33 sent (test/fixtures/protobuf, made by capture.ts there)
// and checks each against the JSON kubectl sends for the same command.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeProtobufObject } from './index.ts';

// Fixtures stay in the source tree; compiled tests run from dist/, one level deeper.
const FIXTURES = join(import.meta.dirname.replace(/[\/]dist([\/]|$)/, '$1'), '../../../test/fixtures/protobuf');

interface FixtureCase {
  readonly name: string;
  readonly args: readonly string[];
}

/** kubectl's JSON writes Go zero values (`creationTimestamp: null`, `resources: {}`, `status: {}`) that carry no data. */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const cleaned = withoutEmpty(child);
    if (cleaned === null) continue;
    if (typeof cleaned === 'object' && !Array.isArray(cleaned) && Object.keys(cleaned).length === 0) continue;
    if (Array.isArray(cleaned) && cleaned.length === 0) continue;
    out[key] = cleaned;
  }
  return out;
}

const cases = JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')) as FixtureCase[];

test('every captured kubectl case has a fixture', () => {
  assert.ok(cases.length >= 20, `only ${cases.length} cases`);
});

for (const c of cases) {
  test(`kubectl ${c.args.join(' ')}: protobuf body decodes to the JSON kubectl would send`, () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, `${c.name}.bin`)));
    // status is the server's to set; PDB's has non-omitempty zero counters that JSON spells out.
    const { status: _status, ...sent } = JSON.parse(readFileSync(join(FIXTURES, `${c.name}.json`), 'utf8')) as Record<string, unknown>;
    const expected = withoutEmpty(sent);
    const result = decodeProtobufObject(bytes);
    assert.ok(result.ok, result.ok ? '' : result.message);
    assert.deepEqual(result.object, expected);
  });
}
