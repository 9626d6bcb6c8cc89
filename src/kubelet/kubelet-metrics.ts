// What a simulated kubelet counts as it works (pods and containers started, image pulls, evictions,
// resizes, probe results), served with gauges read from its pods at scrape time as the kubelet's /metrics
// and /metrics/probes. Names, help texts, labels and buckets are upstream's (1.34, unchanged in 1.35).
// Upstream: pkg/kubelet/metrics/metrics.go, pkg/kubelet/prober/prober_manager.go (ProberResults,
// ProberDuration), pkg/kubelet/cm/dra/claiminfo.go (claimsInUse), component-base/metrics/prometheus/version.
import { simulatedBuild } from '../core/index.ts';
import type { Clock } from '../core/index.ts';
import { CounterVec, HistogramVec, expositionText } from './metrics-exposition.ts';
import type { Family, Sample } from './metrics-exposition.ts';
import type { ProbeTypeName } from './prober.ts';

const podStartupDurationBuckets = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
const imagePullDurationBuckets = [1, 5, 10, 20, 30, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];
const podResizeDurationBuckets = [10, 50, 100, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000, 120000, 300000, 600000];
/** client_golang's DefBuckets: ProberDuration names none. */
const defaultBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const labels = {
  none: [],
  containerType: ['container_type'],
  containerTypeCode: ['container_type', 'code'],
  imageSize: ['image_size_in_bytes'],
  evictionSignal: ['eviction_signal'],
  requestedResize: ['resource', 'requirement', 'operation'],
  success: ['success'],
  reasonDetail: ['reason_detail'],
  retryTrigger: ['retry_trigger'],
  probeResult: ['probe_type', 'result', 'container', 'pod', 'namespace', 'pod_uid'],
  probeDuration: ['probe_type', 'container', 'pod', 'namespace'],
} as const satisfies Record<string, readonly string[]>;
const mebibyte = 1024 * 1024;
const gibibyte = 1024 * mebibyte;
const imageSizeBuckets: readonly [number, string][] = [
  [0, '0-10MB'], [10 * mebibyte, '10MB-100MB'], [100 * mebibyte, '100MB-500MB'], [500 * mebibyte, '500MB-1GB'], [gibibyte, '1GB-5GB'],
  [5 * gibibyte, '5GB-10GB'], [10 * gibibyte, '10GB-20GB'], [20 * gibibyte, '20GB-30GB'], [30 * gibibyte, '30GB-40GB'],
  [40 * gibibyte, '40GB-60GB'], [60 * gibibyte, '60GB-100GB'], [100 * gibibyte, 'GT100GB'],
];

/** GetImageSizeBucket: the highest bucket whose lower bound the size exceeds; N/A for an unknown size. */
export function imageSizeBucket(bytes: number): string {
  if (bytes <= 0) return 'N/A';
  let label = 'N/A';
  for (const [lowerBound, name] of imageSizeBuckets) if (bytes > lowerBound) label = name;
  return label;
}

/** The container_type label: sidecars are init containers. */
export type ContainerTypeLabel = 'container' | 'init_container' | 'ephemeral_container';
/** Why a resize is infeasible (the reason_detail label). */
export type InfeasibleResizeDetail = 'static_pod' | 'guaranteed_pod_cpu_manager_static_policy' | 'guaranteed_pod_memory_manager_static_policy' | 'insufficient_node_allocatable';
/** What made the kubelet retry its deferred resizes (the retry_trigger label). */
export type ResizeRetryTrigger = 'pod_updated' | 'pods_removed' | 'pod_terminated' | 'pod_resized';
/** The kubecontainer states a container's runtime record can be in. */
export type ContainerStateLabel = 'created' | 'running' | 'exited' | 'unknown';

/** What the kubelet's pods are at scrape time. */
export interface KubeletGauges {
  /** Pods whose sandbox runs. */
  runningPods: number;
  /** The runtime's containers (current and kept dead instances) by state. */
  containers: ReadonlyMap<ContainerStateLabel, number>;
  /** Pods with a PodResizePending condition, by its reason (Deferred, Infeasible). */
  pendingResizes: ReadonlyMap<string, number>;
  /** Pods with a PodResizeInProgress condition. */
  inProgressResizes: number;
  /** Prepared ResourceClaims, per driver of their devices. */
  claimsByDriver: ReadonlyMap<string, number>;
  /** Prepared ResourceClaims, whatever their drivers. */
  claims: number;
}

interface ProbedContainer {
  probeType: ProbeTypeName;
  container: string;
  pod: string;
  namespace: string;
  podUID: string;
}

