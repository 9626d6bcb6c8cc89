// A simulated kubelet's own HTTP API, as the API server's nodes/proxy reaches it: /healthz (and its
// checks), /pods, /stats/summary, /configz, /metrics, /metrics/probes, /metrics/resource; any other path is
// the Go mux's 404, another method go-restful's 405.
// Upstream: pkg/kubelet/server/server.go (InstallDefaultHandlers), pkg/kubelet/server/stats/handler.go.
import type { Kubelet } from './kubelet.ts';
import { resourceMetricsText } from './resource-metrics.ts';
import { statsSummary } from './stats-summary.ts';

export interface KubeletResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const plainText = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };
const json = { 'Content-Type': 'application/json' };
const exposition = { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' };
const healthChecks = new Set(['/healthz', '/healthz/ping', '/healthz/log', '/healthz/syncloop']);

function notFound(): KubeletResponse {
  return { status: 404, headers: plainText, body: '404 page not found\n' };
}

function jsonResponse(value: unknown): KubeletResponse {
  return { status: 200, headers: json, body: JSON.stringify(value) };
}

/** What the kubelet answers to `method path` at time `now`. */
export function kubeletResponse(kubelet: Kubelet, method: string, path: string, now: number): KubeletResponse {
  if (healthChecks.has(path)) return { status: 200, headers: plainText, body: 'ok' };
  const route = routes[path];
  if (!route) return notFound();
  if (!route.methods.includes(method)) return { status: 405, headers: plainText, body: '405: Method Not Allowed' };
  return route.serve(kubelet, now);
}

const routes: Record<string, { methods: readonly string[]; serve: (kubelet: Kubelet, now: number) => KubeletResponse }> = {
  // The pod manager's pods, as the kubelet was given them; a list's items carry no kind of their own.
  '/pods': {
    methods: ['GET', 'HEAD'],
    serve: (kubelet) => jsonResponse({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [...kubelet.workers()].map(({ pod: { kind: _kind, apiVersion: _apiVersion, ...rest } }) => rest) }),
  },
  '/stats/summary': { methods: ['GET', 'HEAD', 'POST'], serve: (kubelet, now) => jsonResponse(statsSummary(kubelet, now)) },
  // configz.go: json.Marshal of the registered configs, no trailing newline.
  '/configz': { methods: ['GET', 'HEAD'], serve: (kubelet) => ({ status: 200, headers: { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' }, body: kubelet.configz() }) },
  '/metrics': { methods: ['GET', 'HEAD'], serve: (kubelet) => ({ status: 200, headers: exposition, body: kubelet.metrics.text(kubelet.gauges()) }) },
  '/metrics/probes': { methods: ['GET', 'HEAD'], serve: (kubelet) => ({ status: 200, headers: exposition, body: kubelet.metrics.probesText(kubelet.startedAt / 1000) }) },
  '/metrics/resource': { methods: ['GET', 'HEAD'], serve: (kubelet, now) => ({ status: 200, headers: exposition, body: resourceMetricsText(statsSummary(kubelet, now), now) }) },
};
