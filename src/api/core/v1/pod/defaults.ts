// Scheme defaulting for Pods: what SetDefaults_Pod/PodSpec/Container/Probe/... and the declarative
// `+default` tags fill in on every decoded write, plus the v1 serviceAccount alias conversion.
// Upstream: pkg/apis/core/v1/defaults.go, zz_generated.defaults.go, conversion.go (PodSpec).
import type { Container, HTTPGetAction, LifecycleHandler, Pod, PodSpec, Probe, ResourceList, Volume } from './types.ts';
import { podResourceLimits, podResourceRequests, isSupportedPodLevelResource } from '../pod-resources.ts';
import { formatQuantityLike } from './quantity-format.ts';

export const defaultTerminationGracePeriodSeconds = 30;
export const defaultSchedulerName = 'default-scheduler';
export const terminationMessagePathDefault = '/dev/termination-log';
const defaultVolumeMode = 0o644;

/** The tag ParseImageName reports: "latest" when neither tag nor digest is given. */
export function imageTag(image: string): string {
  // ParseImageName fails on an empty reference (a template's, for a controller to fill in): no tag.
  if (!image) return '';
  const at = image.indexOf('@');
  const named = at < 0 ? image : image.slice(0, at);
  const lastSlash = named.lastIndexOf('/');
  const colon = named.indexOf(':', lastSlash + 1);
  if (colon >= 0) return named.slice(colon + 1);
  return at < 0 ? 'latest' : '';
}

function defaultHTTPGet(h: HTTPGetAction | undefined): void {
  if (!h) return;
  if (!h.path) h.path = '/';
  if (!h.scheme) h.scheme = 'HTTP';
}

function defaultProbe(p: Probe | undefined): void {
  if (!p) return;
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  defaultHTTPGet(p.httpGet);
  if (p.grpc && p.grpc.service === undefined) p.grpc.service = '';
}

function defaultHandler(h: LifecycleHandler | undefined): void {
  if (h) defaultHTTPGet(h.httpGet);
}

function defaultContainer(c: Container): void {
  // Not a default upstream but the Go type: ResourceRequirements is a struct, not a pointer, so every
  // container serializes `resources: {}` (and a create's managed fields own `f:resources`).
  if (!c.resources) c.resources = {};
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(c.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (!c.terminationMessagePath) c.terminationMessagePath = terminationMessagePathDefault;
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  for (const p of c.ports ?? []) if (!p.protocol) p.protocol = 'TCP';
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultHandler(c.lifecycle?.postStart);
  defaultHandler(c.lifecycle?.preStop);
  for (const e of c.env ?? []) {
    const f = e.valueFrom?.fieldRef;
    if (f && !f.apiVersion) f.apiVersion = 'v1';
    const r = e.valueFrom?.resourceFieldRef;
    if (r && r.divisor === undefined) r.divisor = '0';
  }
}

/** Requests default to limits per resource, on Pods only (not templates). */
function defaultRequestsFromLimits(c: Container): void {
  const limits = c.resources?.limits;
  if (!limits || !c.resources) return;
  // Writes only what is missing: a stored pod is defaulted again on every update, and the parts an
  // update keeps are the stored object's own, which nobody may write to.
  const requests = c.resources.requests;
  if (requests === undefined) {
    c.resources.requests = { ...limits };
    return;
  }
  for (const k in limits) if (!(k in requests)) requests[k] = limits[k] as string;
}

function defaultVolume(v: Volume): void {
  const { name: _name, ...source } = v;
  if (Object.keys(source).length === 0) v.emptyDir = {};
  if (v.secret && v.secret.defaultMode === undefined) v.secret.defaultMode = defaultVolumeMode;
  if (v.configMap && v.configMap.defaultMode === undefined) v.configMap.defaultMode = defaultVolumeMode;
  if (v.downwardAPI) {
    if (v.downwardAPI.defaultMode === undefined) v.downwardAPI.defaultMode = defaultVolumeMode;
    for (const i of v.downwardAPI.items ?? []) if (i.fieldRef && !i.fieldRef.apiVersion) i.fieldRef.apiVersion = 'v1';
  }
  if (v.projected) {
    if (v.projected.defaultMode === undefined) v.projected.defaultMode = defaultVolumeMode;
    for (const s of v.projected.sources ?? []) {
      if (s.serviceAccountToken && s.serviceAccountToken.expirationSeconds === undefined) s.serviceAccountToken.expirationSeconds = 3600;
      for (const i of s.downwardAPI?.items ?? []) if (i.fieldRef && !i.fieldRef.apiVersion) i.fieldRef.apiVersion = 'v1';
    }
  }
  if (v.hostPath && v.hostPath.type === undefined) v.hostPath.type = '';
  if (v.image && !v.image.pullPolicy) v.image.pullPolicy = imageTag(v.image.reference ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  const claim = v.ephemeral?.volumeClaimTemplate?.spec;
  if (claim && !claim.volumeMode) claim.volumeMode = 'Filesystem';
}

/** SetDefaults_PodSpec: shared with templates. */
export function defaultPodSpec(spec: PodSpec): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (!spec.securityContext) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined) spec.terminationGracePeriodSeconds = defaultTerminationGracePeriodSeconds;
  if (!spec.schedulerName) spec.schedulerName = defaultSchedulerName;
  // v1's deprecated serviceAccount mirrors serviceAccountName in both directions.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  for (const c of spec.containers ?? []) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c);
  for (const v of spec.volumes ?? []) defaultVolume(v);
}

