// node.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { runtimeClassDefinition } from './runtime-class.ts';

export type { RuntimeClass } from './runtime-class.ts';
export { mergeTolerations } from './runtime-class.ts';

export const nodeV1Definitions: ResourceDefinition[] = [runtimeClassDefinition as unknown as ResourceDefinition];
