// busybox's nslookup (1.30 and later, its own resolver) in a simulated container, asking the cluster
// DNS (cluster-dns.ts) what /etc/resolv.conf names: an A and an AAAA query for the name (a name
// without a dot once under each search domain), each answer printed as it comes, exit status 1 when
// any query got an error code. Only the cluster's DNS Service is reachable from a simulated pod.
// Upstream: busybox networking/nslookup.c (nslookup_main, send_queries, parse_reply, add_query_with_search,
// parse_resolvconf).
import { isIP } from 'node:net';
import { answerQuery } from './cluster-dns.ts';
import type { ClusterDnsView, RecordType } from './cluster-dns.ts';
import { clusterDNS } from './pod-dns.ts';

export interface NslookupOutput {
  writes: { stream: 'stdout' | 'stderr'; text: string }[];
  status: number;
}

/** nameserver and search lines of a resolv.conf (the last search or domain line wins). */
function parseResolvConf(text: string): { servers: string[]; search: string[] } {
  const servers: string[] = [];
  let search: string[] = [];
  for (const line of text.split('\n')) {
    const [key, ...rest] = line.trim().split(/[ \t]+/);
    if (key === 'nameserver' && rest[0]) servers.push(rest[0]);
    else if ((key === 'search' || key === 'domain') && rest.length > 0) search = rest[0] === '.' ? [] : rest;
  }
  return { servers, search };
}

/**
 * `nslookup HOST [SERVER]`; `resolvConf` is the container's /etc/resolv.conf (undefined: not known,
 * as for a pod on the node's own DNS).
 */
export function nslookup(args: readonly string[], resolvConf: string | undefined, view: ClusterDnsView): NslookupOutput {
  const [host, serverArg, ...extra] = args;
  if (host === undefined || host.startsWith('-') || extra.length > 0) return failed('nslookup: only `nslookup HOST [SERVER]` is simulated\n');
  if (isIP(host)) return failed('nslookup: reverse lookups are not simulated\n');
  if (serverArg === undefined && resolvConf === undefined) return failed("nslookup: not simulated: the pod uses the node's /etc/resolv.conf\n");
  const conf = parseResolvConf(resolvConf ?? '');
  // Queries go to the first server that answers; a simulated pod reaches only the cluster's DNS Service.
  const reachable = serverArg === undefined ? conf.servers.includes(clusterDNS) : serverArg === clusterDNS;
  if (!reachable) {
    return { writes: [{ stream: 'stderr', text: ';; connection timed out; no servers could be reached\n\n' }], status: 1 };
  }
  const names = host.includes('.') || conf.search.length === 0 ? [host] : conf.search.map((d) => `${host}.${d}`);
  let out = `Server:\t\t${clusterDNS}\nAddress:\t${clusterDNS}:53\n\n`;
  let status = 0;
  for (const type of ['A', 'AAAA'] as RecordType[]) {
    for (const name of names) {
      const answer = answerQuery(name, type, view);
      if (answer.rcode !== 'NOERROR') {
        out += `** server can't find ${name}: ${answer.rcode}\n\n`;
        status = 1;
        continue;
      }
      if (answer.records.length === 0) out += `*** Can't find ${name}: No answer\n`;
      for (const r of answer.records) out += r.type === 'CNAME' ? `${r.name}\tcanonical name = ${r.value}\n` : `Name:\t${r.name}\nAddress: ${r.value}\n`;
      out += '\n';
    }
  }
  return { writes: [{ stream: 'stdout', text: out }], status };
}

function failed(text: string): NslookupOutput {
  return { writes: [{ stream: 'stderr', text }], status: 1 };
}