/** SetDefaults_Pod plus everything nested: runs on every decoded Pod write. */
export function defaultPod(pod: Pod): void {
  const spec = pod.spec;
  if (!spec) return;
  defaultPodSpec(spec);
  for (const c of spec.containers ?? []) defaultRequestsFromLimits(c);
  for (const c of spec.initContainers ?? []) defaultRequestsFromLimits(c);
  defaultPodLevelResources(pod);
  if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
  if (spec.hostNetwork) {
    for (const list of [spec.containers ?? [], spec.initContainers ?? []]) {
      for (const c of list) for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
    }
  }
}

// Overcommittable = not hugepages (IsOvercommitAllowed also excludes extended resources, which pod-level
// resources never carry).
function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}

// defaultHugePagePodLimits then defaultPodRequests (KEP-2837), only when pod-level resources are partly set.
function defaultPodLevelResources(pod: Pod): void {
  const res = pod.spec.resources;
  if (!res) return;
  const hasLimits = res.limits && Object.keys(res.limits).length > 0;
  const hasRequests = res.requests && Object.keys(res.requests).length > 0;
  if (!hasLimits && !hasRequests) return;
  const podLimits: ResourceList = res.limits ?? {};
  const ctrLimits = podResourceLimits(pod, { excludeOverhead: true, skipPodLevelResources: true });
  for (const k in ctrLimits) {
    if (!isHugePages(k) || (res.requests && k in res.requests) || k in podLimits) continue;
    podLimits[k] = formatQuantityLike(k, ctrLimits[k] ?? 0, containerQuantities(pod, k, 'limits'));
  }
  if (res.limits === undefined && Object.keys(podLimits).length > 0) res.limits = podLimits;
  if (!res.limits || Object.keys(res.limits).length === 0) return;
  const podReqs: ResourceList = res.requests ?? {};
  const ctrReqs = podResourceRequests(pod, { excludeOverhead: true, skipPodLevelResources: true });
  for (const k in ctrReqs) {
    if (k in podReqs || !isSupportedPodLevelResource(k) || isHugePages(k)) continue;
    podReqs[k] = formatQuantityLike(k, ctrReqs[k] ?? 0, containerQuantities(pod, k, 'requests'));
  }
  for (const k in res.limits) if (!(k in podReqs) && isSupportedPodLevelResource(k)) podReqs[k] = res.limits[k] as string;
  if (res.requests === undefined && Object.keys(podReqs).length > 0) res.requests = podReqs;
}

function containerQuantities(pod: Pod, name: string, which: 'requests' | 'limits'): string[] {
  const out: string[] = [];
  for (const list of [pod.spec.containers ?? [], pod.spec.initContainers ?? []]) {
    for (const c of list) {
      const q = c.resources?.[which]?.[name];
      if (q !== undefined) out.push(q);
    }
  }
  return out;
}
