// flowcontrol.apiserver.k8s.io/v1: API Priority and Fairness' kinds, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { flowSchemaDefinition } from './flow-schema.ts';
import { priorityLevelConfigurationDefinition } from './priority-level-configuration.ts';

export type { FlowSchema } from './flow-schema.ts';
export type { PriorityLevelConfiguration } from './priority-level-configuration.ts';
export { mandatoryConfiguration, suggestedConfiguration } from './bootstrap.ts';
export type { FlowcontrolConfiguration } from './bootstrap.ts';

export const flowcontrolV1Definitions: ResourceDefinition[] = [
  flowSchemaDefinition as unknown as ResourceDefinition,
  priorityLevelConfigurationDefinition as unknown as ResourceDefinition,
];
