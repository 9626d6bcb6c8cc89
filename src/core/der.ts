// DER encoding and reading of the ASN.1 that X.509 certificates and requests are made of: enough to
// build a certificate and read a request by hand, which costs about a millisecond where an X.509
// library's import alone costs hundreds.
function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
export const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);
export const octets = (b: Buffer): Buffer => tlv(0x04, b);
export const bitString = (b: Buffer): Buffer => tlv(0x03, Buffer.from([0]), b);
export const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
export const explicit = (n: number, c: Buffer): Buffer => tlv(0xa0 + n, c);

/** A non-negative DER INTEGER: minimal, so leading zero bytes go (OpenSSL rejects them as "illegal padding"), and a 0x00 keeps the sign. */
export function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.length === 0 ? Buffer.from([0]) : bytes.subarray(start);
  return tlv(0x02, (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

export function oid(text: string): Buffer {
  const parts = text.split('.').map(Number);
  const out: number[] = [(parts[0] ?? 0) * 40 + (parts[1] ?? 0)];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [];
    let v = part;
    do {
      chunk.unshift((v & 0x7f) | (chunk.length ? 0x80 : 0));
      v = Math.floor(v / 128);
    } while (v > 0);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

export function utcTime(ms: number): Buffer {
  const iso = new Date(ms).toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

export function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), octets(value));
}

/** A PEM block of `der`, 64 characters a line. */
export function pemBlock(type: string, der: Buffer): string {
  return `-----BEGIN ${type}-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').trimEnd()}\n-----END ${type}-----\n`;
}

export interface Tlv {
  tag: number;
  /** The whole element, header included. */
  raw: Buffer;
  content: Buffer;
}

export function readTlv(buf: Buffer, at: number): Tlv {
  const tag = buf[at];
  let len = buf[at + 1];
  if (tag === undefined || len === undefined) throw new Error('asn1: syntax error: data truncated');
  let header = 2;
  if (len & 0x80) {
    const bytes = len & 0x7f;
    if (bytes === 0 || bytes > 4) throw new Error('asn1: syntax error: indefinite length found (not DER)');
    len = 0;
    for (let i = 0; i < bytes; i++) len = len * 256 + (buf[at + 2 + i] ?? 0);
    header += bytes;
  }
  if (at + header + len > buf.length) throw new Error('asn1: syntax error: data truncated');
  return { tag, raw: buf.subarray(at, at + header + len), content: buf.subarray(at + header, at + header + len) };
}

export function derChildren(parent: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < parent.length; ) {
    const t = readTlv(parent, at);
    out.push(t);
    at += t.raw.length;
  }
  return out;
}

export function oidText(content: Buffer): string {
  const first = content[0] ?? 0;
  const parts = [Math.floor(first / 40), first % 40];
  let value = 0;
  for (const byte of content.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}
