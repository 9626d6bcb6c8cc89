// CEL selectors: the device variable, quantity and semver functions, and upstream error texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as resourceV1 from './types.ts';
import { compileDeviceSelector, evaluate, toCelDevice } from './cel.ts';
import type { EvalResult } from './cel.ts';
import { compareSemver, parseSemver } from './semver.ts';
import type { Semver } from './semver.ts';

const device: resourceV1.Device = {
  name: 'gpu-0',
  attributes: {
    type: { string: 'gpu' },
    productName: { string: 'NVIDIA H100 80GB HBM3' },
    cudaComputeCapability: { version: '9.0.0' },
    driverVersion: { version: '580.126.9' },
    index: { int: 3 },
    healthy: { bool: true },
    'resource.kubernetes.io/pciBusID': { string: '0000:18:00.0' },
  },
  capacity: { memory: { value: '80Gi' } },
};

function run(expression: string): EvalResult | string {
  const c = compileDeviceSelector(expression);
  if (!c.ok) return c.message;
  const d = toCelDevice('gpu.nvidia.com', device);
  if ('error' in d) return d.error;
  return evaluate(c.program, d);
}

const yes: EvalResult = { ok: true, matches: true };
const no: EvalResult = { ok: true, matches: false };

test('device variable: driver, attributes by domain (unqualified names in the driver domain), capacity', () => {
  const cases: [string, EvalResult][] = [
    ["device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'", yes],
    ["device.attributes['gpu.nvidia.com'].type == 'mig'", no],
    ["device.attributes['resource.kubernetes.io'].pciBusID == '0000:18:00.0'", yes],
    ["device.attributes['gpu.nvidia.com'].index > 2 && device.attributes['gpu.nvidia.com'].healthy", yes],
    ["cel.bind(g, device.attributes['gpu.nvidia.com'], g.type == 'gpu' && g.productName.startsWith('NVIDIA H100'))", yes],
    ["'foo' in device.attributes['gpu.nvidia.com']", no],
    // An unknown domain is an empty map, not an error.
    ["'x' in device.attributes['example.com']", no],
    ["device.attributes['example.com'].size() == 0", yes],
    ['device.allowMultipleAllocations', no],
  ];
  for (const [expr, want] of cases) assert.deepEqual(run(expr), want, expr);
});

test('quantity library', () => {
  const cases: [string, EvalResult][] = [
    ["device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('64Gi')) >= 0", yes],
    ["device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('80Gi')) == 0", yes],
    ["device.capacity['gpu.nvidia.com'].memory.isGreaterThan(quantity('100Gi'))", no],
    ["device.capacity['gpu.nvidia.com'].memory.isLessThan(quantity('100Gi'))", yes],
    ["device.capacity['gpu.nvidia.com'].memory == quantity('81920Mi')", yes],
    ["device.capacity['gpu.nvidia.com'].memory.asInteger() == 85899345920", yes],
    ["quantity('50k').add(20).sub(quantity('100k')).sub(-50000) == quantity('20')", yes],
    ["quantity('200M').compareTo(quantity('0.2G')) == 0", yes],
    ["quantity('50M').compareTo(quantity('50Mi')) == -1", yes],
    ["quantity('1.5').isInteger()", no],
    ["quantity('1.5').asApproximateFloat() == 1.5", yes],
    ["quantity('-3').sign() == -1", yes],
    ["isQuantity('1,3G') || isQuantity('200K')", no],
    ["isQuantity('10000k')", yes],
  ];
  for (const [expr, want] of cases) assert.deepEqual(run(expr), want, expr);
  assert.deepEqual(run("quantity('1.5').asInteger() == 1"), { ok: false, message: 'cannot convert value to integer' });
  assert.deepEqual(run("quantity('Three') == quantity('3')"), { ok: false, message: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" });
});

test('semver library and version attributes', () => {
  const cases: [string, EvalResult][] = [
    ["device.attributes['gpu.nvidia.com'].cudaComputeCapability.isGreaterThan(semver('8.0.0'))", yes],
    ["device.attributes['gpu.nvidia.com'].driverVersion.compareTo(semver('550.0.0')) >= 0", yes],
    ["device.attributes['gpu.nvidia.com'].driverVersion.isLessThan(semver('580.126.10'))", yes],
    ["semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3", yes],
    ["semver('v1.2', true) == semver('1.2.0')", yes],
    ["isSemver('v1.0')", no],
    ["isSemver('v1.0', true)", yes],
    ["semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", yes],
  ];
  for (const [expr, want] of cases) assert.deepEqual(run(expr), want, expr);
  assert.deepEqual(run("semver('1.2') == semver('1.2.0')"), { ok: false, message: 'No Major.Minor.Patch elements found' });
});

test('semver precedence follows semver.org 2.0.0', () => {
  const order = ['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '2.0.0', '2.1.0', '2.1.1'];
  const parsed = order.map((s) => parseSemver(s) as Semver);
  for (let i = 0; i + 1 < parsed.length; i++) {
    const [a, b] = [parsed[i], parsed[i + 1]];
    if (!a || !b) continue;
    assert.equal(compareSemver(a, b), -1, `${order[i]} < ${order[i + 1]}`);
    assert.equal(compareSemver(b, a), 1);
  }
  assert.equal(compareSemver(parseSemver('1.0.0+build.1') as Semver, parseSemver('1.0.0') as Semver), 0);
});

test('runtime errors read as cel-go prints them', () => {
  assert.deepEqual(run("device.attributes['gpu.nvidia.com'].foo == 'x'"), { ok: false, message: 'no such key: foo' });
  assert.deepEqual(run("device.attributes['gpu.nvidia.com'].type"), { ok: false, message: 'CEL result of type string could not be converted to bool' });
});

test('compile errors: syntax, undeclared names, unknown fields, non-bool results', () => {
  assert.equal(run('1 +'), 'compilation failed: ERROR: <input>:1:4: Syntax error: Unexpected token: EOF\n | 1 +\n | ...^');
  assert.equal(run('foo == 1'), "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^");
  assert.equal(run('device.foo == 1'), "compilation failed: ERROR: <input>:1:8: undefined field 'foo'\n | device.foo == 1\n | .......^");
  assert.equal(run('device.driver'), 'must evaluate to bool or the unknown type, not string');
  assert.equal(run("device.capacity['x'].memory"), 'must evaluate to bool or the unknown type, not kubernetes.Quantity');
  assert.equal(run("device.attributes['x']"), 'must evaluate to bool or the unknown type, not map(string, dyn)');
});

test('compiled programs are cached by expression text', () => {
  const a = compileDeviceSelector("device.driver == 'x'");
  const b = compileDeviceSelector("device.driver == 'x'");
  assert.ok(a.ok && b.ok && a.program === b.program);
});

test('optional types, as upstream\'s base environment has them: .? on an attribute the device may lack, orValue, optional.of', () => {
  const cases: [string, EvalResult][] = [
    ["device.attributes['gpu.nvidia.com'].?productName.orValue('').startsWith('NVIDIA H100')", yes],
    ["device.attributes['gpu.nvidia.com'].?migProfile.orValue('none') == 'none'", yes],
    ["device.attributes['gpu.nvidia.com'].?migProfile.hasValue()", no],
    // An unknown domain is an empty map, not a missing key: an optional lookup of it has a value.
    ["device.attributes[?'dra.example.com'].hasValue() && !device.attributes['dra.example.com'].?model.hasValue()", yes],
    ['optional.of(1).orValue(2) == 1', yes],
  ];
  for (const [expression, want] of cases) assert.deepEqual(run(expression), want, expression);
});
