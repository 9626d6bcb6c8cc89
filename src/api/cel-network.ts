// Kubernetes' IP, CIDR and URL libraries for CEL (in every environment since 1.30, URLs since CEL's
// start): ip()/isIP()/ip.isCanonical() and the address classes, cidr()/isCIDR() and containment, url()/isURL() and the
// parts of a request URI, with the apiserver's error texts. Registered by withKubernetesLibraries.
// Upstream: staging/src/k8s.io/apiserver/pkg/cel/library/{ip.go,cidr.go,urls.go}, Go's net/netip
// (ParseAddr, ParsePrefix) and net/url (ParseRequestURI).
import type { Environment } from '@marcbachmann/cel-js';
import type { IPAddressValue, IPPrefix } from '../core/index.ts';
import { formatIP, ipIsGlobalUnicast, ipIsLinkLocalMulticast, ipIsLinkLocalUnicast, ipIsLoopback, ipIsUnspecified, parseIP, parsePrefix, prefixContains, prefixNetwork } from '../core/index.ts';

/** apiservercel.IP: a netip.Addr. */
export class CelIP {
  readonly ip: IPAddressValue;
  constructor(ip: IPAddressValue) {
    this.ip = ip;
  }
}

/** The `ip` namespace of ip.isCanonical (beside the ip() function). */
export class CelIPNamespace {}

/** apiservercel.CIDR: a netip.Prefix, its address as written. */
export class CelCIDR {
  readonly prefix: IPPrefix;
  constructor(prefix: IPPrefix) {
    this.prefix = prefix;
  }
}

/** apiservercel.URL: what url.ParseRequestURI made of the text. */
export class CelURL {
  readonly scheme: string;
  /** host[:port], IPv6 in brackets. */
  readonly host: string;
  readonly path: string;
  readonly rawQuery: string;
  constructor(parts: { scheme: string; host: string; path: string; rawQuery: string }) {
    ({ scheme: this.scheme, host: this.host, path: this.path, rawQuery: this.rawQuery } = parts);
  }
}

/** netip.ParseAddr's error for `text` (the common cases named; the rest "unable to parse IP"). */
function parseAddrError(text: string): string {
  if (!text.includes(':') && text.split('.').some((o) => o.length > 1 && o.startsWith('0') && /^\d+$/.test(o))) return `ParseAddr(${JSON.stringify(text)}): IPv4 field has octet with leading zero`;
  return `ParseAddr(${JSON.stringify(text)}): unable to parse IP`;
}

/** parseIPAddr: netip's parse, refusing zones and IPv4-mapped IPv6 addresses. */
function parseIPAddr(text: string): IPAddressValue | string {
  const zone = text.indexOf('%');
  if (zone > 0 && text.includes(':') && parseIP(text.slice(0, zone))) return `IP address ${JSON.stringify(text)} with zone value is not allowed`;
  const ip = parseIP(text);
  if (!ip) return `IP Address ${JSON.stringify(text)} parse error during conversion from string: ${parseAddrError(text)}`;
  if (ip.mapped) return `IPv4-mapped IPv6 address ${JSON.stringify(text)} is not allowed`;
  return ip;
}

/** parseCIDR: netip.ParsePrefix, refusing IPv4-mapped IPv6 addresses. */
function parseCIDR(text: string): IPPrefix | string {
  const wrap = (detail: string): string => `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(text)}): ${detail}`;
  const slash = text.lastIndexOf('/');
  if (slash < 0) return wrap("no '/'");
  const address = text.slice(0, slash);
  if (!parseIP(address)) return wrap(parseAddrError(address));
  const prefix = parsePrefix(text);
  if (!prefix) return wrap(/^\d+$/.test(text.slice(slash + 1)) ? 'prefix length out of range' : `bad bits after slash: ${JSON.stringify(text.slice(slash + 1))}`);
  if (parseIP(address)?.mapped) return `IPv4-mapped IPv6 address ${JSON.stringify(text)} is not allowed`;
  return prefix;
}

