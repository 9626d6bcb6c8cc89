// A self-signed serving certificate for the API server (ECDSA P-256), built as DER by hand:
// kubectl sends bearer tokens only over TLS (kubernetes/kubectl#744), so `drydock up`
// serves HTTPS, and the kubeconfig trusts exactly this certificate. Generating it takes
// about a millisecond, where an X.509 library's import alone costs hundreds.
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...c: Buffer[]): Buffer => tlv(0x30, ...c);
const set = (...c: Buffer[]): Buffer => tlv(0x31, ...c);
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bitString = (b: Buffer): Buffer => tlv(0x03, Buffer.from([0]), b);
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, c: Buffer): Buffer => tlv(0xa0 + n, c);

/** A non-negative DER INTEGER: minimal, so leading zero bytes go (OpenSSL rejects them as "illegal padding"), and a 0x00 keeps the sign. */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.length === 0 ? Buffer.from([0]) : bytes.subarray(start);
  return tlv(0x02, (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function oid(text: string): Buffer {
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

function utcTime(ms: number): Buffer {
  const iso = new Date(ms).toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), octets(value));
}

function ipBytes(ip: string): Buffer | undefined {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return Buffer.from(ip.split('.').map(Number));
  if (ip === '::1') return Buffer.from([...new Array<number>(15).fill(0), 1]);
  return undefined;
}

export interface ServingCertificate {
  certPem: string;
  keyPem: string;
}

/** Valid for 10 years from `nowMs` (minus an hour of slack), for the given IPs and DNS names. */
export function createServingCertificate(options: { nowMs: number; serial: Buffer; hosts: readonly string[] }): ServingCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const name = sequence(set(sequence(oid('2.5.4.3'), utf8('drydock'))));
  const altNames = options.hosts.map((h) => {
    const ip = ipBytes(h);
    return ip ? tlv(0x87, ip) : tlv(0x82, Buffer.from(h, 'ascii'));
  });
  const extensions = sequence(
    extension('2.5.29.19', true, sequence(tlv(0x01, Buffer.from([0xff])))),
    // digitalSignature | keyCertSign
    extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x02, 0x84]))),
    extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))),
    extension('2.5.29.17', false, sequence(...altNames)),
  );
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(options.serial),
    ecdsaWithSha256,
    name,
    sequence(utcTime(options.nowMs - 3_600_000), utcTime(options.nowMs + 10 * 365 * 86_400_000)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, bitString(signature));
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').trimEnd()}\n-----END CERTIFICATE-----\n`;
  const keyPem = createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })).export({ type: 'pkcs8', format: 'pem' }).toString();
  return { certPem, keyPem };
}
