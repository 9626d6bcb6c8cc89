// Public surface of controllers/: one controller per folder.
export { NamespaceController } from './namespace/controller.ts';
export { NodeLifecycleController } from './node-lifecycle/controller.ts';
export { TaintEvictionController } from './node-lifecycle/taint-eviction.ts';
export { PodGCController } from './pod-gc/controller.ts';
export { ReplicaSetController } from './replicaset/controller.ts';
export { DeploymentController } from './deployment/controller.ts';
export { GarbageCollector } from './garbage-collector/controller.ts';
export { JobController } from './job/controller.ts';
export { TtlAfterFinishedController } from './ttl-after-finished/controller.ts';
export { ResourceClaimController } from './resourceclaim/controller.ts';
export { PersistentVolumeController } from './volume/controller.ts';
export { LocalPathProvisioner } from './volume/local-path-provisioner.ts';
export { PvProtectionController, PvcProtectionController } from './volume-protection/controller.ts';
export { Recommender as VpaRecommender, VpaAdmission, Updater as VpaUpdater } from './vpa/index.ts';
export { controllerProgram, controllerRegistry, programs } from './registry.ts';
export { DaemonSetController } from './daemonset/controller.ts';
export type { ControllerDeps, RunnableController } from './registry.ts';
export { HorizontalController } from './hpa/index.ts';
