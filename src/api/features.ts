// The feature gates Drydock honours, by their upstream names, and Drydock's defaults. One map
// (the cluster config's `featureGates`) reaches the API server's strategies, which drop the
// fields of a disabled gate, its authorization of pod connections, and the scheduler, which hands
// the DRA ones to the allocator.
// Upstream: pkg/features/kube_features.go.

export const featureGateNames = ['AuthorizePodWebsocketUpgradeCreatePermission', 'DRAAdminAccess', 'DRADeviceTaints', 'DRAExtendedResource', 'DRAPartitionableDevices', 'DRAPrioritizedList', 'DRASchedulerFilterTimeout', 'PodTopologyLabelsAdmission'] as const;
export type FeatureGate = (typeof featureGateNames)[number];
export type FeatureGates = Readonly<Record<FeatureGate, boolean>>;

/**
 * 1.35 has AuthorizePodWebsocketUpgradeCreatePermission, DRAAdminAccess, DRAPrioritizedList, DRASchedulerFilterTimeout and PodTopologyLabelsAdmission beta (on). DRAPartitionableDevices,
 * DRADeviceTaints and DRAExtendedResource are alpha (off) upstream; Drydock turns them on because
 * dynamic MIG needs partitionable devices and `nvidia.com/gpu` on DRA nodes needs extended resources.
 */
export const defaultFeatureGates: FeatureGates = {
  AuthorizePodWebsocketUpgradeCreatePermission: true,
  DRAAdminAccess: true,
  DRADeviceTaints: true,
  DRAExtendedResource: true,
  DRAPartitionableDevices: true,
  DRAPrioritizedList: true,
  DRASchedulerFilterTimeout: true,
  PodTopologyLabelsAdmission: true,
};

/** Upstream's 1.35 defaults: beta gates on, alpha gates off. */
export const upstreamFeatureGateDefaults: FeatureGates = {
  AuthorizePodWebsocketUpgradeCreatePermission: true,
  DRAAdminAccess: true,
  DRADeviceTaints: false,
  DRAExtendedResource: false,
  DRAPartitionableDevices: false,
  DRAPrioritizedList: true,
  DRASchedulerFilterTimeout: true,
  PodTopologyLabelsAdmission: true,
};

export function isFeatureGate(name: string): name is FeatureGate {
  return (featureGateNames as readonly string[]).includes(name);
}