function mustIP(text: string): CelIP {
  const ip = parseIPAddr(text);
  if (typeof ip === 'string') throw new Error(ip);
  return new CelIP(ip);
}

function mustCIDR(text: string): CelCIDR {
  const prefix = parseCIDR(text);
  // stringToCIDR wraps parseCIDR's error in the same words again.
  if (typeof prefix === 'string') throw new Error(`network address parse error during conversion from string: ${prefix}`);
  return new CelCIDR(prefix);
}

const containsCIDR = (a: CelCIDR, b: CelCIDR): boolean => {
  if (a.prefix.family !== b.prefix.family || a.prefix.bits > b.prefix.bits) return false;
  return prefixNetwork(a.prefix) === prefixNetwork({ ...b.prefix, bits: a.prefix.bits });
};

const urlConversionPrefix = 'URL parse error during conversion from string: ';
const schemePattern = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * url.ParseRequestURI: an absolute URI (a scheme, then `//authority` and a path, an absolute path or an
 * opaque rest) or an absolute path; no fragment is split off. The message is net/url's.
 */
function parseRequestURI(text: string): CelURL | string {
  const fail = (detail: string): string => `${urlConversionPrefix}parse ${JSON.stringify(text)}: ${detail}`;
  if (text === '') return fail('empty url');
  if (/[\x00-\x1f\x7f]/.test(text)) return fail('net/url: invalid control character in URL');
  let rest = text;
  let scheme = '';
  const m = schemePattern.exec(text);
  if (m) {
    scheme = (m[1] ?? '').toLowerCase();
    rest = text.slice(m[0].length);
  } else if (!text.startsWith('/')) return fail('invalid URI for request');
  const q = rest.indexOf('?');
  const rawQuery = q >= 0 ? rest.slice(q + 1) : '';
  if (q >= 0) rest = rest.slice(0, q);
  // A rootless rest after a scheme is opaque (`mailto:x`, `localhost:8080`): no host, no path.
  if (!rest.startsWith('/')) return new CelURL({ scheme, host: '', path: '', rawQuery });
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? '' : rest.slice(end);
    host = authority.slice(authority.lastIndexOf('@') + 1);
    const port = /:([^\]]*)$/.exec(host.startsWith('[') ? host.slice(host.indexOf(']') + 1) : host);
    if (port && !/^\d*$/.test(port[1] ?? '')) return fail(`invalid port ${JSON.stringify(`:${port[1] ?? ''}`)} after host`);
  }
  return new CelURL({ scheme, host, path: rest, rawQuery });
}

/** url.ParseRequestURI's error text (`parse "x": invalid URI for request`), or undefined when it parses. */
export function requestURIError(text: string): string | undefined {
  const u = parseRequestURI(text);
  return typeof u === 'string' ? u.slice(urlConversionPrefix.length) : undefined;
}

function mustURL(text: string): CelURL {
  const u = parseRequestURI(text);
  if (typeof u === 'string') throw new Error(u);
  return u;
}

/** url.Hostname(): the host without its port and an IPv6 address's brackets. */
function hostname(u: CelURL): string {
  if (u.host.startsWith('[')) return u.host.slice(1, u.host.indexOf(']'));
  const colon = u.host.lastIndexOf(':');
  return colon < 0 ? u.host : u.host.slice(0, colon);
}

function port(u: CelURL): string {
  const after = u.host.startsWith('[') ? u.host.slice(u.host.indexOf(']') + 1) : u.host;
  const colon = after.lastIndexOf(':');
  return colon < 0 ? '' : after.slice(colon + 1);
}

/** url.Values from the raw query: each key's values in order; a pair that does not decode is skipped. */
function query(u: CelURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const key = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
      const value = eq < 0 ? '' : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch {
      // url.ParseQuery keeps going after a pair it cannot unescape.
    }
  }
  return out;
}

const formatPrefixAsWritten = (p: IPPrefix): string => `${formatIP(p.family, p.address)}/${p.bits}`;

