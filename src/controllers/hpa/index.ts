// The horizontal pod autoscaler: scales workloads through their scale subresource from resource metrics.
export { HorizontalController, hpaSyncPeriodMs } from './controller.ts';
export type { HorizontalControllerOptions } from './controller.ts';
