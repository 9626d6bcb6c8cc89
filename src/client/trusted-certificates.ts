// What outbound TLS trusts when a request names no CA: Node's bundled roots and the certificates of
// NODE_EXTRA_CA_CERTS. Node 20 parses that file, with every bundled root, when a process starts,
// whatever it runs (~50 ms here); the `drydock` executable's shell line therefore hands the variable
// over as DRYDOCK_EXTRA_CA_CERTS, and the file is read here on the first call that needs it
// (a webhook with no caBundle, as upstream's "system trust roots").
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

let trusted: { file: string; certificates: string[] } | undefined;

/** `ca` for a request that names none: undefined (Node's own trust) unless the executable deferred NODE_EXTRA_CA_CERTS. */
export function defaultTrustedCertificates(warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string[] | undefined {
  const file = process.env.DRYDOCK_EXTRA_CA_CERTS;
  if (!file) return undefined;
  if (trusted?.file !== file) trusted = { file, certificates: [...rootCertificates, ...extraCertificates(file, warn)] };
  return trusted.certificates;
}

function extraCertificates(file: string, warn: (line: string) => void): string[] {
  try {
    return [readFileSync(file, 'utf8')];
  } catch (error) {
    // Node's own words when it cannot load the file at start; it then goes on without it.
    warn(`Warning: Ignoring extra certs from \`${file}\`, load failed: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}