export class KubeletMetrics {
  readonly #node: string;
  readonly #kubeletVersion: string;
  #startedPods = 0;
  #startedPodsErrors = 0;
  // Every node's kubelet keeps these: the label names are shared, the series made at first use.
  readonly #startedContainers = new CounterVec(labels.containerType);
  readonly #startedContainersErrors = new CounterVec(labels.containerTypeCode);
  readonly #podStartDuration = new HistogramVec(labels.none, podStartupDurationBuckets);
  readonly #imagePullDuration = new HistogramVec(labels.imageSize, imagePullDurationBuckets);
  readonly #evictions = new CounterVec(labels.evictionSignal);
  readonly #requestedResizes = new CounterVec(labels.requestedResize);
  readonly #resizeDuration = new HistogramVec(labels.success, podResizeDurationBuckets);
  readonly #infeasibleResizes = new CounterVec(labels.reasonDetail);
  readonly #deferredAcceptedResizes = new CounterVec(labels.retryTrigger);
  /** The pending-resize reasons this node has set its gauge for (a series, once set, stays). */
  #pendingReasonsSeen: Set<string> | undefined;
  #containerStatesSeen: Map<ContainerStateLabel, number> | undefined;
  /** Per pod UID: its probes' results and durations, dropped with the pod's probe workers. */
  #probes: Map<string, { results: CounterVec; durations: HistogramVec }> | undefined;

  constructor(node: string, kubeletVersion: string) {
    this.#node = node;
    this.#kubeletVersion = kubeletVersion;
  }

  /** SyncPod is about to create the pod's sandbox (RunPodSandbox); `failed` if it could not. */
  sandboxCreated(failed: boolean): void {
    this.#startedPods++;
    if (failed) this.#startedPodsErrors++;
  }

  /** A container's start begins; `errorCode` is the runtime's gRPC code when CreateContainer or StartContainer failed. */
  containerStarted(type: ContainerTypeLabel): void {
    this.#startedContainers.inc([type]);
  }

  containerStartFailed(type: ContainerTypeLabel, code: string): void {
    this.#startedContainersErrors.inc([type, code]);
  }

  /** SyncPod's observation: from the kubelet first seeing the pod to this sync. */
  podStartObserved(seconds: number): void {
    this.#podStartDuration.observe([], seconds);
  }

  /** A successful pull, the queue's wait included. */
  imagePulled(sizeBytes: number, seconds: number): void {
    this.#imagePullDuration.observe([imageSizeBucket(sizeBytes)], seconds);
  }

  podEvicted(signal: string): void {
    this.#evictions.inc([signal]);
  }

  /** One container's request or limit of one resource changed in the pod's spec. */
  resizeRequested(resource: 'cpu' | 'memory', requirement: 'requests' | 'limits', operation: 'add' | 'remove' | 'increase' | 'decrease'): void {
    this.#requestedResizes.inc([resource, requirement, operation]);
  }

  /** doPodResizeAction ran: how long, and whether every update went through. */
  resizeActuated(milliseconds: number, success: boolean): void {
    this.#resizeDuration.observe([String(success)], milliseconds);
  }

