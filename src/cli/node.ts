// `drydock node add|remove|fail|heal`: change a running cluster's simulated nodes through its API.
// add/remove edit kube-system/drydock-node-pools and wait for the cluster to act; fail/heal set or
// clear the sim.drydock.dev/fail annotation on the Node (its kubelet then stops or resumes).
import { parseArgs } from 'node:util';
import { refs } from '../api/index.ts';
import type { Node } from '../api/index.ts';
import type { Client, ClientWatch } from '../client/index.ts';
import { addNodes, failAnnotation, isNodeUp, nodePoolsConfigMap, nodePoolsNamespace, parsePoolStates, poolOf, poolStatesData } from '../cluster/index.ts';
import type { PoolsConfigMap, PoolStates } from '../cluster/index.ts';
import { RealClock, isApiError } from '../core/index.ts';
import { clientFromKubeconfig } from './kubeconfig-client.ts';
import { UsageError } from './usage.ts';

export const nodeUsage = `usage: drydock node <add|remove|fail|heal> [flags]

  add --pool NAME [--count N]   add N (default 1) nodes to a pool, named after its next index
  remove NODE                   stop the node's kubelet and delete the Node
  fail NODE                     the node's kubelet stops renewing its lease and posting status
  heal NODE                     the node's kubelet resumes and reports Ready

flags:
  --kubeconfig PATH             the cluster to change (default: $KUBECONFIG)
  --timeout SECONDS             how long add/remove wait for the cluster (default 60)`;

