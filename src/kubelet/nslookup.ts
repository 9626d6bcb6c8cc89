// busybox's nslookup in a simulated container. Since 1.29 it has its own resolver, asking the cluster
// DNS (cluster-dns.ts) what /etc/resolv.conf names: an A and an AAAA query for the name (a name
// without a dot once under each search domain), each answer printed as it comes, exit status 1 when
// any query got an error code. Up to 1.28 (the kubernetes.io examples' busybox:1.28) it asked the C
// library (getaddrinfo, with resolv.conf's search list and ndots) and printed each name with its
// addresses and their reverse names. Only the cluster's DNS Service is reachable from a simulated pod.
// Upstream: busybox networking/nslookup.c (nslookup_main, send_queries, parse_reply, add_query_with_search,
// parse_resolvconf).
import { isIP } from 'node:net';
import { answerQuery, reverseName } from './cluster-dns.ts';
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
export function nslookup(args: readonly string[], resolvConf: string | undefined, view: ClusterDnsView, image = ''): NslookupOutput {
  if (isLegacyBusybox(image)) return legacyNslookup(args, resolvConf, view);
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

/** busybox images up to 1.28 carry the nslookup that asks the C library. */
function isLegacyBusybox(image: string): boolean {
  const m = /(?:^|\/)busybox:(\d+)\.(\d+)/.exec(image);
  return m !== null && (Number(m[1]) < 1 || (Number(m[1]) === 1 && Number(m[2]) <= 28));
}

/** busybox 1.28's `%-10s %s` name line and `Address N: IP [reverse name]` lines (print_host). */
function hostLines(header: string, host: string, ips: readonly string[], view: ClusterDnsView): string {
  let out = `${header.padEnd(10)} ${host}\n`;
  ips.forEach((ip, i) => {
    const name = reverseName(ip, view);
    out += `Address ${i + 1}: ${ip}${name ? ` ${name}` : ''}\n`;
  });
  return out;
}

/**
 * getaddrinfo's search: a name with fewer dots than ndots (5 in a pod) is tried under each search
 * domain first, then as given; the first name with addresses answers.
 */
function resolveHost(host: string, conf: { search: string[] }, view: ClusterDnsView): string[] {
  const names = (host.match(/\./g) ?? []).length < 5 ? [...conf.search.map((d) => `${host}.${d}`), host] : [host, ...conf.search.map((d) => `${host}.${d}`)];
  for (const name of names) {
    const ips = (['A', 'AAAA'] as RecordType[]).flatMap((t) => answerQuery(name, t, view).records.filter((r) => r.type !== 'CNAME').map((r) => r.value));
    if (ips.length > 0) return ips;
  }
  return [];
}

function legacyNslookup(args: readonly string[], resolvConf: string | undefined, view: ClusterDnsView): NslookupOutput {
  const [host, serverArg, ...extra] = args;
  if (host === undefined || host.startsWith('-') || extra.length > 0) return failed('nslookup: only `nslookup HOST [SERVER]` is simulated\n');
  if (resolvConf === undefined && serverArg === undefined) return failed("nslookup: not simulated: the pod uses the node's /etc/resolv.conf\n");
  const conf = parseResolvConf(resolvConf ?? '');
  const server = serverArg ?? conf.servers[0] ?? '127.0.0.1';
  if (server !== clusterDNS) return failed('nslookup: only the cluster DNS Service is reachable from a simulated pod\n');
  const head = `${hostLines('Server:', server, [server], view)}\n`;
  const ips = isIP(host) ? [host] : resolveHost(host, conf, view);
  if (ips.length === 0) return { writes: [{ stream: 'stdout', text: head }, { stream: 'stderr', text: `nslookup: can't resolve '${host}'\n` }], status: 1 };
  return { writes: [{ stream: 'stdout', text: head + hostLines('Name:', host, ips, view) }], status: 0 };
}
