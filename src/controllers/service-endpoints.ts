// What a Service's endpoints are, shared by the EndpointSlice and Endpoints controllers: the pods
// its selector picks that have an IP and are not finished, each with its readiness and the
// numbers its ports resolve to (a named targetPort is looked up in the pod's containers). Pure.
// Upstream: pkg/controller/util/endpoint/controller_utils.go (ShouldPodBeInEndpoints),
// pkg/api/v1/pod/util.go (FindPort), pkg/controller/endpointslice/utils.go (podToEndpoint, getEndpointPorts).
import type { Pod, Service } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { selectorFromSet } from '../core/index.ts';
import { isPodReady } from './pod-state.ts';

type ReadonlyPod = DeepReadonly<Pod>;
type ReadonlyService = DeepReadonly<Service>;

export interface ResolvedPort {
  name: string;
  port: number;
  protocol: 'TCP' | 'UDP' | 'SCTP';
  appProtocol?: string;
}

export interface PodEndpoint {
  pod: ReadonlyPod;
  ip: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
  ports: ResolvedPort[];
  /** Set when the pod's hostname and subdomain name it under this (headless) service. */
  hostname?: string;
}

/** Services the controllers manage: those with a selector (others' endpoints are the user's). */
export function managesEndpoints(svc: ReadonlyService): boolean {
  return svc.spec?.type !== 'ExternalName' && !!svc.spec?.selector && Object.keys(svc.spec.selector).length > 0;
}

export function selects(svc: ReadonlyService, pod: ReadonlyPod): boolean {
  return managesEndpoints(svc) && pod.metadata.namespace === svc.metadata.namespace && selectorFromSet(svc.spec?.selector as Record<string, string>).matches(pod.metadata.labels);
}

/** FindPort: a number is itself; a name is the container port of that name and protocol. */
function findPort(pod: ReadonlyPod, target: number | string | undefined, port: number, protocol: string): number | undefined {
  if (target === undefined) return port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec.containers) for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
  return undefined;
}

/** ShouldPodBeInEndpoints plus the pod's resolved ports; terminating pods only when asked. */
export function podEndpoints(svc: ReadonlyService, pods: readonly ReadonlyPod[], includeTerminating: boolean): PodEndpoint[] {
  const out: PodEndpoint[] = [];
  const publishNotReady = svc.spec?.publishNotReadyAddresses === true;
  for (const pod of pods) {
    const ip = pod.status?.podIP;
    const phase = pod.status?.phase;
    if (!ip || phase === 'Succeeded' || phase === 'Failed') continue;
    const terminating = !!pod.metadata.deletionTimestamp;
    if (terminating && !includeTerminating) continue;
    const ports: ResolvedPort[] = [];
    for (const sp of svc.spec?.ports ?? []) {
      const protocol = sp.protocol ?? 'TCP';
      const port = findPort(pod, sp.targetPort, sp.port, protocol);
      if (port === undefined) continue;
      ports.push({ name: sp.name ?? '', port, protocol, ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) });
    }
    const ready = isPodReady(pod);
    const named = pod.spec.hostname && pod.spec.subdomain === svc.metadata.name ? { hostname: pod.spec.hostname } : {};
    out.push({ pod, ip, ready: publishNotReady || (ready && !terminating), serving: publishNotReady || ready, terminating, ports, ...named });
  }
  return out.sort((a, b) => (a.pod.metadata.name ?? '').localeCompare(b.pod.metadata.name ?? ''));
}

/** The labels a service's endpoints carry: its own, plus the headless marker. */
export function endpointLabels(svc: ReadonlyService): Record<string, string> {
  const labels: Record<string, string> = { ...svc.metadata.labels };
  if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
  return labels;
}

/** The services a pod change matters to: those that select it now or did before the change. */
export function servicesTouched(services: readonly ReadonlyService[], old: ReadonlyPod | undefined, pod: ReadonlyPod): ReadonlyService[] {
  if (old && old.metadata.resourceVersion === pod.metadata.resourceVersion) return [];
  return services.filter((svc) => selects(svc, pod) || (old !== undefined && selects(svc, old)));
}
