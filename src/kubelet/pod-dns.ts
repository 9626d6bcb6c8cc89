// A pod's DNS configuration as the kubelet forms it and the runtime writes it to the sandbox's
// /etc/resolv.conf: the cluster's DNS Service and search path for ClusterFirst, the pod's dnsConfig
// appended, limits applied. A pod that takes the node's own DNS (Default, or ClusterFirst on the host
// network) gets the node's file, which a simulated node does not have.
// Upstream: pkg/kubelet/network/dns/dns.go (GetPodDNS, appendDNSConfig, formDNSConfigFitsLimits),
// containerd's sandbox setup (parseDNSOptions).
import type { Pod } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';

/** The cluster's DNS Service IP kubeadm writes: the tenth address of the service CIDR (10.96.0.0/12). */
export const clusterDNS = '10.96.0.10';
export const clusterDomain = 'cluster.local';

const maxDNSNameservers = 3;
const maxDNSSearchPaths = 32;
const maxDNSSearchListChars = 2048;

const unique = (xs: readonly string[]): string[] => [...new Set(xs)];

/** mergeDNSOptions: name:value pairs, a later name replacing an earlier one's value. */
function mergeOptions(existing: readonly string[], added: readonly { name?: string; value?: string }[]): string[] {
  const options = new Map<string, string>();
  for (const op of existing) {
    const colon = op.indexOf(':');
    options.set(colon < 0 ? op : op.slice(0, colon), colon < 0 ? '' : op.slice(colon + 1));
  }
  for (const op of added) options.set(op.name ?? '', op.value ?? '');
  return [...options].map(([name, value]) => (value === '' ? name : `${name}:${value}`));
}

/** formDNSConfigFitsLimits: three nameservers; the search list cut to 32 paths and 2048 characters. */
function fitSearches(searches: string[]): string[] {
  const out = searches.slice(0, maxDNSSearchPaths);
  while (out.join(' ').length > maxDNSSearchListChars) out.pop();
  return out;
}

/** The text of the pod's /etc/resolv.conf, or undefined when it is the node's own. */
export function podResolvConf(pod: DeepReadonly<Pod>): string | undefined {
  const policy = pod.spec.dnsPolicy ?? 'ClusterFirst';
  let servers: string[] = [];
  let searches: string[] = [];
  let options: string[] = [];
  if (policy === 'ClusterFirstWithHostNet' || (policy === 'ClusterFirst' && !pod.spec.hostNetwork)) {
    // The node's own search domains would follow; a simulated node has none.
    const namespace = pod.metadata.namespace ?? '';
    servers = [clusterDNS];
    searches = [`${namespace}.svc.${clusterDomain}`, `svc.${clusterDomain}`, clusterDomain];
    options = ['ndots:5'];
  } else if (policy !== 'None') return undefined;
  const extra = pod.spec.dnsConfig;
  if (extra) {
    servers = unique([...servers, ...(extra.nameservers ?? [])]);
    searches = unique([...searches, ...(extra.searches ?? [])]);
    options = mergeOptions(options, extra.options ?? []);
  }
  servers = servers.slice(0, maxDNSNameservers);
  searches = fitSearches(searches);
  let text = '';
  if (searches.length > 0) text += `search ${searches.join(' ')}\n`;
  if (servers.length > 0) text += `nameserver ${servers.join('\nnameserver ')}\n`;
  if (options.length > 0) text += `options ${options.join(' ')}\n`;
  return text;
}
