// The Vertical Pod Autoscaler: recommender, admission (called by the cluster's mutating admission) and updater.
export { Recommender } from './recommender.ts';
export { VpaAdmission } from './admission.ts';
export { Updater } from './updater.ts';
export { vpaRef } from './types.ts';
export type { VerticalPodAutoscaler } from './types.ts';