  /** A pod's PodResizePending condition was set with `reason` (Deferred, Infeasible): that reason's gauge exists from now on. */
  resizePending(reason: string): void {
    (this.#pendingReasonsSeen ??= new Set()).add(reason);
  }

  resizeInfeasible(detail: InfeasibleResizeDetail): void {
    this.#infeasibleResizes.inc([detail]);
  }

  deferredResizeAccepted(trigger: ResizeRetryTrigger): void {
    this.#deferredAcceptedResizes.inc([trigger]);
  }

  /** A probe's attempt: counted by result; its duration kept for successes only (a failure's is not). */
  probed(c: ProbedContainer, ok: boolean, seconds: number): void {
    this.#probes ??= new Map();
    let probes = this.#probes.get(c.podUID);
    if (!probes) this.#probes.set(c.podUID, (probes = { results: new CounterVec(labels.probeResult), durations: new HistogramVec(labels.probeDuration, defaultBuckets) }));
    probes.results.inc([c.probeType, ok ? 'successful' : 'failed', c.container, c.pod, c.namespace, c.podUID]);
    if (ok) probes.durations.observe([c.probeType, c.container, c.pod, c.namespace], seconds);
  }

  /** The pod's probe workers stopped: their series go. */
  podProbesStopped(podUID: string): void {
    this.#probes?.delete(podUID);
  }

  /** The exposition of /metrics/probes. */
  probesText(processStartSeconds: number): string {
    const results: Sample[] = [];
    const durations = [];
    for (const p of this.#probes?.values() ?? []) {
      results.push(...p.results.samples());
      durations.push(...p.durations.series());
    }
    return expositionText([
      { name: 'process_start_time_seconds', help: 'Start time of the process since unix epoch in seconds.', stability: 'ALPHA', type: 'gauge', samples: [{ labels: {}, value: processStartSeconds }] },
      { name: 'prober_probe_total', help: 'Cumulative number of a liveness, readiness or startup probe for a container by result.', stability: 'BETA', type: 'counter', samples: results },
      { name: 'prober_probe_duration_seconds', help: 'Duration in seconds for a probe response.', stability: 'ALPHA', type: 'histogram', buckets: defaultBuckets, series: durations },
    ]);
  }

  /** The exposition of /metrics: the kubelet's own families, with its pods as `gauges` has them now. */
  text(gauges: KubeletGauges): string {
    // Only states present are set, so a state that empties keeps its last count (updateRunningPodAndContainerMetrics).
    const seen = (this.#containerStatesSeen ??= new Map());
    for (const [state, n] of gauges.containers) seen.set(state, n);
    const [major = '', minor = ''] = this.#kubeletVersion.replace(/^v/, '').split('.');
    const alpha = (name: string, help: string, type: 'counter' | 'gauge', samples: Sample[]): Family => ({ name, help, stability: 'ALPHA', type, samples });
    const histogram = (name: string, help: string, h: HistogramVec): Family => ({ name, help, stability: 'ALPHA', type: 'histogram', buckets: h.buckets, series: h.series() });
    const claims: Sample[] = [...gauges.claimsByDriver].map(([driver, n]) => ({ labels: { driver_name: driver }, value: n }));
    claims.push({ labels: { driver_name: '<any>' }, value: gauges.claims });
    return expositionText([
      alpha('dra_resource_claims_in_use', 'The number of ResourceClaims that are currently in use on the node, by driver name (driver_name label value) and across all drivers (special value <any> for driver_name). Note that the sum of all by-driver counts is not the total number of in-use ResourceClaims because the same ResourceClaim might use devices from different drivers. Instead, use the count for the <any> driver_name.', 'gauge', claims),
      alpha('kubelet_container_requested_resizes_total', "Number of requested resizes, counted at the container level. Different resources on the same container are counted separately. The 'requirement' label refers to 'memory' or 'limits'; the 'operation' label can be one of 'add', 'remove', 'increase' or 'decrease'.", 'counter', this.#requestedResizes.samples()),
      alpha('kubelet_evictions', 'Cumulative number of pod evictions by eviction signal', 'counter', this.#evictions.samples()),
      histogram('kubelet_image_pull_duration_seconds', 'Duration in seconds to pull an image.', this.#imagePullDuration),
      alpha('kubelet_node_name', "The node's name. The count is always 1.", 'gauge', [{ labels: { node: this.#node }, value: 1 }]),
      alpha('kubelet_pod_deferred_accepted_resizes_total', 'Cumulative number of resizes that were accepted after being deferred.', 'counter', this.#deferredAcceptedResizes.samples()),
      alpha('kubelet_pod_in_progress_resizes', 'Number of in-progress resizes for pods.', 'gauge', [{ labels: {}, value: gauges.inProgressResizes }]),
      alpha('kubelet_pod_infeasible_resizes_total', 'Number of infeasible resizes for pods.', 'counter', this.#infeasibleResizes.samples()),
      alpha('kubelet_pod_pending_resizes', 'Number of pending resizes for pods.', 'gauge', [...(this.#pendingReasonsSeen ?? [])].map((reason) => ({ labels: { reason: reason.toLowerCase() }, value: gauges.pendingResizes.get(reason) ?? 0 }))),
      histogram('kubelet_pod_resize_duration_milliseconds', 'Duration in milliseconds to actuate a pod resize', this.#resizeDuration),
      histogram('kubelet_pod_start_duration_seconds', 'Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run', this.#podStartDuration),
      alpha('kubelet_running_containers', 'Number of containers currently running', 'gauge', [...seen].map(([state, n]) => ({ labels: { container_state: state }, value: n }))),
      alpha('kubelet_running_pods', 'Number of pods that have a running pod sandbox', 'gauge', [{ labels: {}, value: gauges.runningPods }]),
      alpha('kubelet_started_containers_errors_total', 'Cumulative number of errors when starting containers', 'counter', this.#startedContainersErrors.samples()),
      alpha('kubelet_started_containers_total', 'Cumulative number of containers started', 'counter', this.#startedContainers.samples()),
      alpha('kubelet_started_pods_errors_total', 'Cumulative number of errors when starting pods', 'counter', [{ labels: {}, value: this.#startedPodsErrors }]),
      alpha('kubelet_started_pods_total', 'Cumulative number of pods started', 'counter', [{ labels: {}, value: this.#startedPods }]),
      alpha('kubernetes_build_info', "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.", 'gauge', [{
        labels: { major, minor, git_version: this.#kubeletVersion, git_commit: simulatedBuild.gitCommit, git_tree_state: simulatedBuild.gitTreeState, build_date: simulatedBuild.buildDate, go_version: simulatedBuild.goVersion, compiler: simulatedBuild.compiler, platform: simulatedBuild.platform },
        value: 1,
      }]),
    ]);
  }
}

/**
 * SyncPod's kubelet_pod_start_duration_seconds for one pod, from when the kubelet first saw it (now):
 * observed at its first sync (the status manager has no status for it yet) and again when its phase
 * turns from Pending to Running. Call it with the phase of each status written.
 */
export function podStartObserver(metrics: KubeletMetrics | undefined, clock: Clock): (phase: string | undefined) => void {
  const firstSeen = clock.now();
  let seen: string | undefined;
  return (phase) => {
    const before = seen;
    seen = phase ?? '';
    if (before === undefined || (before === 'Pending' && phase === 'Running')) metrics?.podStartObserved((clock.now() - firstSeen) / 1000);
  };
}
