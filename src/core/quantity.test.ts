// Tables taken from upstream apimachinery/pkg/api/resource/quantity_test.go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addQuantities,
  canonicalizeQuantityText,
  compareQuantities,
  formatQuantity,
  mustParseQuantity,
  parseQuantity,
  quantityErrorMessage,
  quantityFromMilli,
  quantityFromNano,
  quantityFromValue,
  quantityMilliValue,
  quantityNanoValue,
  quantityParseError,
  quantityValue,
  subtractQuantities,
  type QuantityFormat,
} from './quantity.ts';

/** upstream's decQuantity(i, exponent, format), as nano-units */
function dec(i: number | bigint, exponent: number): bigint {
  const shift = exponent + 9;
  return BigInt(i) * 10n ** BigInt(shift);
}
const MAX = 9223372036854775807n * 1_000_000_000n;

const parseTable: [string, bigint, QuantityFormat][] = [
  ['0', 0n, 'DecimalSI'],
  ['0n', 0n, 'DecimalSI'],
  ['0m', 0n, 'DecimalSI'],
  ['0Ki', 0n, 'BinarySI'],
  ['0G', 0n, 'DecimalSI'],
  ['1', dec(1, 0), 'DecimalSI'],
  ['1Ki', dec(1024, 0), 'BinarySI'],
  ['7Mi', dec(7 * 1024 * 1024, 0), 'BinarySI'],
  ['3Ei', dec(3n * 2n ** 60n, 0), 'BinarySI'],
  ['100Ti', dec(100n * 2n ** 40n, 0), 'BinarySI'],
  ['5n', dec(5, -9), 'DecimalSI'],
  ['4u', dec(4, -6), 'DecimalSI'],
  ['3m', dec(3, -3), 'DecimalSI'],
  ['50k', dec(5, 4), 'DecimalSI'],
  ['300T', dec(3, 14), 'DecimalSI'],
  ['1E', dec(1, 18), 'DecimalSI'],
  ['1E-3', dec(1, -3), 'DecimalExponent'],
  ['1e3', dec(1, 3), 'DecimalExponent'],
  ['1E18', dec(1, 18), 'DecimalExponent'],
  ['100.035k', dec(100035, 0), 'DecimalSI'],
  ['0.0005k', dec(5, -1), 'DecimalSI'],
  ['0.50000', dec(5, -1), 'DecimalSI'],
  ['0.5e-2', dec(5, -3), 'DecimalExponent'],
  ['10.035M', dec(10035, 3), 'DecimalSI'],
  ['1.3E+6', dec(13, 5), 'DecimalExponent'],
  ['1.7E18', dec(17, 17), 'DecimalExponent'],
  ['6.987654321G', dec(6987654321, 0), 'DecimalSI'],
  ['1.01E', dec(101, 16), 'DecimalSI'],
  ['3.001n', dec(4, -9), 'DecimalSI'],
  ['1.1E-9', dec(2, -9), 'DecimalExponent'],
  ['0.0000000001', dec(1, -9), 'DecimalSI'],
  ['0.9n', dec(1, -9), 'DecimalSI'],
  ['0.00000012345', dec(124, -9), 'DecimalSI'],
  ['9Ei', MAX, 'BinarySI'],
  ['9223372036854775807Ki', MAX, 'BinarySI'],
  ['12E', dec(12, 18), 'DecimalSI'],
  ['5e-2000000000', 1n, 'DecimalExponent'],
  ['100.035Ki', dec(10243584, -2), 'BinarySI'],
  ['0.5Mi', dec(0.5 * 1024 * 1024, 0), 'BinarySI'],
  ['0.025Ti', dec(274877906944, -1), 'BinarySI'],
  ['0.000000000001Ki', dec(2, -9), 'DecimalSI'],
  ['.001', dec(1, -3), 'DecimalSI'],
  ['.0001k', dec(100, -3), 'DecimalSI'],
  ['1.', dec(1, 0), 'DecimalSI'],
  ['1.G', dec(1, 9), 'DecimalSI'],
];

test('parseQuantity matches upstream values and formats, with +/- signs', () => {
  for (const [input, nano, format] of parseTable) {
    for (const [prefix, sign] of [['', 1n], ['+', 1n], ['-', -1n]] as const) {
      const q = parseQuantity(prefix + input);
      assert.ok(q, `${prefix}${input} should parse`);
      assert.equal(quantityNanoValue(q), sign * nano, `${prefix}${input} value`);
      assert.equal(q.format, format, `${prefix}${input} format`);
    }
  }
});

