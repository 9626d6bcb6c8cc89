// Applying a recommendation to a pod's containers, pure: requests become the target, limits keep
// their ratio to the request (RequestsAndLimits), and the vpaUpdates text names what changed.
// Upstream: vertical-pod-autoscaler/pkg/admission-controller/resource/pod/recommendation/
// recommendation_provider.go, pkg/utils/vpa/limit_and_request_scaling.go, patch/resource_updates.go.
import type { Container, Pod } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { amountOf, cpuText, memoryText } from './estimator.ts';
import type { RecommendedContainerResources, VerticalPodAutoscaler } from './types.ts';
import { containerPolicy, controlledResources } from './types.ts';

type Vpa = DeepReadonly<VerticalPodAutoscaler>;
export interface ContainerResources {
  requests?: Record<string, string>;
  limits?: Record<string, string>;
}

export interface ContainerUpdate {
  index: number;
  name: string;
  resources: ContainerResources;
  /** `cpu request`, `memory limit`, ... */
  changed: string[];
}

function text(resource: string, amount: number): string {
  return resource === 'cpu' ? cpuText(amount) : memoryText(amount);
}

export function recommendationFor(vpa: Vpa, container: string): DeepReadonly<RecommendedContainerResources> | undefined {
  return vpa.status?.recommendation?.containerRecommendations?.find((r) => r.containerName === container);
}

/** The resources each controlled container should get; containers without a recommendation or with mode Off are left out. */
export function recommendedResources(pod: DeepReadonly<Pod>, vpa: Vpa): ContainerUpdate[] {
  const out: ContainerUpdate[] = [];
  pod.spec.containers.forEach((c: DeepReadonly<Container>, index) => {
    const policy = containerPolicy(vpa, c.name);
    const rec = recommendationFor(vpa, c.name);
    if (!rec || policy?.mode === 'Off') return;
    const requests: Record<string, string> = { ...(c.resources?.requests ?? {}) };
    const limits: Record<string, string> = { ...(c.resources?.limits ?? {}) };
    const changed: string[] = [];
    const limitChanges: string[] = [];
    for (const resource of controlledResources(policy)) {
      const target = amountOf(resource, rec.target[resource]);
      if (target === undefined) continue;
      const oldRequest = amountOf(resource, requests[resource] ?? limits[resource]);
      requests[resource] = text(resource, target);
      changed.push(`${resource} request`);
      const oldLimit = amountOf(resource, limits[resource]);
      if (policy?.controlledValues !== 'RequestsOnly' && oldLimit !== undefined && oldRequest !== undefined && oldRequest > 0) {
        limits[resource] = text(resource, Math.round((oldLimit * target) / oldRequest));
        limitChanges.push(`${resource} limit`);
      }
    }
    if (changed.length === 0) return;
    const resources: ContainerResources = { requests };
    if (Object.keys(limits).length > 0) resources.limits = limits;
    out.push({ index, name: c.name, resources, changed: [...changed, ...limitChanges] });
  });
  return out;
}

/** `Pod resources updated by web-vpa: container 0: cpu request, memory request`. */
export function updatesAnnotation(vpaName: string, updates: readonly ContainerUpdate[]): string {
  return `Pod resources updated by ${vpaName}: ${updates.map((u) => `container ${u.index}: ${u.changed.join(', ')}`).join('; ')}`;
}
