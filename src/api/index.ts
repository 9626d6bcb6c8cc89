// Public surface of api/: the kinds and their definitions.
export * from './resource.ts';
export * from './registry.ts';
export * from './core/v1/pod.ts';
export * from './refs.ts';
export * from './validation/index.ts';
export * from './apps/v1/deployment.ts';
export * from './apps/v1/replica-set.ts';
export * from './apps/v1/scale.ts';
export * from './batch/v1/job.ts';
export * as resourceV1 from './resource/v1/types.ts';
export * from './sim/behaviour.ts';
export type { Node, NodeAddress, NodeCondition, NodeStatus, NodeSystemInfo } from './core/v1/node.ts';
export type { Lease, LeaseSpec } from './coordination/v1/lease.ts';
export type { Event, EventSource } from './core/v1/event.ts';
export type { NodeSpec, Taint } from './core/v1/node.ts';
export type { PersistentVolumeClaim } from './core/v1/persistent-volume-claim.ts';
export type { PersistentVolume } from './core/v1/persistent-volume.ts';
