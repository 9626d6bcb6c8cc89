// discovery.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { endpointSliceDefinition } from './endpoint-slice.ts';

export const discoveryV1Definitions: ResourceDefinition[] = [endpointSliceDefinition as unknown as ResourceDefinition];
