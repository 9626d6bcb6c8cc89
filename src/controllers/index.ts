// Public surface of controllers/: one controller per folder.
export { NamespaceController } from './namespace/controller.ts';
export { ReplicaSetController } from './replicaset/controller.ts';
export { DeploymentController } from './deployment/controller.ts';
export { GarbageCollector } from './garbage-collector/controller.ts';
