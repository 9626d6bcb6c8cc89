// Writes the kubeconfig `drydock up` hands to kubectl and clients: context `drydock`,
// a bearer token, and the server URL with the real port.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export function kubeconfigText(server: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'drydock', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'drydock', user: { token } }],
    contexts: [{ name: 'drydock', context: { cluster: 'drydock', user: 'drydock', namespace: 'default' } }],
    'current-context': 'drydock',
    preferences: {},
  });
}

export function writeKubeconfig(path: string, server: string, token: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, kubeconfigText(server, token), { mode: 0o600 });
}
