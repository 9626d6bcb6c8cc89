// The components a cluster runs (controllers, scheduler, kubelets), as an explicit list.
// Each is an ordinary API client: it gets the Client, the Clock and the Random, nothing else.
import type { UserInfo } from '../api/index.ts';
import { defaultServiceClusterIPRange } from '../api/index.ts';
import { createLocalClient } from '../apiserver/index.ts';
import type { Client } from '../client/index.ts';
import { SharedInformers, kubernetesUserAgent } from '../client/index.ts';
import type { Clock, Random } from '../core/index.ts';
import { nextTurn } from '../core/index.ts';
import type { Cluster } from './cluster.ts';
import { NamespaceController } from '../controllers/index.ts';
import { SimulatedNodes, poolLabel } from '../kubelet/index.ts';
import { NodeLifecycleController, PodGCController, TaintEvictionController } from '../controllers/index.ts';
import { NodePoolController } from './node-pool-controller.ts';
import { simulatedNodeFleet } from './node-fleet.ts';
import { Scheduler, dynamicResourcesFactory, inTreeRegistry } from '../scheduler/index.ts';
import { buildInventory, nodeSelectorMatches, resultDeviceIds, searchClaims, startNvidiaDriver } from '../dra/index.ts';
import type { NvidiaGpuConfig } from '../dra/index.ts';
import type { ClusterConfig } from './config.ts';
import { DaemonSetController, DeploymentController, EndpointSliceController, EndpointsController, GarbageCollector, ReplicaSetController, ReplicationManager, ResourceQuotaController, StatefulSetController, DisruptionController, CronJobController, RootCaCertPublisher, ServiceAccountsController, ClusterRoleAggregationController } from '../controllers/index.ts';
import { JobController, TtlAfterFinishedController } from '../controllers/index.ts';
import { EphemeralVolumeController, LocalPathProvisioner, PersistentVolumeController, PvProtectionController, PvcProtectionController } from '../controllers/index.ts';
import { CertificateSigner, CsrCleaner, DeviceTaintEvictionController, ResourceClaimController, ServiceCIDRsController, controllerGatesOff } from '../controllers/index.ts';
import { MetricsServer } from './metrics-server.ts';
import { Aggregator } from './aggregator.ts';
import { DefaultServiceCIDRController } from './default-service-cidr.ts';
import { IPAddressRepair } from './ip-address-repair.ts';
import { FlowcontrolBootstrap } from './flowcontrol-bootstrap.ts';
import { FlowcontrolStatus } from './flowcontrol-status.ts';
import { KubernetesServiceController } from './kubernetes-service.ts';
import { controllerUser, createControllerServiceAccounts } from './controller-service-accounts.ts';
import { ApiServerIdentityLease, startLeaderElection } from './control-plane-leases.ts';
import { VpaAdmission, VpaRecommender, VpaUpdater, programs } from '../controllers/index.ts';
import { HorizontalController } from '../controllers/index.ts';

export interface ComponentContext {
  cluster: Cluster;
  client: Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  /** Settles once every configured node is Ready (or the start failed). */
  nodesReady: Promise<void>;
}

export interface RunningComponent {
  readonly name: string;
  stop(): Promise<void> | void;
}

export interface RunningComponents {
  readonly running: readonly RunningComponent[];
  stop(): Promise<void>;
}

type ComponentFactory = (ctx: ComponentContext) => Promise<RunningComponent | RunningComponent[]>;

/** The GPUs a node of `pool` exposes through DRA (none for device-plugin pools and CPU pools). */
function draGpusOfPool(pools: ClusterConfig['nodePools'], pool: string | undefined): NvidiaGpuConfig | undefined {
  const gpus = pools.find((p) => p.name === pool)?.gpus;
  return gpus?.expose === 'dra' ? gpus : undefined;
}

/**
 * Starts a node-local driver once the nodes are Ready, as a real driver's kubelet plugin registers
 * after its node: its work (publishing ResourceSlices) then follows `drydock up`'s ready line
 * instead of delaying it.
 */
