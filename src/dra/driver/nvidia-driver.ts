// The simulated NVIDIA DRA driver's control-plane side: publishes each node's ResourceSlices and
// installs the chart's DeviceClasses through the API. Idempotent: it reconciles against what is
// stored, so a restart rewrites nothing that is already right.
// Upstream: k8s.io/dynamic-resource-allocation/resourceslice/resourceslicecontroller.go (what the
// NVIDIA kubelet plugin uses to publish).
import { compileDeviceSelector, refs } from '../../api/index.ts';
import type { Node, resourceV1 } from '../../api/index.ts';
import type { Clock, Timer } from '../../core/index.ts';
import { isApiError, nextTurn, prepareInSnapshot } from '../../core/index.ts';
import { Informer } from '../../client/index.ts';
import type { Client } from '../../client/index.ts';
import { nvidiaDriverName } from './nvidia-devices.ts';
import { nvidiaDeviceClasses, nvidiaResourceSlices } from './nvidia-slices.ts';
import type { NvidiaGpuConfig } from './nvidia-slices.ts';

export interface NvidiaDriverNode {
  readonly name: string;
  readonly gpus: NvidiaGpuConfig;
  /** The Node's uid, when known: node-local slices are owned by their Node, as upstream's publisher sets. */
  readonly uid?: string | undefined;
}

export interface NvidiaDriverOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  nodes: readonly NvidiaDriverNode[];
  /**
   * Publish the nodes' slices in the background instead of before returning, as a real driver
   * registers after its node is Ready (`drydock up` uses it; in-process tests wait).
   */
  background?: boolean;
  /**
   * The GPUs a registered Node exposes through DRA, if any. When given, the driver watches Nodes
   * and publishes the slices of every such Node as it appears (a node added at run time, as the
   * driver's kubelet plugin starts on it), and removes them when the Node goes.
   */
  gpusOfNode?: (node: Node) => NvidiaGpuConfig | undefined;
}

export interface RunningNvidiaDriver {
  readonly name: string;
  /** Publishes (or republishes) a node's slices, e.g. after `drydock node add`. */
  syncNode(node: NvidiaDriverNode): Promise<void>;
  /** Deletes a node's slices (the node is gone). */
  removeNode(name: string): Promise<void>;
  stop(): void;
}

const retryMs = 1000;

// The executable's startup snapshot keeps what its build compiled: the chart's DeviceClass selectors,
// which `drydock up` would otherwise compile (and build CEL's environment for) as it installs them.
prepareInSnapshot(() => {
  for (const deviceClass of nvidiaDeviceClasses()) for (const selector of deviceClass.spec.selectors ?? []) if (selector.cel) compileDeviceSelector(selector.cel.expression);
});

type Slice = resourceV1.ResourceSlice;

const sameSpec = (a: resourceV1.ResourceSliceSpec, b: resourceV1.ResourceSliceSpec): boolean =>
  JSON.stringify({ ...a, pool: { ...a.pool, generation: 0 } }) === JSON.stringify({ ...b, pool: { ...b.pool, generation: 0 } });

async function ensureClasses(client: Client): Promise<void> {
  for (const cls of nvidiaDeviceClasses()) {
    try {
      await client.create(refs.deviceClasses, cls);
    } catch (e) {
      // Installed already (by us or the user): leave it as it is, as `helm install` would not run twice.
      if (!(isApiError(e) && e.reason === 'AlreadyExists')) throw e;
    }
  }
}

async function listNodeSlices(client: Client, node: string): Promise<Slice[]> {
  const list = await client.list<Slice>(refs.resourceSlices, { fieldSelector: `spec.driver=${nvidiaDriverName},spec.nodeName=${node}` });
  return list.items;
}

/**
 * Reconciles one node's pool as the kubelet plugin's slice controller does (syncPool): a pool that
 * needs a new slice, or more than one slice written, is published at a new generation, every slice,
 * so the allocator never mixes old and new; a single changed slice (someone edited it) is written
 * back at the current one. Slices of an older generation count as missing; extras are deleted.
 */
