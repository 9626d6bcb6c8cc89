// core/v1 (the legacy group ""): every kind's ResourceDefinition, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { podDefinition } from './pod/definition.ts';
import { podTemplateDefinition } from './pod-template.ts';
import { bindingDefinition } from './binding.ts';
import { configMapDefinition } from './config-map.ts';
import { endpointsDefinition } from './endpoints.ts';
import { eventDefinition } from './event.ts';
import { namespaceDefinition } from './namespace.ts';
import { nodeDefinition } from './node.ts';
import { persistentVolumeClaimDefinition } from './persistent-volume-claim.ts';
import { persistentVolumeDefinition } from './persistent-volume.ts';
import { replicationControllerDefinition } from './replication-controller.ts';
import { resourceQuotaDefinition } from './resource-quota.ts';
import { limitRangeDefinition } from './limit-range.ts';
import { secretDefinition } from './secret.ts';
import { serviceAccountDefinition } from './service-account.ts';
import { serviceDefinition } from './service.ts';

export const coreV1Definitions: ResourceDefinition[] = [
  bindingDefinition as unknown as ResourceDefinition,
  podDefinition as unknown as ResourceDefinition,
  podTemplateDefinition as unknown as ResourceDefinition,
  configMapDefinition as unknown as ResourceDefinition,
  endpointsDefinition as unknown as ResourceDefinition,
  eventDefinition as unknown as ResourceDefinition,
  namespaceDefinition as unknown as ResourceDefinition,
  nodeDefinition as unknown as ResourceDefinition,
  persistentVolumeClaimDefinition as unknown as ResourceDefinition,
  persistentVolumeDefinition as unknown as ResourceDefinition,
  limitRangeDefinition as unknown as ResourceDefinition,
  replicationControllerDefinition as unknown as ResourceDefinition,
  resourceQuotaDefinition as unknown as ResourceDefinition,
  secretDefinition as unknown as ResourceDefinition,
  serviceAccountDefinition as unknown as ResourceDefinition,
  serviceDefinition as unknown as ResourceDefinition,
];
