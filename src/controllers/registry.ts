// The controllers that run as ordinary API clients anywhere — in Drydock or against another
// cluster (`drydock controllers --kubeconfig FILE [--only a,b]`) — by their upstream names.
// The registry is this map; each entry builds an unstarted controller from its collaborators.
import type { FeatureGate, FeatureGates } from '../api/index.ts';
import type { Client, SharedInformers } from '../client/index.ts';
import type { Clock, Random } from '../core/index.ts';
import { DaemonSetController } from './daemonset/controller.ts';
import { StatefulSetController } from './statefulset/controller.ts';
import { EndpointSliceController } from './endpointslice/controller.ts';
import { EndpointsController } from './endpoints/controller.ts';
import { ResourceQuotaController } from './resourcequota/controller.ts';
import { DisruptionController } from './disruption/controller.ts';
import { CronJobController } from './cronjob/controller.ts';
import { DeploymentController } from './deployment/controller.ts';
import { GarbageCollector } from './garbage-collector/controller.ts';
import { JobController } from './job/controller.ts';
import { NamespaceController } from './namespace/controller.ts';
import { NodeLifecycleController } from './node-lifecycle/controller.ts';
import { TaintEvictionController } from './node-lifecycle/taint-eviction.ts';
import { DeviceTaintEvictionController } from './devicetainteviction/controller.ts';
import { PodGCController } from './pod-gc/controller.ts';
import { ReplicaSetController, ReplicationManager } from './replicaset/controller.ts';
import { ResourceClaimController } from './resourceclaim/controller.ts';
import { ServiceCIDRsController } from './servicecidrs/controller.ts';
import { CsrCleaner } from './certificates/cleaner.ts';
import { TtlAfterFinishedController } from './ttl-after-finished/controller.ts';
import { PersistentVolumeController } from './volume/controller.ts';
import { PvProtectionController, PvcProtectionController } from './volume-protection/controller.ts';
import { EphemeralVolumeController } from './ephemeral-volume/controller.ts';
import { Recommender, Updater } from './vpa/index.ts';
import { HorizontalController } from './hpa/index.ts';
import { RootCaCertPublisher } from './root-ca-cert-publisher/controller.ts';
import { ServiceAccountsController } from './serviceaccount/controller.ts';
import { ClusterRoleAggregationController } from './clusterrole-aggregation/controller.ts';
import { lookupTable } from '../core/index.ts';

export interface ControllerDeps {
  client: Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
  /** Informers shared by the controllers of one program (absent: each controller has its own). */
  informers?: SharedInformers;
  /** The CA bundle that verifies the API server, for the root CA publisher (the client's CA data). */
  rootCA?: string | undefined;
}

export interface RunnableController {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/**
 * The upstream programs these controllers run in: their User-Agent names the field manager of what
 * they write. VPA's images run their binaries by architecture-suffixed names (`recommender-amd64`).
 */
export const programs = {
  controllerManager: 'kube-controller-manager',
  vpaRecommender: 'recommender-amd64',
  vpaUpdater: 'updater-amd64',
  vpaAdmissionController: 'admission-controller-amd64',
} as const;

/** The program the registry's controller `name` belongs to. */
export function controllerProgram(name: string): string {
  if (name === 'vpa-recommender') return programs.vpaRecommender;
  if (name === 'vpa-updater') return programs.vpaUpdater;
  return programs.controllerManager;
}

/**
 * The feature gates a controller runs only with, as its kube-controller-manager descriptor's
 * requiredFeatureGates (DynamicResourceAllocation, GA, is always on here).
 * Upstream: cmd/kube-controller-manager/app/resource.go (newDeviceTaintEvictionControllerDescriptor).
 */
const requiredFeatureGates: Readonly<Record<string, readonly FeatureGate[]>> = {
  'device-taint-eviction-controller': ['DRADeviceTaints'],
};

/** The gates `name` needs that `gates` has off: empty when the controller may run. */
export function controllerGatesOff(name: string, gates: FeatureGates): FeatureGate[] {
  return (requiredFeatureGates[name] ?? []).filter((gate) => !gates[gate]);
}

export const controllerRegistry: Readonly<Record<string, (deps: ControllerDeps) => RunnableController>> = lookupTable({
  namespace: (d) => new NamespaceController(d),
  garbagecollector: (d) => new GarbageCollector(d),
  replicaset: (d) => new ReplicaSetController(d),
  replicationcontroller: (d) => new ReplicationManager(d),
  'service-cidr-controller': (d) => new ServiceCIDRsController(d),
  csrcleaner: (d) => new CsrCleaner(d),
  deployment: (d) => new DeploymentController(d),
  daemonset: (d) => new DaemonSetController(d),
  statefulset: (d) => new StatefulSetController(d),
  endpoint: (d) => new EndpointsController(d),
  endpointslice: (d) => new EndpointSliceController(d),
  resourcequota: (d) => new ResourceQuotaController(d),
  disruption: (d) => new DisruptionController(d),
  cronjob: (d) => new CronJobController(d),
  job: (d) => new JobController(d),
  'ttl-after-finished': (d) => new TtlAfterFinishedController(d),
  'node-lifecycle': (d) => new NodeLifecycleController(d),
  'taint-eviction-controller': (d) => new TaintEvictionController(d),
  podgc: (d) => new PodGCController(d),
  'resourceclaim': (d) => new ResourceClaimController(d),
  'device-taint-eviction-controller': (d) => new DeviceTaintEvictionController(d),
  'persistentvolume-binder': (d) => new PersistentVolumeController(d),
  'pvc-protection': (d) => new PvcProtectionController(d),
  'pv-protection': (d) => new PvProtectionController(d),
  'ephemeral-volume': (d) => new EphemeralVolumeController(d),
  serviceaccount: (d) => new ServiceAccountsController(d),
  'clusterrole-aggregation': (d) => new ClusterRoleAggregationController(d),
  'root-ca-cert-publisher': (d) => new RootCaCertPublisher({ ...d, rootCA: d.rootCA ?? '' }),
  horizontalpodautoscaling: (d) => new HorizontalController(d),
  'vpa-recommender': (d) => new Recommender(d),
  'vpa-updater': (d) => new Updater(d),
});
