// HTTP routes the API server proxies to a node's kubelet: pods/log (text/plain, streamed when
// following), pods/exec and pods/attach (exec-stream.ts), and pods/portforward (port-forward.ts).
// Upstream: pkg/registry/core/pod/rest/log.go, pkg/registry/core/pod/strategy.go (LogLocation),
// pkg/kubelet/kubelet_pods.go (validateContainerLogStatus, GetContainerLogs).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { refs } from '../api/index.ts';
import type { Pod } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock } from '../core/index.ts';
import { ApiError, FieldPath, badRequest, forbiddenField, formatTime, invalid, invalidValue, isApiError, parseRfc3339, queryBool } from '../core/index.ts';
import type { FieldError } from '../core/index.ts';
import { IsNegativeErrorMsg } from '../api/index.ts';
import type { Status } from '../core/index.ts';
import { formatLogLine, limitText, selectLogLines } from './logs.ts';
import type { LogBuffer, LogLine, PodLogOptions } from './logs.ts';
import type { PodLogs } from './nodes.ts';
import { chosenExecProtocol, servedExecProtocols, serveAttach, serveExec, wantsExecWebSocket } from './exec-stream.ts';
import { spdyExecProtocol, wantsExecSpdy } from './exec-transport.ts';
import type { ExecOptions } from './exec-stream.ts';
import { connectUnreachable, logsUnreachable } from './kubelet-dial.ts';
import { forwardedPorts, sandboxIdOf, servePortForward, servePortForwardChannels, wantsPortForwardChannels, wantsPortForwardSpdy, wantsPortForwardTunnel } from './port-forward.ts';

/** The fields of the request's URL a route reads (the API server's RequestUrl). */
export type Route = (req: IncomingMessage, res: ServerResponse, url: Pick<URL, 'pathname' | 'search' | 'searchParams'>) => boolean | Promise<boolean>;

const podSubresource = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(log|exec|attach|portforward)$/;

/** An API error as the API server writes it, for the routes that answer outside its handler. */
export function sendStatus(res: ServerResponse, error: ApiError): void {
  const status: Status = error.toStatus();
  res.writeHead(status.code ?? 500, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(status));
}

function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw badRequest(`${name}: Invalid value: "${v}": must be an integer`);
  return n;
}

