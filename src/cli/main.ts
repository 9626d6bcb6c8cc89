#!/usr/bin/env node
// The `drydock` command: dispatches to its subcommands.
import { startupSnapshot } from 'node:v8';
import { up } from './up.ts';
import { node } from './node.ts';
import { controllers } from './controllers.ts';
import { UsageError } from './usage.ts';

const usage = `usage: drydock <command> [flags]

commands:
  up [--config FILE] [--port N] [--host H] [--kubeconfig PATH] [--data-dir DIR]
      start a cluster (default: 2 cpu nodes and 2 nodes with 8 H100 GPUs each)
  node add --pool NAME [--count N] | node remove|fail|heal NODE [--kubeconfig PATH]
      change a running cluster's simulated nodes (see: drydock node help)
  controllers [--kubeconfig PATH] [--only a,b] [--feature-gates A=true,B=false]
      run Drydock's controllers against any cluster`;

async function main(argv: string[]): Promise<void> {
  const startedAt = performance.now();
  const [command, ...rest] = argv;
  switch (command) {
    case 'up':
      return up(rest, startedAt);
    case 'node':
      return node(rest);
    case 'controllers':
      return controllers(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(`${usage}\n`);
      return;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)} (try: drydock help)`);
  }
}

function run(argv: string[]): void {
  main(argv).catch((error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`drydock: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
      process.stderr.write(`drydock: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`drydock: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

// Built into the executable's startup snapshot (snapshot-builder.ts), the command runs when a
// process starts from it; its arguments then follow node's path in argv, with no script path.
if (startupSnapshot.isBuildingSnapshot()) startupSnapshot.setDeserializeMainFunction(() => run(process.argv.slice(1)));
else run(process.argv.slice(2));
