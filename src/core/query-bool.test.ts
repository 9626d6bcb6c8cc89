import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryBool } from './query-bool.ts';

test('a query boolean decodes as the API server decodes one: only 0 and false are false', () => {
  const read = (text: string): boolean | undefined => queryBool(new URLSearchParams(text), 'watch');
  assert.equal(read(''), undefined);
  for (const no of ['watch=0', 'watch=false', 'watch=False', 'watch=FALSE']) assert.equal(read(no), false, no);
  // Not strconv.ParseBool: "f" and "no" are true, and so is an empty value.
  for (const yes of ['watch=1', 'watch=true', 'watch=True', 'watch=yes', 'watch=f', 'watch=', 'watch']) assert.equal(read(yes), true, yes);
});
