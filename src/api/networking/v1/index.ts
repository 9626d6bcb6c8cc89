// networking.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { ingressClassDefinition, ingressDefinition } from './ingress.ts';
import { networkPolicyDefinition } from './network-policy.ts';
import { ipAddressDefinition } from './ip-address.ts';
import { serviceCIDRDefinition } from './service-cidr.ts';

export type { Ingress, IngressClass } from './ingress.ts';
export { defaultIngressClassAnnotation, ingressClassAnnotation } from './ingress.ts';
export type { NetworkPolicy } from './network-policy.ts';
export type { IPAddress, ParentReference } from './ip-address.ts';
export { ipAllocatorName, ipFamilyLabel, ipManagedByLabel, isServiceIPRecord, serviceClusterIPs, serviceIPRecord, validateIPAddressName } from './ip-address.ts';
export type { ServiceCIDR } from './service-cidr.ts';
export { defaultServiceCIDRName, serviceCIDRFinalizer } from './service-cidr.ts';

export const networkingV1Definitions: ResourceDefinition[] = [
  ingressClassDefinition as unknown as ResourceDefinition,
  ingressDefinition as unknown as ResourceDefinition,
  ipAddressDefinition as unknown as ResourceDefinition,
  networkPolicyDefinition as unknown as ResourceDefinition,
  serviceCIDRDefinition as unknown as ResourceDefinition,
];
