import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFieldError } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { deviceClassDefinition } from './device-class.ts';
import { resourceClaimDefinition as claimDef, resourceClaimTemplateDefinition as templateDef } from './resource-claim.ts';
import { resourceSliceDefinition as sliceDef } from './resource-slice.ts';
import type { Device, DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice } from './types.ts';

const now = Date.parse('2025-01-01T01:00:00Z');
const ctx = { now };
const messages = (errs: FieldError[]): string[] => errs.map((e) => formatFieldError(e, { withField: true }));
const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}), creationTimestamp: '2025-01-01T00:00:00Z', resourceVersion: '1' });

function claim(spec: ResourceClaim['spec']): ResourceClaim {
  const c: ResourceClaim = { metadata: meta('gpu', 'default'), spec };
  claimDef.defaults?.(c);
  return c;
}

test('ResourceClaim defaults allocationMode ExactCount and count 1', () => {
  const c = claim({ devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', tolerations: [{ key: 'k' }] } }, { name: 'any', firstAvailable: [{ name: 'a', deviceClassName: 'x', allocationMode: 'All' }] }] } });
  assert.deepEqual(c.spec.devices?.requests?.[0]?.exactly, { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1, tolerations: [{ key: 'k', operator: 'Equal' }] });
  assert.deepEqual(c.spec.devices?.requests?.[1]?.firstAvailable?.[0], { name: 'a', deviceClassName: 'x', allocationMode: 'All' });
  assert.deepEqual(messages(claimDef.validateCreate!(c, ctx)), []);
});

test('ResourceClaim validation messages match upstream', () => {
  const cases: [string, ResourceClaim, string[]][] = [
    ['neither', claim({ devices: { requests: [{ name: 'gpu' }] } }), ['spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required']],
    [
      'missing class and bad constraint',
      claim({ devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: '' } }], constraints: [{ requests: ['gpu', 'nope'], matchAttribute: 'model' }] } }),
      [
        'spec.devices.requests[0].exactly.deviceClassName: Required value',
        'spec.devices.constraints[0].requests[1]: Invalid value: "nope": must be the name of a request in the claim or the name of a request and a subrequest separated by \'/\'',
        'spec.devices.constraints[0].matchAttribute: Invalid value: "model": a fully qualified name must be a domain and a name separated by a slash',
      ],
    ],
    [
      'duplicate request names',
      claim({ devices: { requests: [{ name: 'a', exactly: { deviceClassName: 'c' } }, { name: 'a', exactly: { deviceClassName: 'c' } }] } }),
      ['spec.devices.requests[1]: Duplicate value: "a"'],
    ],
    [
      'All with count',
      claim({ devices: { requests: [{ name: 'a', exactly: { deviceClassName: 'c', allocationMode: 'All', count: 2 } }] } }),
      ["spec.devices.requests[0].exactly.count: Invalid value: 2: must not be specified when allocationMode is 'All'"],
    ],
  ];
  for (const [name, c, want] of cases) assert.deepEqual(messages(claimDef.validateCreate!(c, ctx)), want, name);
});

test('CEL selectors are checked for syntax at create time', () => {
  const c = claim({ devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'c', selectors: [{ cel: { expression: "device.driver == 'x'" } }, { cel: { expression: 'device.driver == ' } }] } }] } });
  const errs = messages(claimDef.validateCreate!(c, ctx));
  assert.equal(errs.length, 1);
  assert.match(errs[0] ?? '', /^spec\.devices\.requests\[0\]\.exactly\.selectors\[1\]\.cel\.expression: Invalid value: "device\.driver == ": compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
  const long = claim({ devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'c', selectors: [{ cel: { expression: 'x'.repeat(10 * 1024 + 1) } }] } }] } });
  assert.deepEqual(messages(claimDef.validateCreate!(long, ctx)), ['spec.devices.requests[0].exactly.selectors[0].cel.expression: Too long: may not be more than 10240 bytes']);
});

