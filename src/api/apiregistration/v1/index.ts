// apiregistration.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { apiServiceDefinition } from './api-service.ts';

export type { APIService, APIServiceCondition, ServiceReference } from './api-service.ts';
export { apiServiceName, availableCondition, localAvailableCondition, setAPIServiceCondition } from './api-service.ts';

export const apiregistrationV1Definitions: ResourceDefinition[] = [apiServiceDefinition as unknown as ResourceDefinition];
