// The runtime handlers a simulated node's containerd has, as its CRI status reports them to the
// kubelet: the default ("") and runc on every node, and on GPU nodes the ones the GPU operator's
// container toolkit configures (nvidia, nvidia-cdi, nvidia-legacy). A pod whose RuntimeClass names a
// handler the node lacks gets no sandbox, in containerd's and the kubelet's words.
// Upstream: containerd internal/cri (getSandboxRuntime, introspectRuntimeHandlers), pkg/kubelet/
// nodestatus/setters.go (RuntimeHandlers, NodeFeatures), pkg/kubelet/runtimeclass (LookupRuntimeHandler).
import type { Node, NodeRuntimeHandler } from '../api/index.ts';
import type { NodePoolSpec } from './node-object.ts';

const gpuOperatorHandlers = ['nvidia', 'nvidia-cdi', 'nvidia-legacy'];

/** The handler names a node of the pool has; "" is the default runtime's (runc). */
export function poolRuntimeHandlers(pool: Pick<NodePoolSpec, 'gpus'>): readonly string[] {
  return ['', 'runc', ...(pool.gpus ? gpuOperatorHandlers : [])];
}

/**
 * What every handler of a simulated node supports, as a 6.8 kernel and containerd 2 do: the node status
 * says so and the kubelet's mounts and container statuses follow it.
 */
export const handlerFeatures = { recursiveReadOnlyMounts: true, userNamespaces: true } as const;

/** node.status.runtimeHandlers and features: each handler with what it supports. */
export function runtimeStatus(handlers: readonly string[]): Pick<NonNullable<Node['status']>, 'runtimeHandlers' | 'features'> {
  const runtimeHandlers: NodeRuntimeHandler[] = [...handlers].sort().map((name) => ({ name, features: { ...handlerFeatures } }));
  return { runtimeHandlers, features: { supplementalGroupsPolicy: true } };
}

/**
 * Why the sandbox of a pod naming RuntimeClass `className` cannot be made here (the FailedCreatePodSandBox
 * event's message), or undefined when it can: the class is gone, or its handler is not configured.
 */
export function sandboxRuntimeFailure(className: string | undefined, lookup: (name: string) => { handler?: string } | undefined, handlers: readonly string[]): string | undefined {
  if (!className) return undefined;
  const runtimeClass = lookup(className);
  if (!runtimeClass) return `Failed to create pod sandbox: runtimeclass.node.k8s.io ${JSON.stringify(className)} not found`;
  const handler = runtimeClass.handler ?? '';
  if (handlers.includes(handler)) return undefined;
  return `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for ${JSON.stringify(handler)} is configured`;
}
