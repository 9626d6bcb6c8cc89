// A Service's Endpoints subsets in the canonical layout: each distinct set of addresses with the
// ports they all offer, ready ones in `addresses` and the rest in `notReadyAddresses`, sorted. Pure.
// Upstream: pkg/controller/endpoint/endpoints_controller.go (podToEndpointAddressForService,
// addEndpointSubset), pkg/api/v1/endpoints/util.go (RepackSubsets, SortSubsets).
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../../api/index.ts';
import type { PodEndpoint } from '../service-endpoints.ts';

function address(e: PodEndpoint): EndpointAddress {
  const pod = e.pod;
  return {
    ip: e.ip,
    ...(e.hostname ? { hostname: e.hostname } : {}),
    ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
  };
}

const ipOrder = (a: EndpointAddress, b: EndpointAddress): number => a.ip.localeCompare(b.ip, undefined, { numeric: true }) || (a.targetRef?.uid ?? '').localeCompare(b.targetRef?.uid ?? '');

/** RepackSubsets over the pods' endpoints (a service without ports keeps its addresses, portless). */
export function endpointSubsets(endpoints: readonly PodEndpoint[], servicePorts: number): EndpointSubset[] {
  // Port (or the portless sentinel) -> the addresses offering it.
  const byPort = new Map<string, { port: EndpointPort | undefined; addresses: Map<string, { address: EndpointAddress; ready: boolean }> }>();
  for (const e of endpoints) {
    const ports: (EndpointPort | undefined)[] = servicePorts === 0 ? [undefined] : e.ports.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol, ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    for (const port of ports) {
      const key = JSON.stringify(port ?? null);
      let entry = byPort.get(key);
      if (!entry) byPort.set(key, (entry = { port, addresses: new Map() }));
      entry.addresses.set(`${e.ip}/${e.pod.metadata.uid ?? ''}`, { address: address(e), ready: e.ready });
    }
  }
  // Address set -> the ports its members all offer.
  const bySet = new Map<string, { addresses: { address: EndpointAddress; ready: boolean }[]; ports: EndpointPort[] }>();
  for (const { port, addresses } of byPort.values()) {
    const members = [...addresses.entries()].sort(([a], [b]) => a.localeCompare(b));
    const key = JSON.stringify(members.map(([k, v]) => [k, v.ready]));
    let entry = bySet.get(key);
    if (!entry) bySet.set(key, (entry = { addresses: members.map(([, v]) => v), ports: [] }));
    if (port) entry.ports.push(port);
  }
  const subsets: EndpointSubset[] = [...bySet.values()].map(({ addresses, ports }) => {
    const ready = addresses.filter((a) => a.ready).map((a) => a.address).sort(ipOrder);
    const notReady = addresses.filter((a) => !a.ready).map((a) => a.address).sort(ipOrder);
    ports.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port);
    return { ...(ready.length ? { addresses: ready } : {}), ...(notReady.length ? { notReadyAddresses: notReady } : {}), ...(ports.length ? { ports } : {}) };
  });
  const first = (s: EndpointSubset): string => (s.addresses ?? s.notReadyAddresses ?? [])[0]?.ip ?? '';
  return subsets.sort((a, b) => first(a).localeCompare(first(b), undefined, { numeric: true }));
}
