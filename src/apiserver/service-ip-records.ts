// The cluster IP allocator's IPAddress records, written within the Service's own request: created
// for the cluster IPs a create or an update gives a Service, deleted for those an update or the delete
// takes away, as upstream's allocator does in the Service's REST calls, so `kubectl get ipaddresses`
// agrees with the Service the moment its write is answered. The repair loop
// (cluster/ip-address-repair.ts) mends what these miss: a Service held by finalizers, older data.
// Upstream: pkg/registry/core/service/ipallocator/ipallocator.go (createIPAddress, Release).
import { isServiceIPRecord, refs, serviceClusterIPs, serviceIPRecord } from '../api/index.ts';
import type { IPAddress, Service } from '../api/index.ts';
import type { KubeObject } from '../core/index.ts';
import { isApiError } from '../core/index.ts';
import { resultObject } from './encode.ts';
import type { ApiServer } from './server.ts';
import type { WriteFollower } from './write-followers.ts';

/** The allocator writes as the API server's loopback client does. */
const allocator = { userAgent: 'kube-apiserver' };

/** Records the cluster IPs `after` holds and `before` did not; releases those only `before` held. */
export const serviceIPRecords: WriteFollower = {
  group: '',
  resource: 'services',
  async follow(server, before, after) {
    const held = after ? serviceClusterIPs(after as Service) : [];
    const had = before ? serviceClusterIPs(before as Service) : [];
    if (after) await recordServiceIPs(server, after, held.filter((ip) => !had.includes(ip)));
    if (before) await releaseServiceIPs(server, before, had.filter((ip) => !held.includes(ip)));
  },
};

async function recordServiceIPs(server: ApiServer, svc: KubeObject, ips: readonly string[]): Promise<void> {
  for (const ip of ips) {
    try {
      await server.create(refs.ipAddresses, '', serviceIPRecord(ip, svc.metadata.namespace ?? '', svc.metadata.name ?? ''), allocator);
    } catch (error) {
      // Held already (admission skipped every address another object holds), or refused: the repair loop judges.
      if (!isApiError(error)) throw error;
    }
  }
}

async function releaseServiceIPs(server: ApiServer, svc: KubeObject, ips: readonly string[]): Promise<void> {
  for (const ip of ips) {
    try {
      const record = resultObject(await server.get(refs.ipAddresses, '', ip)) as IPAddress;
      const parent = record.spec?.parentRef;
      if (!isServiceIPRecord(record) || parent?.namespace !== svc.metadata.namespace || parent?.name !== svc.metadata.name) continue;
      await server.delete(refs.ipAddresses, '', ip, { dryRun: false });
    } catch (error) {
      // Gone already, or never written: nothing to release.
      if (!isApiError(error)) throw error;
    }
  }
}
