// Public surface of kubelet/: simulated nodes (one kubelet per node), the pod log/exec route and
// the version-skew refusal. The behaviour model lives in api/ (resolveBehaviour).
export { SimulatedNodes, PodLogs } from './nodes.ts';
export type { SimulatedNodesOptions } from './nodes.ts';
export { Kubelet } from './kubelet.ts';
export type { KubeletOptions } from './kubelet.ts';
export type { NodePoolSpec } from './node-object.ts';
export { poolLabel } from './node-object.ts';
export { KubeletVersionSkewError, kubeletVersionSkewProblem } from './version-skew.ts';
export { podLogRoute } from './log-route.ts';
export { proxyRoute } from './proxy-route.ts';
export type { Route, PodLogRouteOptions } from './log-route.ts';
export { nodeLeaseNamespace, nodeLeaseDurationSeconds } from './node-agent.ts';
export { podUsage } from './usage.ts';
export type { ContainerUsage } from './usage.ts';
