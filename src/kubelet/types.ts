// Type shorthands the kubelet shares across its files.
import type { DeepReadonly } from '../core/index.ts';
import type { Pod } from '../api/index.ts';

export type { Container, ContainerState, ContainerStatus, Pod, PodCondition, PodPhase, PodStatus, Probe, VolumeMountStatus } from '../api/index.ts';
export type DeepReadonlyPod = DeepReadonly<Pod>;