test('CEL selectors are compiled against the DRA environment at create time, as upstream', () => {
  const selectors = (...expressions: string[]) => expressions.map((expression) => ({ cel: { expression } }));
  const c = claim({ devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'c', selectors: selectors("device.attributes['gpu.nvidia.com'].type == 'gpu'", 'foo == 1', 'device.driver') } }] } });
  assert.deepEqual(messages(claimDef.validateCreate!(c, ctx)), [
    "spec.devices.requests[0].exactly.selectors[1].cel.expression: Invalid value: \"foo == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^",
    'spec.devices.requests[0].exactly.selectors[2].cel.expression: Invalid value: "device.driver": must evaluate to bool or the unknown type, not string',
  ]);
  // A class stored before its expression stopped compiling stays updatable; a new expression does not.
  const klass = (expressions: string[], label: string): DeviceClass => ({ metadata: { ...meta('gpu.example.com'), labels: { l: label } }, spec: { selectors: selectors(...expressions) } });
  const stored = klass(['device.foo == 1'], 'a');
  assert.deepEqual(messages(deviceClassDefinition.validateUpdate!(klass(['device.foo == 1'], 'b'), stored, ctx)), []);
  assert.deepEqual(messages(deviceClassDefinition.validateUpdate!(klass(['device.foo == 1', 'device.bar == 2'], 'b'), stored, ctx)), [
    "spec.selectors[1].cel.expression: Invalid value: \"device.bar == 2\": compilation failed: ERROR: <input>:1:8: undefined field 'bar'\n | device.bar == 2\n | .......^",
  ]);
});

test('ResourceClaim spec is immutable and status follows the allocation rules', () => {
  const old = claim({ devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'c' } }] } });
  const changed = claim({ devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'd' } }] } });
  const errs = messages(claimDef.validateUpdate!(changed, old, ctx));
  assert.equal(errs.length, 1);
  assert.match(errs[0] ?? '', /^spec: Invalid value: .*: field is immutable$/);

  const reserved = structuredClone(old);
  reserved.status = { reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] };
  assert.deepEqual(messages(claimDef.validateStatusUpdate!(reserved, old, ctx)), ['status.reservedFor: Forbidden: may not be specified when `allocated` is not set']);

  const allocated = structuredClone(old);
  allocated.status = { allocation: { devices: { results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'node-a', device: 'gpu-0' }] } } };
  assert.deepEqual(messages(claimDef.validateStatusUpdate!(allocated, old, ctx)), []);
});

test('ResourceClaim STATE column', () => {
  const c = claim({});
  const state = () => claimDef.table!.cells(c, now)[1];
  assert.equal(state(), 'pending');
  c.status = { allocation: {} };
  assert.equal(state(), 'allocated');
  c.status.reservedFor = [{ resource: 'pods', name: 'p', uid: 'u' }];
  assert.equal(state(), 'allocated,reserved');
  c.metadata.deletionTimestamp = '2025-01-01T00:30:00Z';
  assert.equal(state(), 'deleted,allocated,reserved');
  delete c.status;
  assert.equal(state(), 'deleted');
  assert.deepEqual(claimDef.table!.cells(c, now), ['gpu', 'deleted', '60m']);
});

function slice(devices: Device[], extra: Partial<ResourceSlice['spec']> = { nodeName: 'node-a' }): ResourceSlice {
  return { metadata: meta('node-a-gpu.nvidia.com-x7k2p'), spec: { driver: 'gpu.nvidia.com', pool: { name: 'node-a', generation: 1, resourceSliceCount: 1 }, devices, ...extra } };
}

