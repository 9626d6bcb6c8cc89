// The cluster config's featureGates: upstream gate names, booleans, Drydock's defaults, and the
// pools that cannot run with a gate off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates } from '../api/index.ts';
import { ConfigError, defaultClusterConfig, defaultClusterConfigText, parseClusterConfig } from './config.ts';

const h100Pool = (mig: string, expose = 'dra'): string => `nodePools:\n- name: h100\n  count: 1\n  gpus: {model: H100-80GB, count: 1, mig: ${mig}, expose: ${expose}}\n`;

function configError(text: string): string {
  try {
    parseClusterConfig(text);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  assert.fail(`accepted: ${text}`);
}

test('featureGates default to all six DRA gates, the pod connection check and pod topology labels on, for the default cluster too', () => {
  const all = { AuthorizePodWebsocketUpgradeCreatePermission: true, DRAAdminAccess: true, DRADeviceTaints: true, DRAExtendedResource: true, DRAPartitionableDevices: true, DRAPrioritizedList: true, DRASchedulerFilterTimeout: true, PodTopologyLabelsAdmission: true };
  assert.deepEqual(defaultFeatureGates, all);
  assert.deepEqual(defaultClusterConfig().featureGates, all);
  assert.deepEqual(parseClusterConfig('kind: Cluster\n').featureGates, all);
});

test('featureGates set what they name and leave the other gates at their defaults', () => {
  const config = parseClusterConfig('featureGates: {DRAExtendedResource: false, DRADeviceTaints: false, DRAAdminAccess: true}\n');
  assert.deepEqual(config.featureGates, { ...defaultFeatureGates, DRAExtendedResource: false, DRADeviceTaints: false });
});

test('unknown gates, non-boolean values and a featureGates that is not a map are rejected naming the field path', () => {
  const cases: [string, string][] = [
    ['featureGates: {DRAPartitionableDevice: false}\n', 'featureGates.DRAPartitionableDevice: unrecognized feature gate (known: AuthorizePodWebsocketUpgradeCreatePermission, DRAAdminAccess, DRADeviceTaints, DRAExtendedResource, DRAPartitionableDevices, DRAPrioritizedList, DRASchedulerFilterTimeout, PodTopologyLabelsAdmission)'],
    ['featureGates: {DRADeviceTaints: "false"}\n', 'featureGates.DRADeviceTaints: must be true or false'],
    ['featureGates: {DRADeviceTaints: 0}\n', 'featureGates.DRADeviceTaints: must be true or false'],
    ['featureGates: [DRADeviceTaints]\n', 'featureGates: must be a map of feature gate names to true or false'],
    ['scheduler: {featureGates: {DRADeviceTaints: false}}\n', 'scheduler.featureGates: unknown field; set featureGates at the top level of the cluster config'],
  ];
  for (const [text, want] of cases) assert.equal(configError(text), want, text);
});

test('dynamic MIG through DRA needs DRAPartitionableDevices; static MIG, whole GPUs and the device plugin do not', () => {
  const off = 'featureGates: {DRAPartitionableDevices: false}\n';
  assert.equal(
    configError(off + h100Pool('dynamic')),
    'nodePools[0].gpus.mig: dynamic needs the DRAPartitionableDevices feature gate (featureGates.DRAPartitionableDevices is false); use a static MIG list, none, or expose: device-plugin',
  );
  for (const pool of [h100Pool('none'), h100Pool('[3g.40gb, 3g.40gb]'), h100Pool('dynamic', 'device-plugin')]) {
    assert.equal(parseClusterConfig(off + pool).featureGates.DRAPartitionableDevices, false, pool);
  }
  assert.equal(parseClusterConfig(h100Pool('dynamic')).nodePools[0]?.gpus?.mig, 'dynamic');
});

test('the default config is its YAML text read, and each caller gets a copy of its own', () => {
  assert.deepEqual(defaultClusterConfig(), parseClusterConfig(defaultClusterConfigText()));
  const first = defaultClusterConfig();
  (first.nodePools[0] as { capacity: Record<string, string> }).capacity.cpu = '1';
  first.nodePools.push({ ...first.nodePools[0]!, name: 'extra' });
  assert.deepEqual(defaultClusterConfig(), parseClusterConfig(defaultClusterConfigText()));
});