async function publishNode(client: Client, node: NvidiaDriverNode): Promise<void> {
  const existing = await listNodeSlices(client, node.name);
  const byName = new Map(existing.map((s) => [s.metadata.name ?? '', s]));
  const owner = node.uid ? [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid, controller: true }] : undefined;
  const owned = (e: Slice): boolean => !owner || e.metadata.ownerReferences?.[0]?.uid === node.uid;
  const generation = Math.max(0, ...existing.map((s) => s.spec.pool.generation));
  const current = (name: string | undefined): Slice | undefined => {
    const e = byName.get(name ?? '');
    return e?.spec.pool.generation === generation ? e : undefined;
  };
  // A first publication is generation 1, which the slices are built for by default.
  const atCurrent = nvidiaResourceSlices(node.name, node.gpus, Math.max(generation, 1));
  const missing = atCurrent.filter((d) => current(d.metadata.name) === undefined).length;
  const changed = atCurrent.filter((d) => {
    const e = current(d.metadata.name);
    return e !== undefined && !sameSpec(e.spec, d.spec);
  }).length;
  const bumped = missing > 0 || changed > 1;
  const desired = bumped ? nvidiaResourceSlices(node.name, node.gpus, generation + 1) : atCurrent;
  const keep = new Set(desired.map((s) => s.metadata.name));
  const writes = desired.filter((d) => {
    const e = byName.get(d.metadata.name ?? '');
    return bumped || e === undefined || !sameSpec(e.spec, d.spec) || !owned(e);
  });
  const extras = existing.filter((s) => !keep.has(s.metadata.name));
  for (const slice of writes) {
    const live = byName.get(slice.metadata.name ?? '');
    const metadata = owner ? { ...(live ?? slice).metadata, ownerReferences: owner } : (live ?? slice).metadata;
    if (live) await client.update(refs.resourceSlices, { ...live, metadata, spec: slice.spec });
    else await client.create(refs.resourceSlices, { ...slice, metadata });
    // An in-process write resolves without leaving the event loop's turn, and a GPU's slice is ~30 KB
    // to validate and encode: yielding between slices lets the API serve its clients in between, as a
    // real driver's round trips would (kubectl's first request right after the ready line waited ~40 ms).
    await nextTurn();
  }
  for (const s of extras) await deleteQuietly(client, s.metadata.name ?? '');
}

/** The Node's uid if it can be read now; if not, the Node watch publishes with it later. */
async function nodeUid(client: Client, name: string): Promise<string | undefined> {
  try {
    return (await client.get<Node>(refs.nodes, undefined, name)).metadata.uid;
  } catch {
    return undefined;
  }
}

async function deleteQuietly(client: Client, name: string): Promise<void> {
  try {
    await client.delete(refs.resourceSlices, undefined, name);
  } catch (e) {
    if (!(isApiError(e) && e.reason === 'NotFound')) throw e;
  }
}

/**
 * Starts the driver for the given nodes: installs the DeviceClasses and publishes every node's
 * slices before resolving. Failures (API not ready, conflicts) are logged and retried.
 */