test('ResourceSlice device and counter names: each failure reported at its path, valid ones in passing', () => {
  const device: Device = {
    name: 'Bad_Device',
    attributes: { ok: { int: 1 }, 'x.example.com/v': { version: 'v1' }, s: { string: 'x'.repeat(70) }, two: { int: 1, bool: true } },
    capacity: { 'Bad Cap': { value: '1' } },
    consumesCounters: [{ counterSet: 'Bad_Set', counters: { 'Mem.Slice': { value: '1' }, good: { value: '1' } } }, { counterSet: 'ok-set', counters: {} }],
  };
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([device]), ctx)), [
    "spec.devices[0].name: Invalid value: \"Bad_Device\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    "spec.devices[0].attributes[x.example.com/v].version: Invalid value: \"v1\": must be a string compatible with semver.org spec 2.0.0",
    "spec.devices[0].attributes[s].string: Too long: may not be more than 64 bytes",
    "spec.devices[0].attributes[two]: Invalid value: {\"int\":1,\"bool\":true}: exactly one value must be specified",
    "spec.devices[0].capacity[Bad Cap]: Invalid value: \"Bad Cap\": a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
    "spec.devices[0].consumesCounters[0].counterSet: Invalid value: \"Bad_Set\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    "spec.devices[0].consumesCounters[0].counters[Mem.Slice]: Invalid value: \"Mem.Slice\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    "spec.devices[0].consumesCounters[1].counters: Required value"
  ]);
  const shared = slice([], { nodeName: 'node-a', sharedCounters: [{ name: 'Bad_Name', counters: { 'A.B': { value: '1' }, fine: { value: '2' } } }, { name: '', counters: {} }] });
  delete shared.spec.devices;
  assert.deepEqual(messages(sliceDef.validateCreate!(shared, ctx)), [
    "spec.sharedCounters[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    "spec.sharedCounters[0].counters[A.B]: Invalid value: \"A.B\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    "spec.sharedCounters[1].name: Required value",
    "spec.sharedCounters[1].counters: Required value"
  ]);
});

test('ResourceSlice node selectors are validated as core validation does', () => {
  const gpu: Device = { name: 'gpu-0' };
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([gpu], { nodeSelector: { nodeSelectorTerms: [] } }), ctx)), [
    'spec.nodeSelector.nodeSelectorTerms: Required value: must have at least one node selector term',
    'spec.nodeSelector.nodeSelectorTerms: Invalid value: []: must have exactly one node selector term',
  ]);
  const term = { matchExpressions: [{ key: 'zone', operator: 'Near' as never, values: ['a'] }, { key: 'rank', operator: 'Gt' as const, values: ['1', '2'] }], matchFields: [{ key: 'metadata.uid', operator: 'In' as const, values: ['x'] }] };
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([gpu], { nodeSelector: { nodeSelectorTerms: [term] } }), ctx)), [
    'spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    "spec.nodeSelector.nodeSelectorTerms[0].matchExpressions[1].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
    'spec.nodeSelector.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "metadata.uid": not a valid field selector key',
  ]);
  const perDevice: Device = { name: 'gpu-0', nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['not a label value'] }] }] } };
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([perDevice], { perDeviceNodeSelection: true }), ctx)), [
    "spec.devices[0].nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"not a label value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  ]);
});

