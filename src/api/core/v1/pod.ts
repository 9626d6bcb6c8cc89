// Pod's public surface inside api/: wire types and the small helpers every component needs.
// The kind's strategy, validation and printer live in ./pod/.
export type * from './pod/types.ts';
export { PodConditionType } from './pod/types.ts';
export * from './pod-resources.ts';
export { getPodQOS, computePodQOS } from './pod/qos.ts';
export type { Binding, ObjectReference } from './binding.ts';
export type { Eviction, DeleteOptions, Preconditions } from '../../policy/v1/eviction.ts';
export { podDefinition, setSimAnnotationValidator } from './pod/definition.ts';
export { defaultPod, defaultPodSpec, imageTag } from './pod/defaults.ts';
export { addDefaultTolerations, addDefaultServiceAccount, admitPodPriority, taintNodeNotReady } from './pod/admission.ts';
export type { PriorityClassInfo } from './pod/admission.ts';
export { validatePodCreate, validatePodSpec } from './pod/validation.ts';
export { validatePodUpdate, validatePodStatusUpdate, validatePodResize } from './pod/update-validation.ts';
export { podStatusCells } from './pod/table.ts';
export { shouldRestart } from './pod/restart-policy.ts';
export { parsePodDeletionCost, podDeletionCostAnnotation } from './pod/deletion-cost.ts';
export { ephemeralClaimName, ephemeralClaimNotForPod } from './pod/ephemeral-volume.ts';