export async function startNvidiaDriver(options: NvidiaDriverOptions): Promise<RunningNvidiaDriver> {
  const { client, clock, log } = options;
  const timers = new Set<Timer>();
  let stopped = false;
  const attempt = async (what: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await fn();
    } catch (e) {
      if (stopped) return;
      log(`nvidia-dra-driver: ${what}: ${e instanceof Error ? e.message : String(e)}; retrying`);
      const timer = clock.after(retryMs, () => {
        timers.delete(timer);
        if (!stopped) void attempt(what, fn);
      });
      timers.add(timer);
    }
  };
  // The driver's chart (and its DeviceClasses) is installed where GPUs are exposed through DRA;
  // a device-plugin-only cluster has no class mapping nvidia.com/gpu.
  if (options.nodes.length > 0) await attempt('install device classes', () => ensureClasses(client));
  // One reconcile of a node at a time: the start-up pass and the Node watch both publish a
  // configured node, and two concurrent creates of the same slice would fail one of them.
  const chains = new Map<string, Promise<void>>();
  const serially = (name: string, fn: () => Promise<void>): Promise<void> => {
    const next = (chains.get(name) ?? Promise.resolve()).then(fn);
    chains.set(name, next);
    void next.finally(() => {
      if (chains.get(name) === next) chains.delete(name);
    });
    return next;
  };
  // Node name -> the Node uid its slices were last published for ('' before the Node registered).
  const published = new Map<string, string>();
  // Node name -> what was last published for it, to publish again when a slice of it is deleted.
  const publishedNodes = new Map<string, NvidiaDriverNode>();
  const publish = (node: NvidiaDriverNode): Promise<void> => {
    published.set(node.name, node.uid ?? '');
    publishedNodes.set(node.name, node);
    return serially(node.name, () => attempt(`publish slices of node ${node.name}`, () => publishNode(client, node)));
  };
  // The configured nodes registered before the driver starts, so their slices are owned at once.
  const publishAll = async (): Promise<void> => {
    for (const node of options.nodes) {
      const uid = options.gpusOfNode ? await nodeUid(client, node.name) : undefined;
      // In the background the Node watch may have published this node already, for this very Node.
      if (uid !== undefined && published.get(node.name) === uid) continue;
      await publish({ ...node, uid });
    }
  };
  if (options.background) void publishAll();
  else await publishAll();
  const syncNode = publish;
  const removeNode = (name: string): Promise<void> => {
    published.delete(name);
    publishedNodes.delete(name);
    return serially(name, () =>
      attempt(`remove slices of node ${name}`, async () => {
        for (const s of await listNodeSlices(client, name)) await deleteQuietly(client, s.metadata.name ?? '');
      }),
    );
  };
  const nodes = options.gpusOfNode ? watchNodes(options, published, syncNode, removeNode) : undefined;
  // The kubelet plugin's slice controller puts back what someone else changed in its pool. One
  // reconcile waiting per node is enough: the driver's own writes of a pool come in a burst.
  const waiting = new Set<string>();
  const republish = (name: string): void => {
    const node = publishedNodes.get(name);
    if (!node || !published.has(name) || waiting.has(name)) return;
    waiting.add(name);
    void serially(name, () => {
      waiting.delete(name);
      return attempt(`publish slices of node ${name}`, () => publishNode(client, node));
    });
  };
  const slices = options.gpusOfNode ? watchSliceChanges(options, republish) : undefined;
  return {
    name: 'nvidia-dra-driver',
    syncNode,
    removeNode,
    stop() {
      stopped = true;
      nodes?.stop();
      slices?.stop();
      for (const t of timers) t.cancel();
      timers.clear();
    },
  };
}

/**
 * Calls `touched` with the node of every updated or deleted slice of this driver: someone else's
 * edit is reverted, a deletion put back; the driver's own writes reconcile to nothing.
 */
function watchSliceChanges(options: NvidiaDriverOptions, touched: (node: string) => void): Informer<Slice> {
  const informer = new Informer<Slice>({ client: options.client, ref: refs.resourceSlices, fieldSelector: `spec.driver=${nvidiaDriverName}`, clock: options.clock, log: options.log });
  const seen = (slice: Slice): void => (slice.spec.nodeName ? touched(slice.spec.nodeName) : undefined);
  informer.addHandlers({ onUpdate: (_old, slice) => seen(slice), onDelete: seen });
  informer.start();
  return informer;
}

/**
 * Publishes for every registered Node with DRA GPUs that the start-up pass did not publish for
 * (nodes added at run time, or re-registered with a new uid), owned by the Node, and unpublishes
 * deleted Nodes: the kubelet plugin's life follows its node's.
 */
function watchNodes(
  options: NvidiaDriverOptions,
  published: Map<string, string>,
  syncNode: (node: NvidiaDriverNode) => Promise<void>,
  removeNode: (name: string) => Promise<void>,
): Informer<Node> {
  const informer = new Informer<Node>({ client: options.client, ref: refs.nodes, clock: options.clock, log: options.log });
  const seen = (node: Node): void => {
    const name = node.metadata.name ?? '';
    if (published.get(name) === node.metadata.uid) return;
    const gpus = options.gpusOfNode?.(node);
    if (!gpus) return;
    void syncNode({ name, gpus, uid: node.metadata.uid });
  };
  informer.addHandlers({
    onAdd: seen,
    onUpdate: (_old, node) => seen(node),
    onDelete: (node) => {
      const name = node.metadata.name ?? '';
      if (published.has(name)) void removeNode(name);
    },
  });
  informer.start();
  return informer;
}
