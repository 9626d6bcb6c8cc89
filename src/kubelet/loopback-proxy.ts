// A request the API server proxies to a host process (runtime: process) on this machine's loopback:
// headers without the hop-by-hop ones and the client's credentials, the answer streamed back, and an
// upgrade (a WebSocket's) joined socket to socket once the process switches protocols.
// Upstream: apimachinery/pkg/util/proxy (UpgradeAwareHandler, transport.go).
import { request as httpRequest } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { serviceUnavailable } from '../core/index.ts';

/** net.JoinHostPort: an IPv6 host in brackets. */
export const joinHostPort = (host: string, port: string): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** The process's port, and the pod IP the errors name (the process listens on the loopback). */
export interface LoopbackDestination {
  scheme: string;
  port: string;
  shownHost: string;
}

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'authorization', 'host']);

/**
 * Passes the request to a host process on the loopback and its answer back; an upgrade (a WebSocket)
 * is passed on with its Connection and Upgrade headers, and once the process switches, the bytes.
 */
export function forwardToLoopback(destination: LoopbackDestination, target: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const upgrading = req.headers.upgrade !== undefined;
  const headers: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) if ((!hopByHop.has(k) || (upgrading && (k === 'connection' || k === 'upgrade'))) && v !== undefined) headers[k] = v;
  const send = destination.scheme === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const upstream = send({ host: '127.0.0.1', port: Number(destination.port), method: req.method ?? 'GET', path: target, headers, rejectUnauthorized: false }, (answer) => {
      const out: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(answer.headers)) if (!hopByHop.has(k) && v !== undefined) out[k] = v;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.once('end', resolve);
      answer.once('error', resolve);
    });
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return resolve(void res.destroy());
      const dial = joinHostPort(destination.shownHost, destination.port);
      reject(serviceUnavailable(`error trying to reach service: ${error.code === 'ECONNREFUSED' ? `dial tcp ${dial}: connect: connection refused` : error.message}`));
    });
    upstream.once('upgrade', (answer: IncomingMessage, backend: Duplex, head: Buffer) => {
      res.statusCode = 101;
      joinSockets(answer, backend, head, req.socket).then(resolve, resolve);
    });
    // A client that goes away ends the backend's request too (a streamed answer would run on).
    res.once('close', () => upstream.destroy());
    upstream.once('close', resolve);
    req.pipe(upstream);
  });
}

/** After a 101: the process's answer head to the client, then bytes both ways until either side closes. */
function joinSockets(answer: IncomingMessage, backend: Duplex, head: Buffer, client: Duplex): Promise<void> {
  const lines = [`HTTP/1.1 ${answer.statusCode ?? 101} ${answer.statusMessage ?? 'Switching Protocols'}`];
  for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
  client.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length > 0) client.write(head);
  backend.pipe(client);
  client.pipe(backend);
  return new Promise((resolve) => {
    const end = (): void => {
      backend.destroy();
      client.destroy();
      resolve();
    };
    backend.once('close', end);
    client.once('close', end);
    backend.once('error', end);
    client.once('error', end);
  });
}
