// autoscaling/v2: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { horizontalPodAutoscalerDefinition } from './horizontal-pod-autoscaler.ts';

export const autoscalingV2Definitions: ResourceDefinition[] = [
  horizontalPodAutoscalerDefinition as unknown as ResourceDefinition,
];