const options = {
  kubeconfig: { type: 'string' },
  pool: { type: 'string' },
  count: { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** An API call failed or the cluster did not act in time: one line, exit code 1. */
class CommandFailed extends Error {}

const clock = new RealClock();

export async function node(args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const [verb, ...positionals] = parsed.positionals;
  const v = parsed.values;
  if (verb === undefined || verb === 'help') {
    process.stdout.write(`${nodeUsage}\n`);
    return;
  }
  const timeoutMs = seconds(v.timeout) * 1000;
  const connect = (): Client => clientFromKubeconfig(v.kubeconfig ?? process.env.KUBECONFIG).client;
  try {
    switch (verb) {
      case 'add': {
        if (positionals.length) throw new UsageError(`node add: unexpected argument ${JSON.stringify(positionals[0])}`);
        if (!v.pool) throw new UsageError('node add: --pool is required');
        const count = v.count === undefined ? 1 : Number(v.count);
        if (!Number.isInteger(count) || count < 1) throw new UsageError(`--count: must be a positive integer, got ${JSON.stringify(v.count)}`);
        return await add(connect(), v.pool, count, timeoutMs);
      }
      case 'remove':
      case 'fail':
      case 'heal': {
        if (v.pool !== undefined || v.count !== undefined) throw new UsageError(`node ${verb}: --pool and --count apply to node add only`);
        const name = onePositional(verb, positionals);
        const client = connect();
        if (verb === 'remove') return await remove(client, name, timeoutMs);
        return await setFailed(client, name, verb === 'fail');
      }
      default:
        throw new UsageError(`unknown node command ${JSON.stringify(verb)} (try: drydock node help)`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    process.stderr.write(`drydock: ${describe(error)}\n`);
    process.exitCode = 1;
  }
}

function seconds(text: string | undefined): number {
  if (text === undefined) return 60;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout: must be a positive number of seconds, got ${JSON.stringify(text)}`);
  return n;
}

function onePositional(verb: string, positionals: string[]): string {
  if (positionals.length === 0) throw new UsageError(`node ${verb}: a node name is required`);
  if (positionals.length > 1) throw new UsageError(`node ${verb}: one node at a time (got ${positionals.length})`);
  return positionals[0] ?? '';
}

function describe(error: unknown): string {
  if (isApiError(error)) return error.message;
  if (error instanceof Error) {
    const code = 'code' in error ? ` (${String(error.code)})` : '';
    return `${error.message}${code}`;
  }
  return String(error);
}

async function readPools(client: Client): Promise<{ cm: PoolsConfigMap; states: PoolStates }> {
  try {
    const cm = await client.get<PoolsConfigMap>(refs.configMaps, nodePoolsNamespace, nodePoolsConfigMap);
    return { cm, states: parsePoolStates(cm) };
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') {
      throw new CommandFailed(`configmaps "${nodePoolsConfigMap}" not found in namespace ${nodePoolsNamespace}: not a cluster started by drydock up`);
    }
    throw error;
  }
}

/** Read-modify-write of the pool states with the resourceVersion read; retried on conflict. */
async function updatePools<T>(client: Client, change: (states: PoolStates) => T): Promise<T> {
  for (;;) {
    const { cm, states } = await readPools(client);
    const result = change(states);
    try {
      await client.update(refs.configMaps, { ...cm, data: poolStatesData(states) });
      return result;
    } catch (error) {
      if (isApiError(error) && error.reason === 'Conflict') continue;
      throw error;
    }
  }
}

async function add(client: Client, pool: string, count: number, timeoutMs: number): Promise<void> {
  const added = await updatePools(client, (states) => {
    const state = states.get(pool);
    if (!state) throw new UsageError(`unknown pool ${JSON.stringify(pool)} (pools: ${[...states.keys()].join(', ') || 'none'})`);
    const next = addNodes(state, count);
    states.set(pool, next.state);
    return next.added;
  });
  for (const name of added) {
    await waitForNode(client, name, timeoutMs, `node/${name} to become Ready`, (n) => n !== undefined && isNodeUp(n));
    process.stdout.write(`node/${name} added\n`);
  }
}

async function remove(client: Client, name: string, timeoutMs: number): Promise<void> {
  await updatePools(client, (states) => {
    const pool = poolOf(states, name);
    if (!pool) throw new UsageError(`node ${JSON.stringify(name)} not found in any pool`);
    const state = states.get(pool);
    if (state) states.set(pool, { ...state, nodes: state.nodes.filter((n) => n !== name) });
  });
  await waitForNode(client, name, timeoutMs, `node/${name} to be deleted`, (n) => n === undefined);
  process.stdout.write(`node/${name} removed\n`);
}

async function setFailed(client: Client, name: string, failed: boolean): Promise<void> {
  const { states } = await readPools(client);
  if (!poolOf(states, name)) throw new UsageError(`node ${JSON.stringify(name)} not found in any pool`);
  try {
    await client.patch(refs.nodes, undefined, name, 'merge', { metadata: { annotations: { [failAnnotation]: failed ? 'true' : null } } });
  } catch (error) {
    if (isApiError(error) && error.reason === 'NotFound') throw new UsageError(`node ${JSON.stringify(name)} not found`);
    throw error;
  }
  process.stdout.write(`node/${name} ${failed ? 'failed' : 'healed'}\n`);
}

/**
 * Resolves once `done` holds for the node (undefined: it does not exist). Watches rather than polls:
 * the open watch is also what keeps this process alive while it waits.
 */
function waitForNode(client: Client, name: string, timeoutMs: number, what: string, done: (node: Node | undefined) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let watch: ClientWatch | undefined;
    let finished = false;
    const finish = (error?: Error): void => {
      if (finished) return;
      finished = true;
      timer.cancel();
      watch?.stop();
      if (error) reject(error);
      else resolve();
    };
    const timer = clock.after(timeoutMs, () => finish(new CommandFailed(`timed out waiting for ${what}`)));
    const listAndWatch = async (): Promise<void> => {
      const list = await client.list<Node>(refs.nodes, { fieldSelector: `metadata.name=${name}` });
      if (done(list.items[0])) return finish();
      if (finished) return;
      watch = client.watch<Node>(
        refs.nodes,
        { fieldSelector: `metadata.name=${name}`, ...(list.metadata.resourceVersion ? { resourceVersion: list.metadata.resourceVersion } : {}) },
        (event) => {
          if (event.type === 'ADDED' || event.type === 'MODIFIED') {
            if (done(event.object as Node)) finish();
          } else if (event.type === 'DELETED' && done(undefined)) finish();
        },
        () => {
          if (!finished) listAndWatch().catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
        },
      );
    };
    listAndWatch().catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
  });
}
