// The built-in kinds the API server serves, grouped by group-version in preference order.
import type { ResourceDefinition } from './resource.ts';
import { coreV1Definitions } from './core/v1/index.ts';
import { appsV1Definitions } from './apps/v1/index.ts';
import { batchV1Definitions } from './batch/v1/index.ts';
import { coordinationV1Definitions } from './coordination/v1/index.ts';
import { storageV1Definitions } from './storage/v1/index.ts';
import { schedulingV1Definitions } from './scheduling/v1/index.ts';
import { schedulingV1alpha1Definitions } from './scheduling/v1alpha1/index.ts';
import { resourceV1Definitions } from './resource/v1/index.ts';
import { eventsV1Definitions } from './events/v1/index.ts';
import { policyV1Definitions } from './policy/v1/index.ts';
import { autoscalingV2Definitions } from './autoscaling/v2/index.ts';
import { autoscalingV1Definitions } from './autoscaling/v1/index.ts';
import { rbacV1Definitions } from './rbac/v1/index.ts';
import { discoveryV1Definitions } from './discovery/v1/index.ts';
import { authenticationV1Definitions } from './authentication/v1/index.ts';
import { authorizationV1Definitions } from './authorization/v1/index.ts';
import { nodeV1Definitions } from './node/v1/index.ts';
import { apiregistrationV1Definitions } from './apiregistration/v1/index.ts';
import { networkingV1Definitions } from './networking/v1/index.ts';
import { admissionregistrationV1Definitions } from './admissionregistration/v1/index.ts';
import { flowcontrolV1Definitions } from './flowcontrol/v1/index.ts';
import { certificatesV1Definitions } from './certificates/v1/index.ts';

export function builtinDefinitions(): ResourceDefinition[] {
  return [
    ...coreV1Definitions,
    ...appsV1Definitions,
    ...batchV1Definitions,
    ...coordinationV1Definitions,
    ...storageV1Definitions,
    ...schedulingV1Definitions,
    ...nodeV1Definitions,
    ...schedulingV1alpha1Definitions,
    ...resourceV1Definitions,
    ...eventsV1Definitions,
    ...policyV1Definitions,
    ...autoscalingV2Definitions,
    ...autoscalingV1Definitions,
    ...rbacV1Definitions,
    ...discoveryV1Definitions,
    ...networkingV1Definitions,
    ...admissionregistrationV1Definitions,
    ...flowcontrolV1Definitions,
    ...certificatesV1Definitions,
    ...apiregistrationV1Definitions,
    ...authenticationV1Definitions,
    ...authorizationV1Definitions,
  ];
}
