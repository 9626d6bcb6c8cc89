// Public surface of scheduler/: the Scheduler component, the framework contract for plugins
// written elsewhere (DynamicResources, GangScheduling), and the pieces tests and benches use.
export { Scheduler, nodeUpdateActions } from './scheduler.ts';
export type { SchedulerOptions } from './scheduler.ts';
export * from './framework.ts';
export { NodeInfo, PodInfo, Resource, isExtendedResourceName, isScalarResourceName, affinityTermMatches } from './node-info.ts';
export type { AffinityTerm, WeightedAffinityTerm, HostPort } from './node-info.ts';
export { fitErrorMessage, NodeStatusMap } from './fit-error.ts';
export { parseSchedulerConfig, defaultPlugins, defaultSchedulerName, SchedulerConfigError } from './config.ts';
export type { SchedulerConfig, ProfileConfig, PluginRef } from './config.ts';
export { numFeasibleNodesToFind } from './schedule-one.ts';
export { inTreeRegistry } from './plugins/registry.ts';
export { fitsRequest } from './plugins/node-resources-fit.ts';
export { schedulerComponent } from './events.ts';
export { dynamicResourcesFactory } from './plugins/dynamic-resources.ts';
export type { DraAllocator } from './plugins/dynamic-resources-allocator.ts';
