// `drydock up`: starts a cluster, writes the kubeconfig, prints `export KUBECONFIG=...` and a
// line containing `ready` once the API serves and every node is Ready; stops on SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Cluster, ConfigError, KubeletVersionSkewError, SchedulerConfigError, defaultClusterConfig, parseClusterConfig } from '../cluster/index.ts';
import type { ClusterConfig } from '../cluster/index.ts';
import { UsageError } from './usage.ts';

const options = {
  config: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  kubeconfig: { type: 'string' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const upUsage = `usage: drydock up [--config FILE] [--port N] [--host H] [--kubeconfig PATH] [--data-dir DIR]

  --config FILE      cluster config (YAML, kind: Cluster); default: 2 cpu nodes and 2 nodes with 8 H100 GPUs each
  --port N           API server port (default 6443; 0 picks a free one)
  --host H           address to listen on (default 127.0.0.1)
  --kubeconfig PATH  where to write the kubeconfig (default ./.drydock/kubeconfig)
  --data-dir DIR     keep the cluster's state there across restarts (default: in memory)`;

export async function up(args: string[], startedAt: number): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values;
  if (values.help) {
    process.stdout.write(`${upUsage}\n`);
    return;
  }
  const port = values.port === undefined ? 6443 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port: must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  const config = loadConfig(values.config);
  const kubeconfigPath = resolve(values.kubeconfig ?? '.drydock/kubeconfig');
  const cluster = await Cluster.start({
    config,
    port,
    host: values.host ?? '127.0.0.1',
    kubeconfigPath,
    // The ready line means the API serves and the nodes are Ready; DRA slices and the controllers a
    // new pod does not need follow at once.
    driversInBackground: true,
    controllersAfterStart: true,
    ...(values['data-dir'] ? { dataDir: resolve(values['data-dir']) } : {}),
    log: (line) => process.stderr.write(`${line}\n`),
  }).catch((error: unknown) => {
    if (error instanceof KubeletVersionSkewError) throw new UsageError(error.message);
    // The scheduler reads its part of the config (and its plugins their args) when it starts.
    if (error instanceof SchedulerConfigError) throw new UsageError(`${values.config ?? 'config'}: ${error.message}`);
    throw error;
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`drydock: error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  // Before the ready line: whoever waits for it may signal at once (the build's warm-up does).
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(`export KUBECONFIG=${kubeconfigPath}\n`);
  const nodes = config.nodePools.reduce((n, p) => n + p.count, 0);
  process.stdout.write(`drydock ready: ${cluster.url} (Kubernetes ${config.kubernetesVersion}, ${nodes} nodes) in ${Math.round(performance.now() - startedAt)} ms\n`);
}

function loadConfig(path: string | undefined): ClusterConfig {
  if (path === undefined) return defaultClusterConfig();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--config: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return parseClusterConfig(text);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`${path}: ${error.message}`);
    throw error;
  }
}
