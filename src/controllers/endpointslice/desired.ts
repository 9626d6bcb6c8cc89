// The EndpointSlices a Service should have: its endpoints grouped by the ports they resolve to, at
// most 100 to a slice, or one empty placeholder when it has none. Pure.
// Upstream: pkg/controller/endpointslice/reconciler.go (reconcileByAddressType, placeholder slices),
// staging/src/k8s.io/endpointslice/utils.go (podToEndpoint, newEndpointSlice).
import type { Endpoint, EndpointSlicePort, Node } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import type { PodEndpoint } from '../service-endpoints.ts';

export const maxEndpointsPerSlice = 100;

export interface DesiredSlice {
  ports: EndpointSlicePort[];
  endpoints: Endpoint[];
}

export function toEndpoint(e: PodEndpoint, node: DeepReadonly<Node> | undefined): Endpoint {
  const pod = e.pod.metadata;
  const zone = node?.metadata.labels?.['topology.kubernetes.io/zone'];
  return {
    addresses: [e.ip],
    conditions: { ready: e.ready, serving: e.serving, terminating: e.terminating },
    ...(e.hostname ? { hostname: e.hostname } : {}),
    targetRef: { kind: 'Pod', namespace: pod.namespace ?? '', name: pod.name ?? '', uid: pod.uid ?? '' },
    ...(e.pod.spec.nodeName ? { nodeName: e.pod.spec.nodeName } : {}),
    ...(zone ? { zone } : {}),
  };
}

export function desiredSlices(endpoints: readonly PodEndpoint[], nodeOf: (name: string) => DeepReadonly<Node> | undefined): DesiredSlice[] {
  const groups = new Map<string, { ports: EndpointSlicePort[]; endpoints: Endpoint[] }>();
  for (const e of endpoints) {
    const ports: EndpointSlicePort[] = e.ports.map((p) => ({ name: p.name, protocol: p.protocol, port: p.port, ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    const key = JSON.stringify(ports);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ports, endpoints: [] }));
    group.endpoints.push(toEndpoint(e, nodeOf(e.pod.spec.nodeName ?? '')));
  }
  const out: DesiredSlice[] = [];
  for (const g of groups.values()) {
    for (let i = 0; i < g.endpoints.length; i += maxEndpointsPerSlice) out.push({ ports: g.ports, endpoints: g.endpoints.slice(i, i + maxEndpointsPerSlice) });
  }
  return out.length > 0 ? out : [{ ports: [], endpoints: [] }];
}
