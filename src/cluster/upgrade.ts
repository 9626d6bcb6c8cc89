// Requests that ask to switch protocols (kubectl exec's WebSocket) go through the same handler as
// every other request, so authentication, authorization and the routes apply. A route that upgrades
// takes the socket; any other answer goes out on it and closes it, since Node's HTTP parser has left it.
import { ServerResponse } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export function serveUpgrade(handler: (req: IncomingMessage, res: ServerResponse) => void, req: IncomingMessage, socket: Socket, head: Buffer): void {
  // Bytes that came with the request's headers are the new protocol's: the upgrading route reads them.
  if (head.length > 0) socket.unshift(head);
  socket.on('error', () => socket.destroy());
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  res.once('finish', () => {
    res.detachSocket(socket);
    socket.end();
  });
  handler(req, res);
}