function afterNodesReady(ctx: ComponentContext, name: string, start: () => Promise<RunningComponent>): RunningComponent {
  let running: RunningComponent | undefined;
  let stopped = false;
  void ctx.nodesReady.then(async () => {
    if (stopped) return;
    running = await start();
    if (stopped) await running.stop();
  }, () => {}).catch((error: unknown) => {
    // A start cut short by the cluster stopping is no failure.
    if (!stopped) ctx.log(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return {
    name,
    stop: async () => {
      stopped = true;
      await running?.stop();
    },
  };
}

/**
 * The client of one program of a real cluster, identified as that program: its writes carry the
 * upstream field manager (`kubectl get -o yaml --show-managed-fields`, server-side apply conflicts).
 */
function clientOf(ctx: ComponentContext, program: string): Client {
  return ctx.client.withUserAgent(kubernetesUserAgent(program, ctx.cluster.config.kubernetesVersion));
}

/**
 * A program's client that authenticates as `user`, as its credentials make it in a cluster: admission
 * policies and webhooks see who writes.
 */
function clientAs(ctx: ComponentContext, program: string, user: UserInfo): Client {
  return createLocalClient(ctx.cluster.server, { userAgent: kubernetesUserAgent(program, ctx.cluster.config.kubernetesVersion), user });
}

const nodeUser = (node: string): UserInfo => ({ username: `system:node:${node}`, groups: ['system:nodes', 'system:authenticated'] });
const schedulerUser: UserInfo = { username: 'system:kube-scheduler', groups: ['system:authenticated'] };

/** The controllers kube-controller-manager runs share its identity. */
const controllerManager = (ctx: ComponentContext): Client => clientOf(ctx, programs.controllerManager);

const controllerManagerInformers = new WeakMap<ComponentContext, SharedInformers>();

/** kube-controller-manager's informers, shared by its controllers as that binary shares them. */
function kcmInformers(ctx: ComponentContext): SharedInformers {
  let informers = controllerManagerInformers.get(ctx);
  if (!informers) controllerManagerInformers.set(ctx, (informers = new SharedInformers()));
  return informers;
}

/**
 * What one of kube-controller-manager's controllers is built with: a client acting as the controller's
 * kube-system ServiceAccount (--use-service-account-credentials, as kubeadm runs it: admission policies
 * and webhooks see `system:serviceaccount:kube-system:replicaset-controller` create a Deployment's pods),
 * and the shared informers.
 */
function kcm(ctx: ComponentContext, serviceAccount: string): { client: Client; clock: Clock; log: (line: string) => void; informers: SharedInformers } {
  return { client: clientAs(ctx, programs.controllerManager, controllerUser(serviceAccount)), clock: ctx.clock, log: ctx.log, informers: kcmInformers(ctx) };
}

interface Startable {
  start(): void;
  stop(): void | Promise<void>;
}

function started(name: string, component: Startable): RunningComponent {
  component.start();
  return { name, stop: () => component.stop() };
}

/**
 * After the nodes are Ready, how long clients must have been silent before the next deferred controller
 * starts, and how long at most the controllers wait for that, ms. They start while a user's first
 * command after the ready line is still starting (kubectl takes ~100 ms), pause from its first
 * connection until it is done, and a client that never stops (one polling) holds them back a second
 * at most.
 */
const quietBeforeDeferredMs = 100;
const deferredLatestMs = 1000;

/** Per cluster, when the nodes became Ready (undefined: never). */
const readyTimes = new WeakMap<ComponentContext, Promise<number | undefined>>();

/** Once the nodes are Ready and clients are quiet (quietBeforeDeferredMs); false when the nodes never were. */
async function deferredStartDue(ctx: ComponentContext): Promise<boolean> {
  let readyAt = readyTimes.get(ctx);
  if (!readyAt) readyTimes.set(ctx, (readyAt = ctx.nodesReady.then(() => ctx.cluster.clientActivity.now(), () => undefined)));
  const at = await readyAt;
  if (at === undefined) return false;
  await ctx.cluster.clientActivity.quiet(quietBeforeDeferredMs, at + deferredLatestMs);
  return true;
}

/** Per cluster, settled once the last deferred controller queued so far started. */
const afterReadyChains = new WeakMap<ComponentContext, Promise<void>>();

/**
 * A controller that neither the ready line's promises (every node Ready; a pod created then is admitted,
 * scheduled and started) nor a user's first requests wait for. With the cluster's controllersAfterStart
 * (`drydock up`) it starts once every node is Ready, one such controller a turn in the registry's order,
 * each when clients are quiet (deferredStartDue): their informers' first lists then neither delay the
 * line nor hold the event loop from the first requests after it. Named in `running` from the start, as
 * its process would be.
 */
function startedOnceReady(ctx: ComponentContext, name: string, make: () => Startable): RunningComponent {
  if (!ctx.cluster.controllersAfterStart) return started(name, make());
  let component: Startable | undefined;
  let stopped = false;
  afterReadyChains.set(ctx, (afterReadyChains.get(ctx) ?? Promise.resolve()).then(async () => {
    if (!(await deferredStartDue(ctx))) return;
    await nextTurn();
    try {
      if (!stopped) (component = make()).start();
    } catch (error) {
      ctx.log(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }));
  return {
    name,
    stop: async () => {
      stopped = true;
      await component?.stop();
    },
  };
}

const controllerStartDelayMs = 1000;

// The registry: the order components start in (and stop in reverse).
const factories: ComponentFactory[] = [
  async (ctx) => {
    const nodes = await SimulatedNodes.start({ client: clientOf(ctx, 'kubelet'), clientForNode: (node) => clientAs(ctx, 'kubelet', nodeUser(node)), clock: ctx.clock, random: ctx.random, log: ctx.log, pools: ctx.cluster.config.nodePools, serverVersion: ctx.cluster.config.kubernetesVersion, podLogs: ctx.cluster.podLogs, featureGates: ctx.cluster.config.featureGates });
    // The node-pool controller starts and stops kubelets as `drydock node add|remove|fail|heal` ask.
    const pools = new NodePoolController({ client: ctx.client, clock: ctx.clock, log: ctx.log, pools: ctx.cluster.config.nodePools, fleet: simulatedNodeFleet(nodes) });
    await pools.start();
    return [{ name: 'kubelets', stop: () => nodes.stop() }, { name: 'node-pools', stop: () => pools.stop() }];
  },
  // Next to the kubelets: the ready line waits for it to lift TaintNodesByCondition's not-ready taint.
  async (ctx) => started('node-lifecycle-controller', new NodeLifecycleController(kcm(ctx, 'node-controller'))),
  async (ctx) => { const m = new MetricsServer({ client: clientOf(ctx, 'metrics-server'), clock: ctx.clock, log: ctx.log, kubelets: ctx.cluster.podLogs }); await m.start(); for (const r of m.resources()) ctx.cluster.server.delegate(r); return { name: 'metrics-server', stop: () => m.stop() }; },
  // After the metrics server, so that metrics.k8s.io is served when the built-in APIServices are registered.
  // Its Service and EndpointSlice caches are the controller manager's: one copy of each object in this process.
  async (ctx) => { const a = new Aggregator({ client: clientOf(ctx, 'kube-apiserver'), clock: ctx.clock, log: ctx.log, informers: kcmInformers(ctx) }); await a.start(); return { name: 'kube-aggregator', stop: () => a.stop() }; },
  async (ctx) => started('kubernetes-service-cidr-controller', new DefaultServiceCIDRController({ client: clientOf(ctx, 'kube-apiserver'), clock: ctx.clock, log: ctx.log, cidrs: [defaultServiceClusterIPRange], informers: kcmInformers(ctx) })),
  // These fill in what the ready line need not wait for (the bootstrap made the kubernetes Service),
  // once the nodes are Ready, so their writes stay off the start-up's path.
  async (ctx) => afterNodesReady(ctx, 'kubernetes-service-controller', async () => {
    const k = new KubernetesServiceController({ client: clientOf(ctx, 'kube-apiserver'), clock: ctx.clock, log: ctx.log });
    await k.start();
    return { name: 'kubernetes-service-controller', stop: () => k.stop() };
  }),
  async (ctx) => afterNodesReady(ctx, 'priority-and-fairness-config', async () => {
    const producer = new FlowcontrolBootstrap({ client: clientOf(ctx, 'kube-apiserver'), clock: ctx.clock, log: ctx.log, informers: kcmInformers(ctx) });
    await producer.start();
    const consumer = new FlowcontrolStatus({ client: clientOf(ctx, 'kube-apiserver'), clock: ctx.clock, log: ctx.log, informers: kcmInformers(ctx) });
    consumer.start();
    return { name: 'priority-and-fairness-config', stop: () => { producer.stop(); consumer.stop(); } };
  }),
  // A second after the nodes are Ready, as a controller manager starts its controllers once it leads:
  // its ~35 writes then stay out of the way of a user's first requests.
  async (ctx) => afterNodesReady(ctx, 'controller-service-accounts', async () => {
    let stopped = false;
    const timer = ctx.clock.after(controllerStartDelayMs, () => {
      createControllerServiceAccounts(controllerManager(ctx), ctx.cluster.config.featureGates).catch((error: unknown) => {
        // Writes cut short by the cluster stopping are no failure.
        if (!stopped) ctx.log(`controller-service-accounts: ${error instanceof Error ? error.message : String(error)}`);
      });
    });
    return { name: 'controller-service-accounts', stop: () => { stopped = true; timer.cancel(); } };
  }),
  async (ctx) => started('ip-address-repair', new IPAddressRepair({ client: clientOf(ctx, 'kube-apiserver'), clock: ctx.clock, log: ctx.log, informers: kcmInformers(ctx) })),
  async (ctx) => started('service-cidr-controller', new ServiceCIDRsController(kcm(ctx, 'service-cidrs-controller'))),
  async (ctx) => startedOnceReady(ctx, 'taint-eviction-controller', () => new TaintEvictionController(kcm(ctx, 'node-controller'))),
  async (ctx) => startedOnceReady(ctx, 'pod-garbage-collector', () => new PodGCController(kcm(ctx, 'pod-garbage-collector'))),
  async (ctx) => startedOnceReady(ctx, 'namespace-controller', () => new NamespaceController(kcm(ctx, 'namespace-controller'))),
  async (ctx) => started('serviceaccount-controller', new ServiceAccountsController(kcm(ctx, 'service-account-controller'))),
  async (ctx) => startedOnceReady(ctx, 'clusterrole-aggregation-controller', () => new ClusterRoleAggregationController(kcm(ctx, 'clusterrole-aggregation-controller'))),
  // The CA is the serving certificate's. A cluster that serves no HTTPS (in-process clients only) has
  // none, and publishes an empty bundle: every pod's kube-api-access volume needs the ConfigMap to mount.
  async (ctx) => started('root-ca-certificate-publisher-controller', new RootCaCertPublisher({ ...kcm(ctx, 'root-ca-cert-publisher'), rootCA: ctx.cluster.certificateAuthority })),
  async (ctx) => {
    const start = (): Promise<RunningComponent> => startNvidiaDriver({ client: clientOf(ctx, 'gpu-kubelet-plugin'), clock: ctx.clock, log: ctx.log, background: ctx.cluster.driversInBackground, gpusOfNode: (node) => draGpusOfPool(ctx.cluster.config.nodePools, node.metadata.labels?.[poolLabel]), nodes: ctx.cluster.config.nodePools.flatMap((p) => { const gpus = p.gpus; return gpus?.expose === 'dra' ? Array.from({ length: p.count }, (_, i) => ({ name: `${p.name}-${i}`, gpus })) : []; }) });
    return ctx.cluster.driversInBackground ? afterNodesReady(ctx, 'nvidia-dra-driver', start) : start();
  },
  // csrsigning signs with the cluster CA (the serving certificate's key): none without HTTPS.
  async (ctx) => { const authority = ctx.cluster.signingAuthority; return authority ? startedOnceReady(ctx, 'certificatesigningrequest-signing-controller', () => new CertificateSigner({ ...kcm(ctx, 'certificate-controller'), random: ctx.random, authority })) : []; },
  async (ctx) => startedOnceReady(ctx, 'certificatesigningrequest-cleaner-controller', () => new CsrCleaner(kcm(ctx, 'certificate-controller'))),
  async (ctx) => startedOnceReady(ctx, 'persistentvolume-controller', () => new PersistentVolumeController(kcm(ctx, 'persistent-volume-binder'))),
  async (ctx) => startedOnceReady(ctx, 'local-path-provisioner', () => new LocalPathProvisioner({ client: clientOf(ctx, 'local-path-provisioner'), clock: ctx.clock, log: ctx.log })),
  async (ctx) => startedOnceReady(ctx, 'pvc-protection-controller', () => new PvcProtectionController(kcm(ctx, 'pvc-protection-controller'))),
  async (ctx) => startedOnceReady(ctx, 'pv-protection-controller', () => new PvProtectionController(kcm(ctx, 'pv-protection-controller'))),
  async (ctx) => startedOnceReady(ctx, 'ephemeral-volume-controller', () => new EphemeralVolumeController(kcm(ctx, 'ephemeral-volume-controller'))),
  async (ctx) => { const lease = new ApiServerIdentityLease({ client: clientOf(ctx, 'kube-apiserver'), clock: ctx.clock, random: ctx.random, log: ctx.log }); await lease.start(); return { name: 'apiserver-identity-lease', stop: () => lease.stop() }; },
  async (ctx) => { const e = await startLeaderElection({ client: clientAs(ctx, 'kube-scheduler', schedulerUser), clock: ctx.clock, random: ctx.random, log: ctx.log, lease: 'kube-scheduler', eventSource: 'default-scheduler' }); return { name: 'kube-scheduler-leader-election', stop: () => e.stop() }; },
  async (ctx) => { const e = await startLeaderElection({ client: controllerManager(ctx), clock: ctx.clock, random: ctx.random, log: ctx.log, lease: 'kube-controller-manager', eventSource: 'kube-controller-manager' }); return { name: 'kube-controller-manager-leader-election', stop: () => e.stop() }; },
  async (ctx) => started('scheduler', new Scheduler({ client: clientAs(ctx, 'kube-scheduler', schedulerUser), clock: ctx.clock, random: ctx.random, log: ctx.log, config: ctx.cluster.config.scheduler, featureGates: ctx.cluster.config.featureGates, registry: { ...inTreeRegistry, DynamicResources: dynamicResourcesFactory({ buildInventory, nodeSelectorMatches, resultDeviceIds, searchClaims }, { elapsedMs: ctx.cluster.elapsedMs }) } })),
  async (ctx) => startedOnceReady(ctx, 'garbage-collector', () => new GarbageCollector(kcm(ctx, 'generic-garbage-collector'))),
  async (ctx) => startedOnceReady(ctx, 'replicaset-controller', () => new ReplicaSetController(kcm(ctx, 'replicaset-controller'))),
  async (ctx) => startedOnceReady(ctx, 'replicationcontroller-controller', () => new ReplicationManager(kcm(ctx, 'replication-controller'))),
  async (ctx) => startedOnceReady(ctx, 'deployment-controller', () => new DeploymentController(kcm(ctx, 'deployment-controller'))),
  async (ctx) => startedOnceReady(ctx, 'daemonset-controller', () => new DaemonSetController(kcm(ctx, 'daemon-set-controller'))),
  async (ctx) => startedOnceReady(ctx, 'statefulset-controller', () => new StatefulSetController(kcm(ctx, 'statefulset-controller'))),
  async (ctx) => startedOnceReady(ctx, 'endpoints-controller', () => new EndpointsController(kcm(ctx, 'endpoint-controller'))),
  async (ctx) => startedOnceReady(ctx, 'endpointslice-controller', () => new EndpointSliceController(kcm(ctx, 'endpointslice-controller'))),
  async (ctx) => startedOnceReady(ctx, 'resourcequota-controller', () => new ResourceQuotaController(kcm(ctx, 'resourcequota-controller'))),
  async (ctx) => startedOnceReady(ctx, 'disruption-controller', () => new DisruptionController(kcm(ctx, 'disruption-controller'))),
  async (ctx) => startedOnceReady(ctx, 'cronjob-controller', () => new CronJobController(kcm(ctx, 'cronjob-controller'))),
  async (ctx) => { const a = new VpaAdmission({ client: clientOf(ctx, programs.vpaAdmissionController), clock: ctx.clock, log: ctx.log }); await a.start(); const off = ctx.cluster.podWebhooks.register('vpa', (pod) => a.admit(pod)); return [{ name: 'vpa-admission-controller', stop: () => { off(); a.stop(); } }, startedOnceReady(ctx, 'vpa-recommender', () => new VpaRecommender({ client: clientOf(ctx, programs.vpaRecommender), clock: ctx.clock, log: ctx.log })), startedOnceReady(ctx, 'vpa-updater', () => new VpaUpdater({ client: clientOf(ctx, programs.vpaUpdater), clock: ctx.clock, log: ctx.log }))]; },
  async (ctx) => startedOnceReady(ctx, 'horizontal-pod-autoscaler', () => new HorizontalController(kcm(ctx, 'horizontal-pod-autoscaler'))),
  async (ctx) => startedOnceReady(ctx, 'job-controller', () => new JobController({ ...kcm(ctx, 'job-controller'), random: ctx.random })),
  async (ctx) => startedOnceReady(ctx, 'resource-claim-controller', () => new ResourceClaimController(kcm(ctx, 'resource-claim-controller'))),
  // As kube-controller-manager, only with DRADeviceTaints on: NoExecute device taints evict the pods of allocated claims.
  async (ctx) => controllerGatesOff('device-taint-eviction-controller', ctx.cluster.config.featureGates).length === 0 ? startedOnceReady(ctx, 'device-taint-eviction-controller', () => new DeviceTaintEvictionController(kcm(ctx, 'device-taint-eviction-controller'))) : [],
  async (ctx) => startedOnceReady(ctx, 'ttl-after-finished-controller', () => new TtlAfterFinishedController(kcm(ctx, 'ttl-after-finished-controller'))),
];

export async function startComponents(ctx: ComponentContext): Promise<RunningComponents> {
  const running: RunningComponent[] = [];
  for (const factory of factories) {
    const started = await factory(ctx);
    running.push(...(Array.isArray(started) ? started : [started]));
  }
  return {
    running,
    async stop() {
      for (const c of [...running].reverse()) await c.stop();
    },
  };
}
