// pods/portforward as the kubelet serves it: portforward.k8s.io over SPDY/3.1 (or that SPDY tunnelled in
// WebSocket binary messages for kubectl 1.31+), each forwarded connection an error stream and a data
// stream sharing a requestID; or its own WebSocket channels, a data and an error channel a port (the
// Python and JavaScript clients). A host process (runtime: process) is dialed on the loopback; a
// simulated container listens on no port, so its connections are refused as containerd refuses them.
// Upstream: pkg/kubelet/cri/streaming/portforward/{httpstream,websocket}.go, apimachinery httpstream/spdy
// (upgrade.go), apiserver/pkg/util/proxy/streamtunnel.go, containerd sandbox_portforward_linux.go.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { Duplex } from 'node:stream';
import { acceptSpdyUpgrade, SpdySession, wantsSpdy } from './spdy.ts';
import type { SpdyStream } from './spdy.ts';
import { webSockets } from './exec-stream.ts';

export const portForwardProtocol = 'portforward.k8s.io';
/** The WebSocket subprotocol that carries the SPDY session (PortForwardWebsockets). */
export const portForwardTunnelProtocol = `SPDY/3.1+${portForwardProtocol}`;
/** The kubelet's own WebSocket port forwarding protocol: channels of a port's data and errors. */
export const portForwardChannelProtocol = 'v4.channel.k8s.io';

/** What the forwarded connections of one pod reach. */
export interface PortForwardTarget {
  /** The pod's sandbox, named in the runtime's errors. */
  sandboxId: string;
  /** The pod's containers run as host processes: its ports are the loopback's. */
  onHost: boolean;
}

/** A pod's sandbox ID as a runtime shows it: 64 hex digits, stable for the pod. */
export function sandboxIdOf(uid: string): string {
  return createHash('sha256').update(`sandbox/${uid}`).digest('hex');
}

/** Whether the request asks to become a WebSocket offering `protocol`. */
function wantsWebSocket(req: IncomingMessage, protocol: string): boolean {
  return (req.headers.upgrade ?? '').toLowerCase() === 'websocket' && String(req.headers['sec-websocket-protocol'] ?? '').split(',').some((p) => p.trim() === protocol);
}

/** Whether the request asks for the WebSocket upgrade that tunnels the SPDY session (kubectl 1.31+). */
export function wantsPortForwardTunnel(req: IncomingMessage): boolean {
  return wantsWebSocket(req, portForwardTunnelProtocol);
}

/** Whether the request asks for the SPDY upgrade with a protocol this server speaks. */
export function wantsPortForwardSpdy(req: IncomingMessage): boolean {
  return wantsSpdy(req, portForwardProtocol);
}

/** Whether the request asks for the kubelet's own WebSocket port forwarding (the Python and JavaScript clients). */
export function wantsPortForwardChannels(req: IncomingMessage): boolean {
  return wantsWebSocket(req, portForwardChannelProtocol);
}

/** The WebSocket's ports (`ports=80,8080`, repeatable), or the kubelet's refusal (NewV4Options). */
export function forwardedPorts(query: URLSearchParams): number[] | { error: string } {
  const values = query.getAll('ports');
  if (values.length === 0) return { error: 'query parameter "port" is required' };
  const ports: number[] = [];
  for (const value of values) {
    if (value === '') return { error: 'query parameter "port" cannot be empty' };
    for (const p of value.split(',')) {
      const port = /^\d+$/.test(p) ? Number(p) : NaN;
      if (Number.isNaN(port)) return { error: `unable to parse ${JSON.stringify(value)} as a port: strconv.ParseUint: parsing ${JSON.stringify(p)}: invalid syntax` };
      if (port > 65535) return { error: `unable to parse ${JSON.stringify(value)} as a port: strconv.ParseUint: parsing ${JSON.stringify(p)}: value out of range` };
      if (port < 1) return { error: `port ${JSON.stringify(value)} must be > 0` };
      ports.push(port);
    }
  }
  return ports;
}

/**
 * The kubelet's WebSocket port forwarding: channels 2i (data) and 2i+1 (error) for the i-th port, each
 * opened with the port in two little-endian bytes; one connection a port; the socket closes when all end.
 */
