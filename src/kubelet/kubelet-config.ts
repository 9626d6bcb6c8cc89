// A simulated kubelet's KubeletConfiguration as its /configz serves it: kubeadm's kubelet config (what a
// kubeadm or kind node runs with) after the kubelet's v1beta1 defaulting, with the values the simulation
// does follow taken from the node pool (maxPods, the CPU and memory manager policies) and the kubelet's
// version deciding the defaults that changed between releases. Pure.
// Upstream: cmd/kubelet/app/server.go (setConfigz), component-base/configz, staging/src/k8s.io/kubelet/
// config/v1beta1/types.go (field order), pkg/kubelet/apis/config/v1beta1/defaults.go, cmd/kubeadm/app/
// componentconfigs/kubelet.go (Default).
import type { FeatureGates } from '../api/index.ts';
import { featureGateNames, upstreamFeatureGateDefaults } from '../api/index.ts';
import { nodeProviderID, kubeletPort } from './node-object.ts';
import type { NodePoolSpec } from './node-object.ts';
import { minorOf } from './version-skew.ts';
import { clusterDNS, clusterDomain } from './pod-dns.ts';


/** The feature gates the kubelet's config sets: those the cluster turns away from upstream's default. */
function changedGates(gates: FeatureGates | undefined): Record<string, boolean> | undefined {
  if (!gates) return undefined;
  const out: Record<string, boolean> = {};
  for (const name of [...featureGateNames].sort()) if (gates[name] !== upstreamFeatureGateDefaults[name]) out[name] = gates[name];
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The v1beta1 KubeletConfiguration in its fields' declaration order (encoding/json's order), as converted
 * from the running config: no kind or apiVersion, zero durations as "0s", empty optional fields left out.
 * Fields added since 1.29 appear from the kubelet version that has them.
 */
export function kubeletConfiguration(node: string, pool: NodePoolSpec, featureGates?: FeatureGates): Record<string, unknown> {
  // A version that does not parse is taken as the newest.
  const minor = minorOf(pool.kubeletVersion)?.minor ?? Number.MAX_SAFE_INTEGER;
  const since = (added: number, value: unknown): unknown => (minor >= added ? value : undefined);
  const config: Record<string, unknown> = {
    enableServer: true,
    staticPodPath: '/etc/kubernetes/manifests',
    podLogsDir: '/var/log/pods',
    syncFrequency: '1m0s',
    fileCheckFrequency: '20s',
    httpCheckFrequency: '20s',
    address: '0.0.0.0',
    port: kubeletPort,
    tlsCertFile: '/var/lib/kubelet/pki/kubelet.crt',
    tlsPrivateKeyFile: '/var/lib/kubelet/pki/kubelet.key',
    rotateCertificates: true,
    authentication: { x509: { clientCAFile: '/etc/kubernetes/pki/ca.crt' }, webhook: { enabled: true, cacheTTL: '2m0s' }, anonymous: { enabled: false } },
    authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
    registryPullQPS: 5,
    registryBurst: 10,
    // KubeletEnsureSecretPulledImages is beta (on) from 1.35: its policy is defaulted then.
    imagePullCredentialsVerificationPolicy: since(35, 'NeverVerifyPreloadedImages'),
    eventRecordQPS: 50,
    eventBurst: 100,
    enableDebuggingHandlers: true,
    healthzPort: 10248,
    healthzBindAddress: '127.0.0.1',
    oomScoreAdj: -999,
    clusterDomain,
    clusterDNS: [clusterDNS],
    streamingConnectionIdleTimeout: '4h0m0s',
    nodeStatusUpdateFrequency: '10s',
    nodeStatusReportFrequency: '5m0s',
    nodeLeaseDurationSeconds: 40,
    imageMinimumGCAge: '2m0s',
    imageMaximumGCAge: '0s',
    imageGCHighThresholdPercent: 85,
    imageGCLowThresholdPercent: 80,
    volumeStatsAggPeriod: '1m0s',
    cgroupsPerQOS: true,
    cgroupDriver: 'systemd',
    cpuManagerPolicy: pool.cpuManagerPolicy ?? 'none',
    cpuManagerReconcilePeriod: '10s',
    memoryManagerPolicy: pool.memoryManagerPolicy ?? 'None',
    topologyManagerPolicy: 'none',
    topologyManagerScope: 'container',
    runtimeRequestTimeout: '2m0s',
    hairpinMode: 'promiscuous-bridge',
    maxPods: Number(pool.capacity.pods ?? 110),
    podPidsLimit: -1,
    resolvConf: '/etc/resolv.conf',
    cpuCFSQuota: true,
    cpuCFSQuotaPeriod: '100ms',
    nodeStatusMaxImages: 50,
    maxOpenFiles: 1000000,
    contentType: 'application/vnd.kubernetes.protobuf',
    kubeAPIQPS: 50,
    kubeAPIBurst: 100,
    serializeImagePulls: true,
    // kubeadm writes none, so the loader fills in the defaults (keys in encoding/json's sorted order).
    evictionHard: { 'imagefs.available': '15%', 'imagefs.inodesFree': '5%', 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' },
    evictionPressureTransitionPeriod: '5m0s',
    mergeDefaultEvictionSettings: since(33, false),
    enableControllerAttachDetach: true,
    makeIPTablesUtilChains: true,
    iptablesMasqueradeBit: 14,
    iptablesDropBit: 15,
    featureGates: changedGates(featureGates),
    failSwapOn: true,
    memorySwap: {},
    containerLogMaxSize: '10Mi',
    containerLogMaxFiles: 5,
    containerLogMaxWorkers: since(30, 1),
    containerLogMonitorInterval: since(30, '10s'),
    configMapAndSecretChangeDetectionStrategy: 'Watch',
    enforceNodeAllocatable: ['pods'],
    volumePluginDir: '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/',
    providerID: nodeProviderID(node),
    logging: { format: 'text', flushFrequency: '5s', verbosity: 0, options: { text: { infoBufferSize: '0' }, json: { infoBufferSize: '0' } } },
    enableSystemLogHandler: true,
    enableSystemLogQuery: false,
    shutdownGracePeriod: '0s',
    shutdownGracePeriodCriticalPods: '0s',
    // KubeletCrashLoopBackOffMax is beta (on) from 1.35: its maximum is defaulted then.
    crashLoopBackOff: since(32, minor >= 35 ? { maxContainerRestartPeriod: '5m0s' } : {}),
    enableProfilingHandler: true,
    enableDebugFlagsHandler: true,
    seccompDefault: false,
    memoryThrottlingFactor: 0.9,
    registerNode: true,
    localStorageCapacityIsolation: true,
    // The simulated runtime answers in containerd's words (its runtime handlers, its errors): its socket.
    containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
    failCgroupV1: since(31, minor >= 35),
  };
  for (const key of Object.keys(config)) if (config[key] === undefined) delete config[key];
  return config;
}

/** The /configz body: the one registered config, compact, as json.Marshal writes it. */
export function configzText(node: string, pool: NodePoolSpec, featureGates?: FeatureGates): string {
  return JSON.stringify({ kubeletconfig: kubeletConfiguration(node, pool, featureGates) });
}
