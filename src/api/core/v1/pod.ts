// Pod's public surface inside api/: wire types and the small helpers every component needs.
// The kind's strategy, validation and printer live in ./pod/.
export type * from './pod/types.ts';
export { PodConditionType } from './pod/types.ts';
export * from './pod-resources.ts';
export { getPodQOS, computePodQOS } from './pod/qos.ts';
export type { Binding, ObjectReference } from './binding.ts';
export type { Eviction, DeleteOptions, Preconditions } from '../../policy/v1/eviction.ts';
