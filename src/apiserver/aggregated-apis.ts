// Group-versions that APIServices send to a Service while this server serves nothing there: the
// aggregator would proxy them, and no simulated pod answers, so they are listed in discovery
// (stale in the aggregated form) and every request under them is a 503, as an unavailable
// extension API server's are. Group-versions served here (metrics.k8s.io) stay served.
// Upstream: kube-aggregator/pkg/apiserver/{handler_apis.go,handler_proxy.go,handler_discovery.go}.
import type { ServerResponse } from 'node:http';
import { refs } from '../api/index.ts';
import type { ApiServer } from './server.ts';
import { storedObject } from './stored-object.ts';

export interface GroupVersion {
  group: string;
  version: string;
}

interface RemoteAPIService {
  spec?: { group?: string; version?: string; service?: unknown };
}

/** The remote APIServices' group-versions that no served kind of this server answers for. */
export async function unservedRemoteGroupVersions(server: ApiServer): Promise<GroupVersion[]> {
  const ref = refs.apiServices;
  if (!server.index.find(ref.group, ref.version, ref.resource)) return [];
  const { page } = await server.list(ref, '', {});
  const out: GroupVersion[] = [];
  for (const kv of page.items) {
    const spec = (storedObject(kv) as RemoteAPIService).spec;
    if (!spec?.service) continue;
    const gv = { group: spec.group ?? '', version: spec.version ?? '' };
    if (server.index.inGroupVersion(gv.group, gv.version).length === 0) out.push(gv);
  }
  return out;
}

/** handler_proxy.go's answer when the APIService is not available: plain text, which clients read as ServiceUnavailable. */
export function sendServiceUnavailable(res: ServerResponse): void {
  res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('service unavailable\n');
}
