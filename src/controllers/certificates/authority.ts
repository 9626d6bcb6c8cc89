// The cluster signing authority kube-controller-manager signs approved requests with
// (--cluster-signing-cert-file/--cluster-signing-key-file): a certificate for the requester's
// subject and key, with the requested usages, backdated five minutes, never outliving the CA.
// Upstream: pkg/controller/certificates/authority/{authority.go,policies.go}.
import { createPrivateKey, sign, X509Certificate } from 'node:crypto';
import type { CertificateRequest } from '../../api/index.ts';
import { bitString, derChildren, explicit, extension, integer, lookupTable, oid, pemBlock, readTlv, sequence, tlv, utcTime } from '../../core/index.ts';

export interface SigningAuthority {
  certPem: string;
  keyPem: string;
}

const backdateMs = 5 * 60_000;

/** KeyUsage bits, numbered as in RFC 5280 (digitalSignature is bit 0). */
const keyUsageBits: Readonly<Record<string, number>> = lookupTable({
  'digital signature': 0, 'content commitment': 1, 'key encipherment': 2, 'data encipherment': 3, 'key agreement': 4,
  'cert sign': 5, 'crl sign': 6, 'encipher only': 7, 'decipher only': 8,
});
const extendedUsages: Readonly<Record<string, string>> = lookupTable({
  'any': '2.5.29.37.0', 'server auth': '1.3.6.1.5.5.7.3.1', 'client auth': '1.3.6.1.5.5.7.3.2', 'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4', 's/mime': '1.3.6.1.5.5.7.3.4', 'ipsec end system': '1.3.6.1.5.5.7.3.5', 'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7', 'timestamping': '1.3.6.1.5.5.7.3.8', 'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3', 'netscape sgc': '2.16.840.1.113730.4.1',
});

/** A DER BIT STRING of the set bits, trailing zero bits counted as unused, as Go's asn1 writes it. */
function keyUsageValue(bits: readonly number[]): Buffer {
  const top = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(top / 8) + 1);
  for (const bit of bits) bytes[Math.floor(bit / 8)]! |= 0x80 >> bit % 8;
  const unused = 7 - (top % 8);
  return tlv(0x03, Buffer.from([unused]), bytes);
}

/** The CA certificate's subject Name, DER (the issuer of what it signs). */
function subjectOf(certPem: string): Buffer {
  const der = new X509Certificate(certPem).raw;
  const [tbs] = derChildren(readTlv(der, 0).content);
  const fields = derChildren(tbs?.content ?? Buffer.alloc(0));
  // [0] version, serial, signature algorithm, issuer, validity, subject
  const subject = fields[0]?.tag === 0xa0 ? fields[5] : fields[4];
  if (!subject) throw new Error('x509: malformed CA certificate');
  return subject.raw;
}

/** Signs `request`: returns the issued certificate's PEM. */
export function issueCertificate(ca: SigningAuthority, request: CertificateRequest, usages: readonly string[], ttlMs: number, nowMs: number, serial: Buffer): string {
  const caCert = new X509Certificate(ca.certPem);
  const notBefore = nowMs - backdateMs;
  const notAfter = Math.min(nowMs + ttlMs, Date.parse(caCert.validTo));
  const bits = usages.map((u) => keyUsageBits[u]).filter((b): b is number => b !== undefined);
  const ekus = usages.map((u) => extendedUsages[u]).filter((o): o is string => o !== undefined);
  const extensions = [
    ...(bits.length ? [extension('2.5.29.15', true, keyUsageValue(bits))] : []),
    ...(ekus.length ? [extension('2.5.29.37', false, sequence(...ekus.map(oid)))] : []),
    extension('2.5.29.19', true, sequence()),
    // The names the request asked for, as Go's CreateCertificate copies the request's DNSNames, IPs, emails and URIs.
    ...(request.subjectAltName ? [extension('2.5.29.17', false, request.subjectAltName)] : []),
  ];
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    subjectOf(ca.certPem),
    sequence(utcTime(notBefore), utcTime(notAfter)),
    request.subject,
    request.publicKeyInfo,
    explicit(3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, createPrivateKey(ca.keyPem));
  return pemBlock('CERTIFICATE', sequence(tbs, ecdsaWithSha256, bitString(signature)));
}
