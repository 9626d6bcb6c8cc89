// IP addresses and CIDR prefixes as numbers: parsing in Go's two dialects (net.ParseIP's sloppy
// one, which takes IPv4 octets with leading zeros, and netip's strict one), canonical text
// (RFC 5952 for IPv6), containment, and walking a prefix's addresses for allocators.
// Upstream: k8s.io/utils/net (ParseIPSloppy, ParseCIDRSloppy), Go's net/netip.

export type IPFamilyNumber = 4 | 6;

export interface IPAddressValue {
  readonly family: IPFamilyNumber;
  readonly value: bigint;
  /** An IPv6 address that embeds an IPv4 one (::ffff:a.b.c.d). */
  readonly mapped: boolean;
}

export interface IPPrefix {
  readonly family: IPFamilyNumber;
  /** The address as written (its host bits may be set). */
  readonly address: bigint;
  readonly bits: number;
}

const widthOf = (family: IPFamilyNumber): number => (family === 4 ? 32 : 128);

function parseIPv4(text: string, strict: boolean): bigint | undefined {
  const octets = text.split('.');
  if (octets.length !== 4) return undefined;
  let value = 0n;
  for (const octet of octets) {
    if (!/^\d{1,3}$/.test(octet) || Number(octet) > 255) return undefined;
    if (strict && octet.length > 1 && octet.startsWith('0')) return undefined;
    value = (value << 8n) | BigInt(Number(octet));
  }
  return value;
}

function parseIPv6(text: string, strict: boolean): bigint | undefined {
  if (text.split('::').length > 2) return undefined;
  // A trailing dotted quad stands for the last two groups.
  let body = text;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIPv4(tail, strict);
    if (v4 === undefined) return undefined;
    body = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = body.split('::');
  const groups = (s: string): string[] | undefined => (s === '' ? [] : s.split(':'));
  const before = groups(head);
  const after = rest === undefined ? [] : groups(rest);
  if (!before || !after) return undefined;
  const missing = 8 - before.length - after.length;
  if (rest === undefined ? missing !== 0 : missing < 1) return undefined;
  let value = 0n;
  for (const group of [...before, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...after]) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(`0x${group}`);
  }
  return value;
}

/** net.ParseIP (sloppy: IPv4 octets may have leading zeros) or netip.ParseAddr (strict). */
export function parseIP(text: string, strict = true): IPAddressValue | undefined {
  if (text.includes(':')) {
    const value = parseIPv6(text, strict);
    if (value === undefined) return undefined;
    return { family: 6, value, mapped: value >> 32n === 0xffffn };
  }
  const value = parseIPv4(text, strict);
  return value === undefined ? undefined : { family: 4, value, mapped: false };
}

/** The canonical text: dotted quad, or RFC 5952 (lowercase, the longest zero run as ::). */
export function formatIP(family: IPFamilyNumber, value: bigint): string {
  if (family === 4) {
    // In number arithmetic: the cluster IP allocator formats every candidate it scans.
    const n = Number(value);
    return `${Math.floor(n / 16777216) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  if (value >> 32n === 0xffffn) return `::ffff:${formatIP(4, value & 0xffffffffn)}`;
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** ParseCIDRSloppy (leading zeros allowed) or netip.ParsePrefix (strict). */
export function parsePrefix(text: string, strict = true): IPPrefix | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(text.slice(0, slash), strict);
  const length = text.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(length) || (strict && length.length > 1 && length.startsWith('0'))) return undefined;
  const bits = Number(length);
  if (bits > widthOf(ip.family)) return undefined;
  return { family: ip.family, address: ip.value, bits };
}

/** The first address of the prefix (host bits cleared). */
export function prefixNetwork(prefix: IPPrefix): bigint {
  const hostBits = BigInt(widthOf(prefix.family) - prefix.bits);
  return (prefix.address >> hostBits) << hostBits;
}

export function prefixSize(prefix: IPPrefix): bigint {
  return 1n << BigInt(widthOf(prefix.family) - prefix.bits);
}

export function prefixContains(prefix: IPPrefix, ip: IPAddressValue): boolean {
  return ip.family === prefix.family && ip.value >= prefixNetwork(prefix) && ip.value < prefixNetwork(prefix) + prefixSize(prefix);
}

export function formatPrefix(prefix: IPPrefix): string {
  return `${formatIP(prefix.family, prefixNetwork(prefix))}/${prefix.bits}`;
}

/** An IPv4-mapped IPv6 address as its IPv4 one, as netip's classifiers see it. */
function unmapped(ip: IPAddressValue): { v4: boolean; value: bigint } {
  return ip.family === 4 || ip.mapped ? { v4: true, value: ip.value & 0xffffffffn } : { v4: false, value: ip.value };
}

const v4Octets = (value: bigint): [number, number] => [Number(value >> 24n), Number((value >> 16n) & 0xffn)];
const v6Head = (value: bigint): number => Number(value >> 112n);

/** netip.Addr.IsUnspecified: 0.0.0.0 or ::. */
export function ipIsUnspecified(ip: IPAddressValue): boolean {
  return unmapped(ip).value === 0n && (ip.family === 4 || !ip.mapped);
}

/** IsLoopback: 127.0.0.0/8 or ::1. */
export function ipIsLoopback(ip: IPAddressValue): boolean {
  const u = unmapped(ip);
  return u.v4 ? v4Octets(u.value)[0] === 127 : u.value === 1n;
}

/** IsMulticast: 224.0.0.0/4 or ff00::/8. */
export function ipIsMulticast(ip: IPAddressValue): boolean {
  const u = unmapped(ip);
  return u.v4 ? v4Octets(u.value)[0] >= 224 && v4Octets(u.value)[0] <= 239 : (v6Head(u.value) & 0xff00) === 0xff00;
}

/** IsLinkLocalMulticast: 224.0.0.0/24 or ff02::/16. */
export function ipIsLinkLocalMulticast(ip: IPAddressValue): boolean {
  const u = unmapped(ip);
  return u.v4 ? u.value >> 8n === 0xe00000n : v6Head(u.value) === 0xff02;
}

/** IsLinkLocalUnicast: 169.254.0.0/16 or fe80::/10. */
export function ipIsLinkLocalUnicast(ip: IPAddressValue): boolean {
  const u = unmapped(ip);
  if (!u.v4) return (v6Head(u.value) & 0xffc0) === 0xfe80;
  const [a, b] = v4Octets(u.value);
  return a === 169 && b === 254;
}

/** IsGlobalUnicast: none of the above, nor the IPv4 broadcast address. */
export function ipIsGlobalUnicast(ip: IPAddressValue): boolean {
  const u = unmapped(ip);
  if (u.value === 0n || (u.v4 && u.value === 0xffffffffn)) return false;
  return !ipIsLoopback(ip) && !ipIsMulticast(ip) && !ipIsLinkLocalUnicast(ip);
}
