import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultFeatureGates, upstreamFeatureGateDefaults } from '../api/index.ts';
import { configzText, kubeletConfiguration } from './kubelet-config.ts';
import type { NodePoolSpec } from './node-object.ts';

const pool = (over: Partial<NodePoolSpec> = {}): NodePoolSpec => ({ name: 'cpu', capacity: { cpu: '16', memory: '64Gi', pods: '110' }, kubeletVersion: 'v1.35.0', labels: {}, taints: [], ...over });

test("/configz is kubeadm's kubelet config after 1.35's defaulting, compact, in the fields' declaration order", () => {
  // A trivy capture of a 1.31 kubeadm node's /configz, with 1.35's changes (the image credential policy,
  // crashLoopBackOff's maximum, failCgroupV1 on, mergeDefaultEvictionSettings), containerd's socket and this node's provider ID.
  const expected =
    '{"kubeletconfig":{"enableServer":true,"staticPodPath":"/etc/kubernetes/manifests","podLogsDir":"/var/log/pods","syncFrequency":"1m0s","fileCheckFrequency":"20s","httpCheckFrequency":"20s","address":"0.0.0.0","port":10250,"tlsCertFile":"/var/lib/kubelet/pki/kubelet.crt","tlsPrivateKeyFile":"/var/lib/kubelet/pki/kubelet.key","rotateCertificates":true,"authentication":{"x509":{"clientCAFile":"/etc/kubernetes/pki/ca.crt"},"webhook":{"enabled":true,"cacheTTL":"2m0s"},"anonymous":{"enabled":false}},"authorization":{"mode":"Webhook","webhook":{"cacheAuthorizedTTL":"5m0s","cacheUnauthorizedTTL":"30s"}},"registryPullQPS":5,"registryBurst":10,"imagePullCredentialsVerificationPolicy":"NeverVerifyPreloadedImages","eventRecordQPS":50,"eventBurst":100,"enableDebuggingHandlers":true,"healthzPort":10248,"healthzBindAddress":"127.0.0.1","oomScoreAdj":-999,"clusterDomain":"cluster.local","clusterDNS":["10.96.0.10"],"streamingConnectionIdleTimeout":"4h0m0s","nodeStatusUpdateFrequency":"10s","nodeStatusReportFrequency":"5m0s","nodeLeaseDurationSeconds":40,"imageMinimumGCAge":"2m0s","imageMaximumGCAge":"0s","imageGCHighThresholdPercent":85,"imageGCLowThresholdPercent":80,"volumeStatsAggPeriod":"1m0s","cgroupsPerQOS":true,"cgroupDriver":"systemd","cpuManagerPolicy":"none","cpuManagerReconcilePeriod":"10s","memoryManagerPolicy":"None","topologyManagerPolicy":"none","topologyManagerScope":"container","runtimeRequestTimeout":"2m0s","hairpinMode":"promiscuous-bridge","maxPods":110,"podPidsLimit":-1,"resolvConf":"/etc/resolv.conf","cpuCFSQuota":true,"cpuCFSQuotaPeriod":"100ms","nodeStatusMaxImages":50,"maxOpenFiles":1000000,"contentType":"application/vnd.kubernetes.protobuf","kubeAPIQPS":50,"kubeAPIBurst":100,"serializeImagePulls":true,"evictionHard":{"imagefs.available":"15%","imagefs.inodesFree":"5%","memory.available":"100Mi","nodefs.available":"10%","nodefs.inodesFree":"5%"},"evictionPressureTransitionPeriod":"5m0s","mergeDefaultEvictionSettings":false,"enableControllerAttachDetach":true,"makeIPTablesUtilChains":true,"iptablesMasqueradeBit":14,"iptablesDropBit":15,"failSwapOn":true,"memorySwap":{},"containerLogMaxSize":"10Mi","containerLogMaxFiles":5,"containerLogMaxWorkers":1,"containerLogMonitorInterval":"10s","configMapAndSecretChangeDetectionStrategy":"Watch","enforceNodeAllocatable":["pods"],"volumePluginDir":"/usr/libexec/kubernetes/kubelet-plugins/volume/exec/","providerID":"drydock://cpu-0","logging":{"format":"text","flushFrequency":"5s","verbosity":0,"options":{"text":{"infoBufferSize":"0"},"json":{"infoBufferSize":"0"}}},"enableSystemLogHandler":true,"enableSystemLogQuery":false,"shutdownGracePeriod":"0s","shutdownGracePeriodCriticalPods":"0s","crashLoopBackOff":{"maxContainerRestartPeriod":"5m0s"},"enableProfilingHandler":true,"enableDebugFlagsHandler":true,"seccompDefault":false,"memoryThrottlingFactor":0.9,"registerNode":true,"localStorageCapacityIsolation":true,"containerRuntimeEndpoint":"unix:///run/containerd/containerd.sock","failCgroupV1":true}}';
  assert.equal(configzText('cpu-0', pool(), upstreamFeatureGateDefaults), expected);
});

test("the pool's kubelet settings show, and gates set away from upstream's defaults; older kubelets keep their own defaults", () => {
  const c = kubeletConfiguration('gpu-0', pool({ cpuManagerPolicy: 'static', memoryManagerPolicy: 'Static', capacity: { pods: '250' } }), defaultFeatureGates);
  assert.deepEqual([c.cpuManagerPolicy, c.memoryManagerPolicy, c.maxPods, c.featureGates], ['static', 'Static', 250, { DRADeviceTaints: true, DRAExtendedResource: true, DRAPartitionableDevices: true }]);
  const keys = ['imagePullCredentialsVerificationPolicy', 'mergeDefaultEvictionSettings', 'crashLoopBackOff', 'failCgroupV1', 'containerLogMaxWorkers'];
  const at = (version: string): unknown[] => keys.map((k) => kubeletConfiguration('n', pool({ kubeletVersion: version }))[k]);
  assert.deepEqual(at('v1.34.2'), [undefined, false, {}, false, 1]);
  assert.deepEqual(at('v1.32.0'), [undefined, undefined, {}, false, 1]);
  assert.deepEqual(at('v1.30.1'), [undefined, undefined, undefined, undefined, 1]);
  assert.equal(kubeletConfiguration('n', pool()).featureGates, undefined);
});