/** Registers the net.IP, net.CIDR and URL types and their functions on `env`. */
export function withNetworkLibraries(env: Environment): Environment {
  return env
    .registerType('net.IP', CelIP)
    .registerFunction('ip(string): net.IP', mustIP)
    .registerFunction('isIP(string): bool', (s: string) => typeof parseIPAddr(s) !== 'string')
    .registerType('kubernetes.IPNamespace', CelIPNamespace)
    .registerConstant('ip', 'kubernetes.IPNamespace', new CelIPNamespace())
    // ipIsCanonical: the text is what netip.Addr.String() gives back.
    .registerFunction('kubernetes.IPNamespace.isCanonical(string): bool', (_: unknown, s: string) => {
      const a = mustIP(s).ip;
      return formatIP(a.family, a.value) === s;
    })
    .registerFunction('net.IP.family(): int', (a: CelIP) => BigInt(a.ip.family))
    .registerFunction('net.IP.isUnspecified(): bool', (a: CelIP) => ipIsUnspecified(a.ip))
    .registerFunction('net.IP.isLoopback(): bool', (a: CelIP) => ipIsLoopback(a.ip))
    .registerFunction('net.IP.isLinkLocalMulticast(): bool', (a: CelIP) => ipIsLinkLocalMulticast(a.ip))
    .registerFunction('net.IP.isLinkLocalUnicast(): bool', (a: CelIP) => ipIsLinkLocalUnicast(a.ip))
    .registerFunction('net.IP.isGlobalUnicast(): bool', (a: CelIP) => ipIsGlobalUnicast(a.ip))
    .registerFunction('string(net.IP): string', (a: CelIP) => formatIP(a.ip.family, a.ip.value))
    .registerOperator('net.IP == net.IP', (a: CelIP, b: CelIP) => a.ip.family === b.ip.family && a.ip.value === b.ip.value)
    .registerType('net.CIDR', CelCIDR)
    .registerFunction('cidr(string): net.CIDR', mustCIDR)
    .registerFunction('isCIDR(string): bool', (s: string) => typeof parseCIDR(s) !== 'string')
    .registerFunction('net.CIDR.containsIP(net.IP): bool', (c: CelCIDR, a: CelIP) => prefixContains(c.prefix, a.ip))
    .registerFunction('net.CIDR.containsIP(string): bool', (c: CelCIDR, s: string) => prefixContains(c.prefix, mustIP(s).ip))
    .registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', containsCIDR)
    .registerFunction('net.CIDR.containsCIDR(string): bool', (c: CelCIDR, s: string) => containsCIDR(c, mustCIDR(s)))
    .registerFunction('net.CIDR.ip(): net.IP', (c: CelCIDR) => new CelIP({ family: c.prefix.family, value: c.prefix.address, mapped: false }))
    .registerFunction('net.CIDR.masked(): net.CIDR', (c: CelCIDR) => new CelCIDR({ ...c.prefix, address: prefixNetwork(c.prefix) }))
    .registerFunction('net.CIDR.prefixLength(): int', (c: CelCIDR) => BigInt(c.prefix.bits))
    .registerFunction('string(net.CIDR): string', (c: CelCIDR) => formatPrefixAsWritten(c.prefix))
    .registerOperator('net.CIDR == net.CIDR', (a: CelCIDR, b: CelCIDR) => a.prefix.family === b.prefix.family && a.prefix.address === b.prefix.address && a.prefix.bits === b.prefix.bits)
    .registerType('URL', CelURL)
    .registerFunction('url(string): URL', mustURL)
    .registerFunction('isURL(string): bool', (s: string) => typeof parseRequestURI(s) !== 'string')
    .registerFunction('URL.getScheme(): string', (u: CelURL) => u.scheme)
    .registerFunction('URL.getHost(): string', (u: CelURL) => u.host)
    .registerFunction('URL.getHostname(): string', hostname)
    .registerFunction('URL.getPort(): string', port)
    .registerFunction('URL.getEscapedPath(): string', (u: CelURL) => u.path)
    .registerFunction('URL.getQuery(): map<string, list<string>>', query);
}