test('parseQuantity rejects what upstream rejects, with its messages', () => {
  const invalid = ['', '1.1.M', '1+1.0M', '0.1mi', '0.1am', 'aoeu', '.5i', '1i', '-3.01i', '-3.01e-', '1e4294967297', ' 1', '1 ', 'Non-Numeric', '1ki', '1e', '1+1', '1K'];
  for (const text of invalid) assert.equal(parseQuantity(text), undefined, text);
  assert.equal(quantityParseError('1 '), quantityErrorMessage);
  assert.equal(quantityParseError('1.5x'), quantityErrorMessage);
  assert.equal(quantityParseError('1ii'), "unable to parse quantity's suffix");
  assert.equal(quantityParseError('1Gi'), undefined);
  assert.throws(() => mustParseQuantity('x'), /cannot parse 'x': quantities must match/);
});

test('formatQuantity emits upstream canonical strings', () => {
  const table: [string, string][] = [
    ['1Ki', '1Ki'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['1.5Gi', '1536Mi'],
    ['1.5Ki', '1536'],
    ['307200Ki', '300Mi'],
    ['1025024Mi', '1001Gi'],
    ['5000m', '5'],
    ['0.5', '500m'],
    ['1.5', '1500m'],
    ['1000m', '1'],
    ['1000u', '1m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['0.001T', '1G'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['00', '0'],
    ['1500000n', '1500u'],
    ['123456789n', '123456789n'],
    ['0.1m', '100u'],
    ['1000E', '1e21'],
    ['9Ei', '9223372036854775807'],
  ];
  for (const [input, expected] of table) {
    assert.equal(formatQuantity(mustParseQuantity(input)), expected, input);
    if (expected !== '0') assert.equal(formatQuantity(mustParseQuantity(`-${input}`)), `-${expected}`, `-${input}`);
  }
});

test('canonicalizeQuantityText keeps input upstream considers canonical, verbatim', () => {
  const table: [string, string][] = [
    ['100m', '100m'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['+1', '+1'],
    ['01', '01'],
    ['1.500k', '1.500k'],
    ['1E3', '1E3'],
    ['1000', '1k'],
    ['1.5', '1500m'],
  ];
  for (const [input, expected] of table) assert.equal(canonicalizeQuantityText(input), expected, input);
  assert.equal(canonicalizeQuantityText('x'), undefined);
});

test('milli and integer values round up away from zero like MilliValue and Value', () => {
  const table: [string, number, number][] = [
    ['100m', 100, 1],
    ['1.5', 1500, 2],
    ['2', 2000, 2],
    ['1500000n', 2, 1],
    ['0.1m', 1, 1],
    ['-1.5', -1500, -2],
    ['1Gi', 1073741824000, 1073741824],
  ];
  for (const [input, milli, value] of table) {
    const q = mustParseQuantity(input);
    assert.equal(quantityMilliValue(q), milli, `${input} milli`);
    assert.equal(quantityValue(q), value, `${input} value`);
  }
  assert.deepEqual(mustParseQuantity('250m'), { milli: 250n, format: 'DecimalSI' });
});

test('compareQuantities orders by value across formats', () => {
  const table: [string, string, -1 | 0 | 1][] = [
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
    ['1Ki', '1024', 0],
    ['1500000n', '1m', 1],
  ];
  for (const [a, b, expected] of table) assert.equal(compareQuantities(mustParseQuantity(a), mustParseQuantity(b)), expected, `${a} vs ${b}`);
});

test('add and subtract keep the left format unless it is zero', () => {
  const zero = mustParseQuantity('0');
  for (const v of ['100m', '1Gi']) {
    const q = mustParseQuantity(v);
    assert.equal(formatQuantity(addQuantities(q, zero)), v);
    assert.equal(formatQuantity(addQuantities(zero, q)), v);
    assert.equal(formatQuantity(subtractQuantities(q, zero)), v);
    assert.equal(formatQuantity(subtractQuantities(zero, q)), `-${v}`);
  }
  assert.equal(formatQuantity(addQuantities(mustParseQuantity('1Gi'), mustParseQuantity('512Mi'))), '1536Mi');
  assert.equal(formatQuantity(subtractQuantities(mustParseQuantity('1'), mustParseQuantity('250m'))), '750m');
  assert.equal(formatQuantity(addQuantities(mustParseQuantity('1m'), mustParseQuantity('1n'))), '1000001n');
});

test('constructors build the same values the parser does', () => {
  assert.equal(formatQuantity(quantityFromMilli(1500, 'DecimalSI')), '1500m');
  assert.equal(formatQuantity(quantityFromMilli(500n, 'BinarySI')), '500m');
  assert.equal(formatQuantity(quantityFromValue(16 * 1024 ** 3, 'BinarySI')), '16Gi');
  assert.equal(formatQuantity(quantityFromNano(123456789n)), '123456789n');
  assert.deepEqual(quantityFromNano(2_000_000n), { milli: 2n, format: 'DecimalSI' });
  assert.equal(compareQuantities(quantityFromMilli(1000), mustParseQuantity('1')), 0);
});
