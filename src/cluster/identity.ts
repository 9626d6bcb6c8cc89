// The cluster's identity with --data-dir: the bearer token and the serving certificate a kubeconfig
// names, kept beside the store, so a restarted server (same port) takes its clients back unchanged,
// as a real API server keeps its certificates and tokens across restarts.
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServingCertificate } from './certificate.ts';

export interface ClusterIdentity {
  token: string;
  /** The serving certificate and the hosts it was made for. */
  serving?: ServingCertificate & { hosts: string[] };
  /** The key service account tokens are signed with, so tokens issued before a restart stay good. */
  serviceAccountKey?: string;
}

const fileName = 'identity.json';

/** The identity a data directory holds, or undefined when it has none or the file is not one. */
export function readIdentity(dataDir: string): ClusterIdentity | undefined {
  const path = join(dataDir, fileName);
  if (!existsSync(path)) return undefined;
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<ClusterIdentity>;
    if (typeof value.token !== 'string' || !value.token) return undefined;
    const s = value.serving;
    const serving = s && typeof s.certPem === 'string' && typeof s.keyPem === 'string' && Array.isArray(s.hosts) ? { certPem: s.certPem, keyPem: s.keyPem, hosts: s.hosts.map(String) } : undefined;
    const identity: ClusterIdentity = serving ? { token: value.token, serving } : { token: value.token };
    if (typeof value.serviceAccountKey === 'string') identity.serviceAccountKey = value.serviceAccountKey;
    return identity;
  } catch {
    return undefined;
  }
}

/** Writes the identity readable by its owner only; a crash mid-write leaves the old file. */
export function writeIdentity(dataDir: string, identity: ClusterIdentity): void {
  const path = join(dataDir, fileName);
  writeFileSync(`${path}.tmp`, JSON.stringify(identity), { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** The kept certificate when it was made for exactly these hosts (a new --host needs a new one). */
export function servingFor(identity: ClusterIdentity | undefined, hosts: readonly string[]): ServingCertificate | undefined {
  const kept = identity?.serving;
  if (!kept || kept.hosts.length !== hosts.length || !hosts.every((h) => kept.hosts.includes(h))) return undefined;
  // One made before it also signed client certificates (serverAuth only) is replaced.
  if (!clientAuthAllowed(kept.certPem)) return undefined;
  return { certPem: kept.certPem, keyPem: kept.keyPem };
}

function clientAuthAllowed(certPem: string): boolean {
  try {
    return new X509Certificate(certPem).keyUsage?.includes('1.3.6.1.5.5.7.3.2') ?? false;
  } catch {
    return false;
  }
}