function chooseContainer(pod: Pod, requested: string | null): string {
  const names = pod.spec.containers.map((c) => c.name);
  const inits = (pod.spec.initContainers ?? []).map((c) => c.name);
  const ephemerals = (pod.spec.ephemeralContainers ?? []).map((c) => c.name);
  if (requested) {
    if (![...names, ...inits, ...ephemerals].includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${pod.metadata.name}`);
    return requested;
  }
  if (names.length === 1 && names[0]) return names[0];
  let msg = `a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`;
  if (inits.length) msg += ` or one of the init containers: [${inits.join(' ')}]`;
  if (ephemerals.length) msg += ` or one of the ephemeral containers: [${ephemerals.join(' ')}]`;
  throw badRequest(msg);
}

/** Which buffer to read, or the kubelet's error (validateContainerLogStatus). */
function logSource(pod: Pod, container: string, previous: boolean, buffers: { current?: LogBuffer; previous?: LogBuffer } | undefined): LogBuffer {
  const podName = pod.metadata.name ?? '';
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  const s = statuses.find((x) => x.name === container);
  if (!s) throw badRequest(`container "${container}" in pod "${podName}" is not available`);
  const state = s.state ?? {};
  const last = s.lastState ?? {};
  if (previous) {
    if (!last.terminated?.containerID) throw badRequest(`previous terminated container "${container}" in pod "${podName}" not found`);
    const b = state.waiting ? buffers?.current : buffers?.previous;
    if (!b) throw badRequest(`previous terminated container "${container}" in pod "${podName}" not found`);
    return b;
  }
  if (state.running || state.terminated) {
    if (buffers?.current) return buffers.current;
  } else if (last.terminated && buffers?.current) return buffers.current;
  if (state.waiting) throw badRequest(`container "${container}" in pod "${podName}" is waiting to start: ${waitingForWhat(state.waiting.reason ?? '')}`);
  throw badRequest(`container "${container}" in pod "${podName}" is waiting to start - no logs yet`);
}

/** validateContainerLogStatus's words for the most common pending failures, else the waiting reason. */
function waitingForWhat(reason: string): string {
  if (reason === 'ErrImagePull') return "image can't be pulled";
  if (reason === 'ImagePullBackOff') return 'trying and failing to pull image';
  return reason;
}

export interface PodLogRouteOptions {
  client: Client;
  clock: Clock;
  podLogs: PodLogs;
}

/** The query LogLocation puts on the kubelet's containerLogs URL, keys sorted as url.Values encodes them. */
function kubeletLogQuery(q: URLSearchParams, sinceTime: number | undefined): URLSearchParams {
  const out = new URLSearchParams();
  if (flag(q, 'follow')) out.set('follow', 'true');
  if (q.get('limitBytes')) out.set('limitBytes', q.get('limitBytes') ?? '');
  if (flag(q, 'previous')) out.set('previous', 'true');
  if (q.get('sinceSeconds')) out.set('sinceSeconds', q.get('sinceSeconds') ?? '');
  if (sinceTime !== undefined) out.set('sinceTime', formatTime(sinceTime));
  if (q.get('tailLines')) out.set('tailLines', q.get('tailLines') ?? '');
  if (flag(q, 'timestamps')) out.set('timestamps', 'true');
  return out;
}

/** ValidatePodLogOptions: the options are checked before the pod's container is looked up. */
function validateLogOptions(pod: Pod, tailLines: number | undefined, sinceSeconds: number | undefined, limitBytes: number | undefined, sinceTime: string | undefined): void {
  const errs: FieldError[] = [];
  if (tailLines !== undefined && tailLines < 0) errs.push(invalidValue(FieldPath.root('tailLines'), tailLines, IsNegativeErrorMsg));
  if (limitBytes !== undefined && limitBytes < 1) errs.push(invalidValue(FieldPath.root('limitBytes'), limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && sinceTime) errs.push(forbiddenField(FieldPath.root(''), 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  else if (sinceSeconds !== undefined && sinceSeconds < 1) errs.push(invalidValue(FieldPath.root('sinceSeconds'), sinceSeconds, 'must be greater than 0'));
  if (errs.length > 0) throw invalid({ group: '', kind: 'PodLogOptions' }, pod.metadata.name ?? '', errs);
}

async function serveLog(o: PodLogRouteOptions, pod: Pod, q: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const tail = intParam(q, 'tailLines');
  const since = intParam(q, 'sinceSeconds');
  const limit = intParam(q, 'limitBytes');
  // metav1.Time's query decoding (time.Parse with RFC 3339) comes before validation.
  const sinceTime = q.get('sinceTime') || undefined;
  const sinceInstant = sinceTime === undefined ? undefined : parseRfc3339(sinceTime);
  if (sinceInstant && !sinceInstant.ok) throw badRequest(sinceInstant.message);
  validateLogOptions(pod, tail, since, limit, sinceTime);
  const container = chooseContainer(pod, q.get('container'));
  const node = pod.spec.nodeName;
  if (!node) throw badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  const kubelet = o.podLogs.kubelet(node);
  const previous = flag(q, 'previous');
  if (kubelet && !kubelet.serving) throw logsUnreachable(kubelet, `/containerLogs/${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}/${container}`, kubeletLogQuery(q, sinceInstant?.ok ? sinceInstant.ms : undefined));
  const worker = kubelet?.worker(pod.metadata.namespace ?? '', pod.metadata.name ?? '');
  const buffer = logSource(pod, container, previous, worker?.logsOf(container));
  const options: PodLogOptions = {};
  if (tail !== undefined) options.tailLines = tail;
  if (since !== undefined) options.sinceSeconds = since;
  if (limit !== undefined) options.limitBytes = limit;
  if (sinceInstant?.ok) options.sinceTime = sinceInstant.ms;
  const timestamps = flag(q, 'timestamps');
  const lines = selectLogLines(buffer.lines(), options, o.clock.now());
  const text = lines.map((l) => formatLogLine(l, timestamps)).join('');
  const follow = flag(q, 'follow') && !buffer.closed && !previous;
  if (!follow) {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(limitText(text, options.limitBytes));
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
  let sent = 0;
  const send = (chunk: string): boolean => {
    const out = limitText(chunk, options.limitBytes === undefined ? undefined : options.limitBytes - sent);
    sent += Buffer.byteLength(out);
    if (out) res.write(out);
    return options.limitBytes === undefined || sent < options.limitBytes;
  };
  if (!send(text)) return void res.end();
  await new Promise<void>((resolve) => {
    const stop = buffer.follow((line: LogLine | undefined) => {
      if (!line || !send(formatLogLine(line, timestamps))) {
        stop();
        resolve();
      }
    });
    req.once('close', () => {
      stop();
      resolve();
    });
  });
  res.end();
}

// As the API server decodes a query's booleans: only "0" and "false" (any case) are false when present.
const flag = (q: URLSearchParams, name: string): boolean => queryBool(q, name) ?? false;

/**
 * pods/exec and pods/attach: the API server's checks (streamLocation), the kubelet's (NewOptions,
 * findContainer), then the streams over a WebSocket or, for kubectl before 1.30 and client-go's SPDY
 * executor, over SPDY.
 */
async function serveConnect(o: PodLogRouteOptions, pod: Pod, sub: 'exec' | 'attach', q: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const container = chooseContainer(pod, q.get('container'));
  const name = pod.metadata.name ?? '';
  const node = pod.spec.nodeName;
  if (!node) throw badRequest(`pod ${name} does not have a host assigned`);
  const argv = q.getAll('command');
  if (sub === 'exec' && argv.length === 0) throw badRequest('you must specify at least one command for the container');
  const tty = flag(q, 'tty');
  const options: ExecOptions = { argv, stdin: flag(q, 'stdin'), stdout: flag(q, 'stdout'), stderr: flag(q, 'stderr') && !tty, tty };
  if (!options.stdin && !options.stdout && !options.stderr) throw badRequest('you must specify at least 1 of stdin, stdout, stderr');
  const kubelet = o.podLogs.kubelet(node);
  if (kubelet && !kubelet.serving) throw connectUnreachable(kubelet);
  const worker = kubelet?.worker(pod.metadata.namespace ?? '', name);
  const notFound = { error: `container not found (${JSON.stringify(container)})` };
  if (sub === 'attach') {
    const target = accepted(sub, worker?.attachTarget(container) ?? notFound, req, res);
    if (target) await serveAttach(req, res, o.clock, options, target);
  } else {
    await worker?.prepareExec();
    const target = accepted(sub, worker?.execTarget(container) ?? notFound, req, res);
    if (target) await serveExec(req, res, o.clock, options, target);
  }
}

/** The target, or undefined once answered: the kubelet refused the container, or the upgrade asked for is not served. */
function accepted<T extends object>(sub: string, target: T | { error: string }, req: IncomingMessage, res: ServerResponse): T | undefined {
  if ('error' in target) {
    // The kubelet answers before any upgrade, in plain text (streaming.WriteError).
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(target.error);
    return undefined;
  }
  if (wantsExecSpdy(req)) return target;
  // The API server's proxy requires the upgrade (UpgradeAwareHandler's UpgradeRequired).
  if (!req.headers.upgrade) throw badRequest('Upgrade request required');
  if (!wantsExecWebSocket(req)) {
    // The SPDY handshake's refusal (httpstream.Handshake): no protocol both sides speak.
    const offered = String(req.headers['x-stream-protocol-version'] ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
    res.writeHead(403, { 'Content-Type': 'text/plain' });
    res.end(`unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server supports [${spdyExecProtocol}]`);
    return undefined;
  }
  if (chosenExecProtocol(req) === undefined) {
    res.writeHead(403, { 'Content-Type': 'text/plain' });
    res.end(`requested protocol(s) are not supported: [${req.headers['sec-websocket-protocol'] ?? ''}]; supports [${servedExecProtocols}]`);
    return undefined;
  }
  return target;
}

/** pods/portforward: the API server's checks (PortForwardLocation, the upgrade it requires), then the kubelet's forwarding. */
async function servePortForwardRoute(o: PodLogRouteOptions, pod: Pod, q: URLSearchParams, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const name = pod.metadata.name ?? '';
  const node = pod.spec.nodeName;
  if (!node) throw badRequest(`pod ${name} does not have a host assigned`);
  const channels = wantsPortForwardChannels(req);
  if (!channels && !wantsPortForwardTunnel(req) && !wantsPortForwardSpdy(req)) throw badRequest('Upgrade request required');
  const ports = channels ? forwardedPorts(q) : [];
  if ('error' in ports) {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(`${ports.error}\n`);
    return;
  }
  const kubelet = o.podLogs.kubelet(node);
  if (kubelet && !kubelet.serving) throw connectUnreachable(kubelet);
  const worker = kubelet?.worker(pod.metadata.namespace ?? '', name);
  if (!worker) {
    // The kubelet answers before any upgrade, in plain text (streaming.WriteError).
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end(`pod not found (${JSON.stringify(`${name}_${pod.metadata.namespace ?? ''}`)})`);
    return;
  }
  const target = { sandboxId: sandboxIdOf(pod.metadata.uid ?? ''), onHost: worker.runsHostProcesses() };
  await (channels ? servePortForwardChannels(req, res, target, ports) : servePortForward(req, res, target));
}

/** The pod log/exec route for the HTTP edge's extraRoutes. */
export function podLogRoute(o: PodLogRouteOptions): Route {
  // Every request passes here: one for another path is passed on at once, not after a turn.
  return (req, res, url) => {
    const m = podSubresource.exec(url.pathname);
    return m ? servePodSubresource(o, m, req, res, url) : false;
  };
}

async function servePodSubresource(o: PodLogRouteOptions, m: RegExpExecArray, req: IncomingMessage, res: ServerResponse, url: Parameters<Route>[2]): Promise<boolean> {
  const [, ns = '', name = '', sub] = m;
  try {
    const pod = await o.client.get<Pod>(refs.pods, decodeURIComponent(ns), decodeURIComponent(name));
    if (sub === 'log') {
      if (req.method !== 'GET') return false;
      await serveLog(o, pod, url.searchParams, req, res);
      return true;
    }
    if (sub === 'exec' || sub === 'attach') {
      await serveConnect(o, pod, sub, url.searchParams, req, res);
      return true;
    }
    await servePortForwardRoute(o, pod, url.searchParams, req, res);
    return true;
  } catch (error) {
    if (!isApiError(error)) throw error;
    sendStatus(res, error);
    return true;
  }
}
