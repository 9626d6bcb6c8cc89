// What the API server says when it cannot reach a node's kubelet: a failed node's kubelet (drydock node
// fail) is down, so the dial of its port is refused, in the words of the request that dialed it.
// Upstream: pkg/registry/core/pod/rest/log.go (LocationStreamer's Get of the kubelet's URL), apimachinery
// util/proxy (UpgradeAwareHandler's "error dialing backend").
import { ApiError } from '../core/index.ts';
import type { Kubelet } from './kubelet.ts';
import { kubeletPort } from './node-object.ts';

function refused(kubelet: Kubelet): string {
  return `dial tcp ${kubelet.hostIP}:${kubeletPort}: connect: connection refused`;
}

/** A log request's failure: Go's url.Error for the GET of the kubelet's containerLogs URL (a 500 without a reason). */
export function logsUnreachable(kubelet: Kubelet, path: string, query: URLSearchParams): ApiError {
  const q = query.toString();
  return new ApiError('', `Get "https://${kubelet.hostIP}:${kubeletPort}${path}${q ? `?${q}` : ''}": ${refused(kubelet)}`);
}

/** An exec, attach or port-forward's failure to open its stream to the kubelet. */
export function connectUnreachable(kubelet: Kubelet): ApiError {
  return new ApiError('', `error dialing backend: ${refused(kubelet)}`);
}
