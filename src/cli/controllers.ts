// `drydock controllers --kubeconfig FILE [--only a,b]`: runs Drydock's controllers as plain API
// clients against any cluster (Drydock or a real one) until SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { controllerProgram, controllerRegistry } from '../cluster/index.ts';
import { SharedInformers, kubernetesUserAgent } from '../client/index.ts';
import type { RunnableController } from '../cluster/index.ts';
import { CryptoRandom, RealClock } from '../core/index.ts';
import { clientFromKubeconfig } from './kubeconfig-client.ts';
import { UsageError } from './usage.ts';

export const controllersUsage = `usage: drydock controllers [--kubeconfig PATH] [--only NAME,NAME]

controllers: ${Object.keys(controllerRegistry).join(', ')}`;

export async function controllers(args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { kubeconfig: { type: 'string' }, only: { type: 'string' }, help: { type: 'boolean' } }, strict: true }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${controllersUsage}\n`);
    return;
  }
  const names = values.only ? values.only.split(',').map((n) => n.trim()).filter(Boolean) : Object.keys(controllerRegistry);
  const unknown = names.filter((n) => !controllerRegistry[n]);
  if (unknown.length > 0) throw new UsageError(`--only: unknown controller ${unknown.map((n) => JSON.stringify(n)).join(', ')} (controllers: ${Object.keys(controllerRegistry).join(', ')})`);
  const { client, server, ca } = clientFromKubeconfig(values.kubeconfig ?? process.env.KUBECONFIG);
  const deps = { client, clock: new RealClock(), random: new CryptoRandom(), log: (line: string) => process.stderr.write(`${line}\n`), rootCA: ca };
  const running: RunnableController[] = [];
  // One set of informers per program, as each upstream binary shares its own.
  const informers = new Map<string, SharedInformers>();
  for (const name of names) {
    // Each writes as its upstream program does, so a real cluster's managedFields name it as they would.
    const program = controllerProgram(name);
    if (!informers.has(program)) informers.set(program, new SharedInformers());
    const controller = controllerRegistry[name]?.({ ...deps, client: client.withUserAgent(kubernetesUserAgent(program, 'v1.35.0')), informers: informers.get(program) as SharedInformers });
    if (!controller) continue;
    await controller.start();
    running.push(controller);
  }
  process.stdout.write(`drydock controllers running against ${server}: ${names.join(', ')}\n`);
  const stop = (): void => {
    void Promise.all(running.reverse().map((c) => c.stop())).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
