// autoscaling/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { horizontalPodAutoscalerV1Definition } from './horizontal-pod-autoscaler.ts';

export const autoscalingV1Definitions: ResourceDefinition[] = [
  horizontalPodAutoscalerV1Definition as unknown as ResourceDefinition,
];
