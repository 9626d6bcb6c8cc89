// `drydock controllers --kubeconfig FILE [--only a,b] [--feature-gates A=true,B=false]`: runs Drydock's
// controllers as plain API clients against any cluster (Drydock or a real one) until SIGINT/SIGTERM.
// As kube-controller-manager, a controller whose feature gates are off does not start; the gates
// default to a Drydock cluster's.
import { parseArgs } from 'node:util';
import { defaultFeatureGates, isFeatureGate } from '../api/index.ts';
import type { FeatureGate, FeatureGates } from '../api/index.ts';
import { controllerGatesOff, controllerProgram, controllerRegistry } from '../cluster/index.ts';
import { SharedInformers, kubernetesUserAgent } from '../client/index.ts';
import type { RunnableController } from '../cluster/index.ts';
import { CryptoRandom, RealClock } from '../core/index.ts';
import { clientFromKubeconfig } from './kubeconfig-client.ts';
import { UsageError } from './usage.ts';

export const controllersUsage = `usage: drydock controllers [--kubeconfig PATH] [--only NAME,NAME] [--feature-gates NAME=true|false,...]

controllers: ${Object.keys(controllerRegistry).join(', ')}`;

export async function controllers(args: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { kubeconfig: { type: 'string' }, only: { type: 'string' }, 'feature-gates': { type: 'string' }, help: { type: 'boolean' } }, strict: true }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${controllersUsage}\n`);
    return;
  }
  const asked = values.only ? values.only.split(',').map((n) => n.trim()).filter(Boolean) : Object.keys(controllerRegistry);
  const unknown = asked.filter((n) => !controllerRegistry[n]);
  if (unknown.length > 0) throw new UsageError(`--only: unknown controller ${unknown.map((n) => JSON.stringify(n)).join(', ')} (controllers: ${Object.keys(controllerRegistry).join(', ')})`);
  const gates = featureGatesFlag(values['feature-gates']);
  const names = asked.filter((name) => {
    const off = controllerGatesOff(name, gates);
    // kube-controller-manager's words as it skips such a controller (controller_descriptor.go).
    if (off.length > 0) process.stderr.write(`Controller is disabled by a feature gate controller=${JSON.stringify(name)} requiredFeatureGates=${JSON.stringify(off)}\n`);
    return off.length === 0;
  });
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

/** strconv.ParseBool's spellings. */
const goBools: Readonly<Record<string, boolean>> = { 1: true, t: true, T: true, TRUE: true, true: true, True: true, 0: false, f: false, F: false, FALSE: false, false: false, False: false };

/**
 * kube's --feature-gates: comma-separated NAME=BOOL over Drydock's defaults, with component-base's errors.
 * Upstream: component-base/featuregate/feature_gate.go (Set, SetFromMap).
 */
function featureGatesFlag(flag: string | undefined): FeatureGates {
  const gates: Record<FeatureGate, boolean> = { ...defaultFeatureGates };
  for (const pair of (flag ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf('=');
    const name = (at < 0 ? pair : pair.slice(0, at)).trim();
    if (at < 0) throw new UsageError(`--feature-gates: missing bool value for ${name}`);
    const value = pair.slice(at + 1).trim();
    const enabled = goBools[value];
    if (enabled === undefined) throw new UsageError(`--feature-gates: invalid value of ${name}=${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
    if (!isFeatureGate(name)) throw new UsageError(`--feature-gates: unrecognized feature gate: ${name}`);
    gates[name] = enabled;
  }
  return gates;
}
