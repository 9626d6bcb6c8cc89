import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bpi, perlBpiForm } from './perl-bpi.ts';

test("kubernetes.io's pi Job prints π to 2,000 significant digits at once and exits 0", () => {
  const form = perlBpiForm(['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)']);
  const text = form?.logs?.[0]?.text ?? '';
  assert.deepEqual([form?.runForMs, form?.exitCode, text.length], [0, 0, 2001]);
  assert.ok(text.startsWith('3.14159265358979323846264338327950288419716939937510582097494459230781640628620899'), text.slice(0, 90));
  // Digits 762-767 of π are the Feynman point's six nines.
  assert.equal(text.slice(763, 769), '999999');
});

test('bpi rounds at its last digit; other perl programs are not simulated', () => {
  assert.deepEqual([bpi(1), bpi(3), bpi(5), bpi(6)], ['3', '3.14', '3.1416', '3.14159']);
  for (const argv of [['perl', '-e', 'print bpi(10)'], ['perl', '-Mbignum=bpi', '-wle', 'print bpi(10) + 1'], ['perl', '-Mbignum=bpi', '-n', 'print bpi(10)'], ['perl', '-Mbignum=bpi', '-wle', 'print bpi(10001)']]) {
    assert.equal(perlBpiForm(argv), undefined, argv.join(' '));
  }
});