test('ResourceSlice validation', () => {
  const gpu: Device = { name: 'gpu-0', attributes: { productName: { string: 'H100' }, 'gpu.nvidia.com/driverVersion': { version: '550.1.0' } }, capacity: { memory: { value: '80Gi' } } };
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([gpu]), ctx)), []);
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([gpu], {}), ctx)), [
    'spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required',
  ]);
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([gpu], { nodeName: 'node-a', allNodes: true }), ctx)), [
    'spec: Invalid value: "{`nodeName`, `allNodes`}": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set',
  ]);
  const many = Array.from({ length: 129 }, (_, i) => ({ name: `d${i}` }));
  assert.deepEqual(
    sliceDef.validateCreate!(slice(many), ctx).map((e) => [e.type, e.field, e.badValue, e.detail]),
    [['FieldValueTooMany', 'spec.devices', 129, 'must have at most 128 items']],
  );
  const attrs = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`a${i}`, { int: i }]));
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([{ name: 'd', attributes: attrs }]), ctx)), [
    'spec.devices[0]: Invalid value: 33: the total number of attributes and capacities must not exceed 32',
  ]);
  assert.deepEqual(messages(sliceDef.validateCreate!(slice([{ name: 'd', attributes: { v: { version: '1.2' }, b: {} } }]), ctx)), [
    'spec.devices[0].attributes[v].version: Invalid value: "1.2": must be a string compatible with semver.org spec 2.0.0',
    'spec.devices[0].attributes[b]: Invalid value: "": exactly one value must be specified',
  ]);
  const old = slice([gpu]);
  const moved = slice([gpu], { nodeName: 'node-b' });
  assert.deepEqual(messages(sliceDef.validateUpdate!(moved, old, ctx)), ['spec.nodeName: Invalid value: "node-b": field is immutable']);
});

test('ResourceSlice table, field labels and taint timestamps', () => {
  const s = slice([{ name: 'gpu-0', taints: [{ key: 'k', effect: 'NoSchedule' }] }]);
  sliceDef.prepareForCreate!(s, { now: Date.parse('2025-01-01T00:00:05.700Z') });
  assert.equal(s.spec.devices?.[0]?.taints?.[0]?.timeAdded, '2025-01-01T00:00:05Z');
  assert.deepEqual(sliceDef.table!.columns.map((c) => c.name), ['Name', 'Node', 'Driver', 'Pool', 'Age']);
  assert.deepEqual(sliceDef.table!.cells(s, now), ['node-a-gpu.nvidia.com-x7k2p', 'node-a', 'gpu.nvidia.com', 'node-a', '60m']);
  assert.equal(sliceDef.fieldLabels!['spec.nodeName']!(s), 'node-a');
  assert.equal(sliceDef.fieldLabels!['spec.driver']!(s), 'gpu.nvidia.com');
  assert.equal(sliceDef.namespaced, false);
});

test('DeviceClass validation and table', () => {
  const c: DeviceClass = { metadata: meta('gpu.nvidia.com'), spec: { selectors: [{ cel: { expression: "device.driver == 'gpu.nvidia.com'" } }], config: [{ opaque: { driver: 'gpu.nvidia.com', parameters: [] } }], extendedResourceName: 'cpu' } };
  assert.deepEqual(messages(deviceClassDefinition.validateCreate!(c, ctx)), [
    'spec.config[0].opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object',
    'spec.extendedResourceName: Invalid value: "cpu": must be a valid extended resource name',
  ]);
  assert.deepEqual(deviceClassDefinition.table!.cells(c, now), ['gpu.nvidia.com', '60m']);
});

test('ResourceClaimTemplate spec is immutable and validated on create', () => {
  const t: ResourceClaimTemplate = { metadata: meta('tmpl', 'default'), spec: { metadata: { labels: { a: 'b' } }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'c' } }] } } } };
  templateDef.defaults?.(t);
  assert.equal(t.spec.spec.devices?.requests?.[0]?.exactly?.count, 1);
  assert.deepEqual(messages(templateDef.validateCreate!(t, ctx)), []);
  const changed = structuredClone(t);
  changed.spec.metadata = { labels: { a: 'c' } };
  assert.match(messages(templateDef.validateUpdate!(changed, t, ctx))[0] ?? '', /^spec: Invalid value: .*: field is immutable$/);
});

test('a ResourceSlice without spec is validated as an empty spec, as Go decodes it', () => {
  const bare = { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceSlice', metadata: meta('s') } as unknown as ResourceSlice;
  sliceDef.prepareForCreate?.(bare, ctx);
  const errs = messages(sliceDef.validateCreate!(bare, ctx));
  assert.ok(errs.includes('spec.driver: Required value'), errs.join('\n'));
  assert.ok(errs.includes('spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required'), errs.join('\n'));
});