export async function servePortForwardChannels(req: IncomingMessage, res: ServerResponse, target: PortForwardTarget, ports: readonly number[]): Promise<void> {
  res.statusCode = 101;
  const { WebSocketServer } = webSockets();
  const server = new WebSocketServer({ noServer: true, handleProtocols: () => portForwardChannelProtocol });
  const ws = await new Promise<import('ws').WebSocket>((resolve) => server.handleUpgrade(req, req.socket as Duplex, Buffer.alloc(0), resolve));
  // One message a write, each flushed before the next: the Python client reads a frame per readable
  // socket, and misses frames its TLS layer read in one record with another.
  let sent: Promise<void> = Promise.resolve();
  const send = (channel: number, data: Buffer | string): void => {
    const message = Buffer.concat([Buffer.from([channel]), Buffer.from(data)]);
    sent = sent.then(() => new Promise<void>((resolve) => (ws.readyState === ws.OPEN ? ws.send(message, { binary: true }, () => resolve()) : resolve())));
  };
  const channels = ports.map((port, i) => {
    const prefix = Buffer.from([port & 0xff, port >> 8]);
    send(2 * i, prefix);
    send(2 * i + 1, prefix);
    return { data: new ChannelStream((chunk) => send(2 * i, chunk)), error: new ChannelStream((chunk) => send(2 * i + 1, chunk)) };
  });
  ws.on('message', (message: Buffer) => channels[(message[0] ?? 0) / 2]?.data.push(message.subarray(1)));
  ws.on('error', () => ws.terminate());
  let open = channels.length;
  await new Promise<void>((resolve) => {
    ws.once('close', () => {
      for (const c of channels) c.data.destroy();
      resolve();
    });
    channels.forEach((c, i) => {
      c.data.once('close', () => {
        if (--open === 0) void sent.then(() => ws.close(1000));
      });
      forward(target, ports[i] ?? 0, c.error, c.data);
    });
  });
}

/** One WebSocket channel as a stream: what is written goes out on it, what arrives is pushed. */
class ChannelStream extends Duplex {
  readonly #send: (chunk: Buffer) => void;
  constructor(send: (chunk: Buffer) => void) {
    super({ allowHalfOpen: false });
    this.#send = send;
  }
  override _read(): void {}
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.#send(chunk);
    callback();
  }
  override _final(callback: () => void): void {
    callback();
    this.destroy();
  }
  reset(): void {
    this.destroy();
  }
}

/** Answers the upgrade (SPDY or its WebSocket tunnel) and forwards each connection the client opens. */
export async function servePortForward(req: IncomingMessage, res: ServerResponse, target: PortForwardTarget): Promise<void> {
  res.statusCode = 101;
  const socket = wantsPortForwardTunnel(req) ? await tunnel(req) : acceptSpdyUpgrade(req, portForwardProtocol);
  const session = new SpdySession(socket);
  const pairs = new Map<string, { error?: SpdyStream; data?: SpdyStream }>();
  session.on('stream', (stream: SpdyStream) => {
    const id = stream.headers.get('requestid') ?? '';
    const pair = pairs.get(id) ?? {};
    if (stream.headers.get('streamtype') === 'error') pair.error = stream;
    else pair.data = stream;
    pairs.set(id, pair);
    if (pair.error && pair.data) {
      pairs.delete(id);
      forward(target, Number(stream.headers.get('port')), pair.error, pair.data);
    }
  });
  await new Promise<void>((resolve) => session.once('close', resolve));
}

/**
 * The WebSocket's binary messages as one byte stream each way. The subprotocol's `/` is no token
 * character, so ws would refuse the offer: the answer names it itself.
 */
async function tunnel(req: IncomingMessage): Promise<Duplex> {
  const { WebSocketServer, createWebSocketStream } = webSockets();
  const server = new WebSocketServer({ noServer: true });
  server.on('headers', (headers: string[]) => headers.push(`Sec-WebSocket-Protocol: ${portForwardTunnelProtocol}`));
  delete req.headers['sec-websocket-protocol'];
  const ws = await new Promise<import('ws').WebSocket>((resolve) => server.handleUpgrade(req, req.socket as Duplex, Buffer.alloc(0), resolve));
  return createWebSocketStream(ws);
}

/** One forwarded connection: the data stream joined to the port, or the runtime's refusal on the error stream. */
function forward(target: PortForwardTarget, port: number, errors: Duplex, data: Duplex & { reset(): void }): void {
  const fail = (cause: string): void => {
    errors.end(`error forwarding port ${port} to pod ${target.sandboxId}, uid : ${cause}`);
    data.end();
  };
  // A port header that is no port is dialed as port 0 by the kubelet (strconv errors ignored): refused.
  if (!target.onHost || !(Number.isInteger(port) && port >= 1 && port <= 65535)) return fail(refusedInSandbox(target.sandboxId, Number.isInteger(port) ? port : 0));
  const conn = connect({ host: '127.0.0.1', port });
  conn.once('connect', () => {
    data.pipe(conn);
    conn.pipe(data);
    conn.once('close', () => errors.end());
  });
  conn.once('error', (error: NodeJS.ErrnoException) => {
    if (conn.connecting || error.code === 'ECONNREFUSED') fail(refusedInSandbox(target.sandboxId, port));
    else data.reset();
  });
  data.once('close', () => conn.destroy());
}

/** containerd's words when nothing listens on the port inside the pod's network namespace. */
function refusedInSandbox(sandboxId: string, port: number): string {
  return `failed to execute portforward in network namespace "/var/run/netns/cni-${sandboxId.slice(0, 8)}-${sandboxId.slice(8, 12)}-${sandboxId.slice(12, 16)}-${sandboxId.slice(16, 20)}-${sandboxId.slice(20, 32)}": failed to connect to localhost:${port} inside namespace "${sandboxId}", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused IPv6 dial tcp6 [::1]:${port}: connect: connection refused `;
}
