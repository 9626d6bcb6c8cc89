// How an exec or attach session's standard streams travel: WebSocket binary messages whose first byte
// names the stream (v5/v4.channel.k8s.io, kubectl 1.30+ and the client libraries), or one SPDY/3.1
// stream each (v4.channel.k8s.io over SPDY, older kubectl and client-go's SPDY executor).
// Upstream: apiserver/pkg/util/proxy/websocket.go, kubelet cri/streaming/remotecommand/httpstream.go
// (createHTTPStreamStreams, v4ProtocolHandler), apimachinery httpstream/spdy/upgrade.go.
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { acceptSpdyUpgrade, SpdySession, wantsSpdy } from './spdy.ts';
import type { SpdyStream } from './spdy.ts';

export const stdinStream = 0;
export const stdoutStream = 1;
export const stderrStream = 2;
export const errorStream = 3;
const closeSignal = 255;

/** The remote command protocol spoken over SPDY: the status as JSON on the error stream. */
export const spdyExecProtocol = 'v4.channel.k8s.io';

export interface ExecTransportEvents {
  /** Standard input's bytes as they come (a tar archive for `kubectl cp` into a pod is binary). */
  input(data: Buffer): void;
  inputEnd(): void;
  /** The client has gone. */
  closed(): void;
}

export interface ExecTransport {
  /** Writes to stdout, stderr or the error stream (an empty write on the WebSocket says the streams are open). */
  send(stream: number, data: string | Buffer): void;
  /** The command's status on the error stream, then the end of the session. */
  end(status: string): void;
  listen(events: ExecTransportEvents): void;
}

export function webSocketTransport(ws: WebSocket): ExecTransport {
  const send = (stream: number, data: string | Buffer): void => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(Buffer.concat([Buffer.from([stream]), typeof data === 'string' ? Buffer.from(data, 'utf8') : data]), { binary: true });
  };
  return {
    send,
    end(status) {
      send(errorStream, status);
      ws.close(1000);
    },
    listen(events) {
      ws.on('message', (data: Buffer) => {
        const stream = data[0];
        if (stream === stdinStream) events.input(data.subarray(1));
        else if (stream === closeSignal && data[1] === stdinStream) events.inputEnd();
        // Resize (4) changes nothing a simulated shell prints.
      });
      ws.on('close', () => {
        events.closed();
        events.inputEnd();
      });
      ws.on('error', () => events.closed());
    },
  };
}

/** Whether the request asks for the SPDY upgrade with the remote command protocol served over it. */
export function wantsExecSpdy(req: IncomingMessage): boolean {
  return wantsSpdy(req, spdyExecProtocol);
}

export interface ExpectedStreams {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/**
 * Answers the SPDY upgrade and waits for the streams the options ask for (the error stream, each standard
 * stream asked for, resize with a terminal), as the kubelet waits before it runs anything.
 */
export function spdyTransport(req: IncomingMessage, expected: ExpectedStreams): Promise<ExecTransport | undefined> {
  return spdySessionTransport(new SpdySession(acceptSpdyUpgrade(req, spdyExecProtocol)), expected);
}

/**
 * The transport over a session once its streams are open. Output goes out in the order it was written,
 * whatever its stream, and the status after all of it, as the kubelet writes the status only once the
 * runtime has copied the command's output (a stream's own write buffer would hold a second write back
 * until the first is flushed, letting other streams' frames and the status pass it).
 */
export async function spdySessionTransport(session: SpdySession, expected: ExpectedStreams): Promise<ExecTransport | undefined> {
  const wanted = 1 + Number(expected.stdin) + Number(expected.stdout) + Number(expected.stderr && !expected.tty) + Number(expected.tty);
  const streams = new Map<string, SpdyStream>();
  const complete = await new Promise<boolean>((resolve) => {
    session.on('stream', (stream: SpdyStream) => {
      streams.set(stream.headers.get('streamtype') ?? '', stream);
      if (streams.size === wanted) resolve(true);
    });
    session.once('close', () => resolve(false));
  });
  if (!complete) return undefined;
  const byNumber = new Map([[stdoutStream, streams.get('stdout')], [stderrStream, streams.get('stderr')], [errorStream, streams.get('error')]]);
  const send = (stream: number, data: string | Buffer): void => {
    const to = byNumber.get(stream);
    if (to && data.length > 0) void session.sendData(to.id, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, false);
  };
  return {
    send,
    end(status) {
      send(errorStream, status);
      // Every stream's FIN written before the connection closes, as the kubelet's handler returns.
      const writable = [...streams.values()].filter((s) => s.writable);
      let left = writable.length;
      if (left === 0) session.close();
      for (const s of writable) s.end(() => --left === 0 && session.close());
    },
    listen(events) {
      const stdin = streams.get('stdin');
      stdin?.on('data', (chunk: Buffer) => events.input(chunk));
      stdin?.once('end', () => events.inputEnd());
      session.once('close', () => {
        events.closed();
        events.inputEnd();
      });
    },
  };
}
