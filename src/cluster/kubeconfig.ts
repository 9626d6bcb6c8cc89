// Writes the kubeconfig `drydock up` hands to kubectl and clients: context `drydock`,
// a bearer token, the HTTPS server URL with the real port, and the certificate to trust.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export function kubeconfigText(server: string, token: string, caPem: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'drydock', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: 'drydock', user: { token } }],
    contexts: [{ name: 'drydock', context: { cluster: 'drydock', user: 'drydock', namespace: 'default' } }],
    'current-context': 'drydock',
    preferences: {},
  });
}

export function writeKubeconfig(path: string, server: string, token: string, caPem: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, kubeconfigText(server, token, caPem), { mode: 0o600 });
}
