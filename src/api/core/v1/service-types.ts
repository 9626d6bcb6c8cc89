// Service (core/v1) wire types and the predicates both the strategy and validation use.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/api/service/util.go (ExternallyAccessible).
import type { Condition, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { Protocol } from './pod/types.ts';

export type ServiceType = 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
export type IPFamily = 'IPv4' | 'IPv6';
export type IPFamilyPolicy = 'SingleStack' | 'PreferDualStack' | 'RequireDualStack';
export type ServiceAffinity = 'ClientIP' | 'None';
export type TrafficPolicy = 'Cluster' | 'Local';

export interface ServicePort {
  name?: string;
  protocol?: Protocol;
  appProtocol?: string;
  port: number;
  /** IntOrString. */
  targetPort?: number | string;
  nodePort?: number;
}

export interface SessionAffinityConfig {
  clientIP?: { timeoutSeconds?: number };
}

export interface ServiceSpec {
  ports?: ServicePort[];
  selector?: Record<string, string>;
  clusterIP?: string;
  clusterIPs?: string[];
  type?: ServiceType;
  externalIPs?: string[];
  sessionAffinity?: ServiceAffinity;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  externalName?: string;
  externalTrafficPolicy?: TrafficPolicy;
  healthCheckNodePort?: number;
  publishNotReadyAddresses?: boolean;
  sessionAffinityConfig?: SessionAffinityConfig;
  ipFamilies?: IPFamily[];
  ipFamilyPolicy?: IPFamilyPolicy;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  internalTrafficPolicy?: TrafficPolicy;
  trafficDistribution?: string;
}

export interface LoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ipMode?: 'VIP' | 'Proxy';
  ports?: { port: number; protocol: Protocol; error?: string }[];
}

export interface ServiceStatus {
  loadBalancer?: { ingress?: LoadBalancerIngress[] };
  conditions?: Condition[];
}

export interface Service extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Service';
  metadata: ObjectMeta;
  spec?: ServiceSpec;
  status?: ServiceStatus;
}

export const defaultClientIPServiceAffinitySeconds = 10800;

export const needsClusterIPPolicy = (t: ServiceType | undefined): boolean => t === 'ClusterIP' || t === 'NodePort' || t === 'LoadBalancer';
export const needsNodePorts = (t: ServiceType | undefined): boolean => t === 'NodePort' || t === 'LoadBalancer';

/** service.ExternallyAccessible. */
export function isExternallyAccessible(svc: Service): boolean {
  const t = svc.spec?.type;
  return t === 'LoadBalancer' || t === 'NodePort' || (t === 'ClusterIP' && (svc.spec?.externalIPs ?? []).length > 0);
}

export function isHeadless(svc: Service): boolean {
  return svc.spec?.clusterIP === 'None';
}

