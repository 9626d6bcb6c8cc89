// PKCS#10 certificate requests as the CSR API reads them: the PEM block, the DER structure (a
// small reader, enough for this one shape), the subject's common name and organizations, the
// subjectAltNames asked for, the public key, and the self-signature check.
// Upstream: pkg/apis/certificates/helpers.go (ParseCSR), Go's crypto/x509 (CheckSignature).
import { createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { derChildren as children, formatIP, lookupTable, oidText, readTlv } from '../../../core/index.ts';

const signatureHashes: Readonly<Record<string, string | null>> = lookupTable({
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.3.101.112': null,
});

export interface CertificateRequest {
  /** The subject Name, DER, as a certificate copies it. */
  subject: Buffer;
  commonName: string;
  organizations: string[];
  /** SubjectPublicKeyInfo, DER. */
  publicKeyInfo: Buffer;
  publicKey: KeyObject;
  /** CheckSignature: undefined when the request's signature verifies, else Go's error text. */
  signatureError: string | undefined;
  /** The subjectAltNames asked for (the extensionRequest attribute), by kind. */
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** The subjectAltName extension's value, DER, as an issued certificate copies it. */
  subjectAltName?: Buffer;
}

interface AltNames {
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  subjectAltName?: Buffer;
}

/** The extensionRequest attribute's subjectAltName: GeneralNames by tag ([1] email, [2] DNS, [6] URI, [7] IP). */
function requestedAltNames(attributes: Buffer | undefined): AltNames {
  const names: AltNames = { dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };
  for (const attribute of attributes ? children(attributes) : []) {
    const [type, values] = children(attribute.content);
    if (!type || !values || oidText(type.content) !== '1.2.840.113549.1.9.14') continue;
    for (const extensions of children(values.content)) {
      for (const extension of children(extensions.content)) {
        const parts = children(extension.content);
        const id = parts[0];
        const value = parts[parts.length - 1];
        if (!id || !value || oidText(id.content) !== '2.5.29.17') continue;
        names.subjectAltName = value.content;
        for (const name of children(readTlv(value.content, 0).content)) {
          if (name.tag === 0x82) names.dnsNames.push(name.content.toString('ascii'));
          else if (name.tag === 0x81) names.emailAddresses.push(name.content.toString('ascii'));
          else if (name.tag === 0x86) names.uris.push(name.content.toString('ascii'));
          else if (name.tag === 0x87) names.ipAddresses.push(formatIP(name.content.length === 4 ? 4 : 6, BigInt(`0x${name.content.toString('hex') || '0'}`)));
        }
      }
    }
  }
  return names;
}

function subjectAttributes(subject: Buffer): { commonName: string; organizations: string[] } {
  let commonName = '';
  const organizations: string[] = [];
  for (const rdn of children(subject)) {
    for (const attribute of children(rdn.content)) {
      const [type, value] = children(attribute.content);
      if (!type || !value) continue;
      const id = oidText(type.content);
      if (id === '2.5.4.3') commonName = value.content.toString('utf8');
      if (id === '2.5.4.10') organizations.push(value.content.toString('utf8'));
    }
  }
  return { commonName, organizations };
}

/** ParseCSR: a base64-decoded spec.request, PEM with one CERTIFICATE REQUEST block. */
export function parseCertificateRequest(pem: string): CertificateRequest | { error: string } {
  const match = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)\r?\n?-----END \1-----/.exec(pem);
  if (!match || match[1] !== 'CERTIFICATE REQUEST') return { error: 'PEM block type must be CERTIFICATE REQUEST' };
  try {
    const der = Buffer.from((match[2] ?? '').replace(/\s+/g, ''), 'base64');
    const [info, algorithm, signature] = children(readTlv(der, 0).content);
    if (!info || !algorithm || !signature) throw new Error('asn1: structure error: too few elements');
    const [, subject, publicKeyInfo, attributes] = children(info.content);
    if (!subject || !publicKeyInfo) throw new Error('asn1: structure error: too few elements');
    const publicKey = createPublicKey({ key: publicKeyInfo.raw, format: 'der', type: 'spki' });
    const [algorithmId] = children(algorithm.content);
    const hash = algorithmId ? signatureHashes[oidText(algorithmId.content)] : undefined;
    let signatureError: string | undefined;
    if (hash === undefined) signatureError = 'x509: cannot verify signature: algorithm unimplemented';
    else {
      // BIT STRING: the first content byte counts unused bits.
      const ok = verify(hash, info.raw, publicKey, signature.content.subarray(1));
      if (!ok) signatureError = publicKey.asymmetricKeyType === 'rsa' ? 'crypto/rsa: verification error' : 'x509: ECDSA verification failure';
    }
    const altNames = requestedAltNames(attributes?.tag === 0xa0 ? attributes.content : undefined);
    return { subject: subject.raw, ...subjectAttributes(subject.content), publicKeyInfo: publicKeyInfo.raw, publicKey, signatureError, ...altNames };
  } catch (error) {
    return { error: error instanceof Error && error.message.startsWith('asn1:') ? error.message : `x509: ${error instanceof Error ? error.message : String(error)}` };
  }
}
