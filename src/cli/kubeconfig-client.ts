// Builds an HttpClient from a kubeconfig's current context (server, bearer token, CA), for commands
// that talk to a running cluster: `drydock node ...`. Supports what `drydock up` writes plus the
// common file-reference forms (certificate-authority, tokenFile, insecure-skip-tls-verify).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { HttpClient } from '../client/index.ts';
import { UsageError } from './usage.ts';

interface Named<T> {
  name?: string;
  [key: string]: unknown;
  value?: T;
}

function entry(list: unknown, key: string, name: string | undefined): Record<string, unknown> | undefined {
  if (!Array.isArray(list)) return undefined;
  const found = (list as Named<unknown>[]).find((e) => e && e.name === name);
  const inner = found?.[key];
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function clientFromKubeconfig(path: string | undefined): { client: HttpClient; server: string; ca: string | undefined } {
  if (!path) throw new UsageError('no kubeconfig: pass --kubeconfig PATH or set KUBECONFIG');
  // KUBECONFIG may list several files; the first one names the cluster we talk to.
  const file = resolve(path.split(':')[0] ?? path);
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--kubeconfig: cannot read ${file}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  if (typeof raw !== 'object' || raw === null) throw new UsageError(`--kubeconfig: ${file} is not a kubeconfig`);
  const config = raw as Record<string, unknown>;
  const contextName = str(config['current-context']);
  const context = entry(config.contexts, 'context', contextName);
  if (!context) throw new UsageError(`--kubeconfig: ${file} has no current context`);
  const cluster = entry(config.clusters, 'cluster', str(context.cluster));
  const user = entry(config.users, 'user', str(context.user)) ?? {};
  const server = str(cluster?.server);
  if (!cluster || !server) throw new UsageError(`--kubeconfig: context ${JSON.stringify(contextName)} in ${file} names no cluster server`);
  const base = dirname(file);
  const caData = str(cluster['certificate-authority-data']);
  const caFile = str(cluster['certificate-authority']);
  const ca = caData ? Buffer.from(caData, 'base64').toString('utf8') : caFile ? readFileSync(resolve(base, caFile), 'utf8') : undefined;
  const tokenFile = str(user.tokenFile);
  const token = str(user.token) ?? (tokenFile ? readFileSync(resolve(base, tokenFile), 'utf8').trim() : undefined);
  const client = new HttpClient({
    server,
    ...(token ? { token } : {}),
    ...(ca ? { ca } : {}),
    ...(cluster['insecure-skip-tls-verify'] === true ? { insecure: true } : {}),
  });
  return { client, server, ca };
}
