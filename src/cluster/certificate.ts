// A self-signed serving certificate for the API server (ECDSA P-256), built as DER by hand:
// kubectl sends bearer tokens only over TLS (kubernetes/kubectl#744), so `drydock up`
// serves HTTPS, and the kubeconfig trusts exactly this certificate. Generating it takes
// about a millisecond, where an X.509 library's import alone costs hundreds.
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { bitString, explicit, extension, integer, oid, pemBlock, sequence, set, tlv, utcTime, utf8 } from '../core/index.ts';

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
    // serverAuth, and clientAuth: as the CA of the client certificates CSRs are issued, its purposes must allow them.
    extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2'))),
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
  const certPem = pemBlock('CERTIFICATE', der);
  const keyPem = createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' })).export({ type: 'pkcs8', format: 'pem' }).toString();
  return { certPem, keyPem };
}
