// Public surface of cluster/: configuration and the embeddable Cluster.
export * from './config.ts';
export * from './cluster.ts';
export * from './kubeconfig.ts';
export type { ComponentContext, RunningComponent, RunningComponents } from './components.ts';
export { KubeletVersionSkewError } from '../kubelet/index.ts';
export { SchedulerConfigError } from '../scheduler/index.ts';
export * from './node-pools.ts';
export { controllerGatesOff, controllerProgram, controllerRegistry } from '../controllers/index.ts';
export type { ControllerDeps, RunnableController } from '../controllers/index.ts';
