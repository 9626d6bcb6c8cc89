// The server side of a SPDY/3.1 session, as much of it as kubectl's streams need (moby/spdystream is
// the client): frames in and out, header blocks through one zlib stream a direction with SPDY's
// dictionary, each peer stream a Duplex, PINGs echoed, windows reopened as data is read.
// Upstream: moby/spdystream (connection.go, stream.go, spdy/{read,write,types}.go), the SPDY/3 draft.
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import { constants as zlibConstants, createDeflate, createInflate } from 'node:zlib';
import type { Deflate, Inflate } from 'node:zlib';
import { spdyHeaderDictionary } from './spdy-dictionary.ts';

const version = 3;
const controlBit = 0x80;
const flagFin = 0x01;
const frameType = { synStream: 1, synReply: 2, rstStream: 3, ping: 6, goAway: 7, headers: 8, windowUpdate: 9 } as const;
/** RST_STREAM's CANCEL, what spdystream's Reset sends. */
const rstCancel = 5;
const maxDataChunk = 32 * 1024;
/** The fixed fields of each control frame this session reads (a SYN_STREAM's block is at least its count). */
const minimumLength: Record<number, number> = { [frameType.synStream]: 14, [frameType.rstStream]: 8, [frameType.ping]: 4, [frameType.goAway]: 8, [frameType.headers]: 8, [frameType.windowUpdate]: 8 };

export type SpdyHeaders = Map<string, string>;

/** One stream the client opened: its headers, its data in and out. */
export class SpdyStream extends Duplex {
  readonly id: number;
  readonly headers: SpdyHeaders;
  readonly #session: SpdySession;
  #finSent = false;

  constructor(session: SpdySession, id: number, headers: SpdyHeaders) {
    super({ allowHalfOpen: true });
    this.#session = session;
    this.id = id;
    this.headers = headers;
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#session.sendData(this.id, chunk, false).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#finSent = true;
    this.#session.sendData(this.id, Buffer.alloc(0), true).then(() => callback(), callback);
  }

  /** Ends the stream abruptly (RST_STREAM), as spdystream's Reset. */
  reset(): void {
    if (!this.#finSent) this.#session.sendReset(this.id, rstCancel);
    this.destroy();
  }

  /** Data from the peer. */
  received(data: Buffer, fin: boolean): void {
    if (data.length > 0) this.push(data);
    if (fin) this.push(null);
  }
}

/** Whether the request asks to upgrade to SPDY/3.1 offering `protocol` among its stream protocols. */
export function wantsSpdy(req: IncomingMessage, protocol: string): boolean {
  const versions = String(req.headers['x-stream-protocol-version'] ?? '').split(',').map((v) => v.trim());
  return (req.headers.upgrade ?? '').toLowerCase().startsWith('spdy/3.1') && versions.includes(protocol);
}

/**
 * Answers an HTTP upgrade to SPDY/3.1 with the stream protocol chosen (X-Stream-Protocol-Version), as
 * httpstream/spdy's ResponseUpgrader does; the request's socket then carries the session.
 */
export function acceptSpdyUpgrade(req: IncomingMessage, protocol: string): Duplex {
  req.socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${protocol}\r\n\r\n`);
  return req.socket;
}

/** A SPDY/3.1 server session over a byte stream; 'stream' is emitted once each new stream has its reply. */
export class SpdySession extends EventEmitter {
  readonly #socket: Duplex;
  readonly #inflate: Inflate;
  readonly #deflate: Deflate;
  readonly #streams = new Map<number, SpdyStream>();
  #input: Buffer = Buffer.alloc(0);
  /** Frames are handled, and written, one after another: header blocks share one zlib stream a direction. */
  #inbound: Promise<void> = Promise.resolve();
  #outbound: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(socket: Duplex) {
    super();
    this.#socket = socket;
    this.#inflate = createInflate({ dictionary: spdyHeaderDictionary });
    this.#deflate = createDeflate({ dictionary: spdyHeaderDictionary });
    // A header block that does not inflate ends the session (the pending block's own handler sees it too).
    this.#inflate.on('error', () => this.close());
    this.#deflate.on('error', () => this.close());
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.once('close', () => this.close());
    socket.once('end', () => this.close());
    socket.on('error', () => this.close());
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const s of this.#streams.values()) s.destroy();
    this.#streams.clear();
    this.#inflate.close();
    this.#deflate.close();
    if (!this.#socket.destroyed) this.#socket.end();
    this.emit('close');
  }

  #receive(chunk: Buffer): void {
    this.#input = this.#input.length === 0 ? chunk : Buffer.concat([this.#input, chunk]);
    while (this.#input.length >= 8) {
      const length = this.#input.readUIntBE(5, 3);
      if (this.#input.length < 8 + length) break;
      const frame = this.#input.subarray(0, 8 + length);
      this.#input = this.#input.subarray(8 + length);
      this.#inbound = this.#inbound.then(() => this.#handle(frame)).catch(() => this.close());
    }
  }

  async #handle(frame: Buffer): Promise<void> {
    if (this.#closed) return;
    const flags = frame[4] ?? 0;
    const body = frame.subarray(8);
    if (((frame[0] ?? 0) & controlBit) === 0) {
      const id = frame.readUInt32BE(0) & 0x7fffffff;
      const stream = this.#streams.get(id);
      // The client may still send on a stream it has reset: dropped.
      if (!stream) return;
      // The data is taken as it comes: the windows reopen at once (the Duplex buffers it).
      if (body.length > 0) this.#write(windowUpdate(id, body.length), windowUpdate(0, body.length));
      stream.received(body, (flags & flagFin) !== 0);
      return;
    }
    const type = frame.readUInt16BE(2);
    // A control frame too short for its fields is a protocol error: the session ends.
    if (body.length < (minimumLength[type] ?? 0)) return this.close();
    if (type === frameType.synStream) return this.#synStream(body, flags);
    if (type === frameType.rstStream) this.#streams.get(body.readUInt32BE(0) & 0x7fffffff)?.destroy();
    else if (type === frameType.ping) this.#write(controlFrame(frameType.ping, 0, body));
    else if (type === frameType.goAway) this.close();
    // A HEADERS block still passes through the inflater, which the next block depends on.
    else if (type === frameType.headers) await this.#inflateHeaders(body.subarray(4));
    // SETTINGS and WINDOW_UPDATE need nothing: data goes out as it is written (spdystream reads without windows).
  }

  async #synStream(body: Buffer, flags: number): Promise<void> {
    const id = body.readUInt32BE(0) & 0x7fffffff;
    const headers = await this.#inflateHeaders(body.subarray(10));
    const stream = new SpdyStream(this, id, headers);
    this.#streams.set(id, stream);
    stream.once('close', () => this.#streams.delete(id));
    await this.#reply(id);
    if ((flags & flagFin) !== 0) stream.received(Buffer.alloc(0), true);
    this.emit('stream', stream);
  }

  /** SYN_REPLY with no headers, as the API server's stream handler replies to every new stream. */
  async #reply(id: number): Promise<void> {
    const block = await this.#deflateHeaders(new Map());
    const head = Buffer.alloc(4);
    head.writeUInt32BE(id);
    await this.#write(controlFrame(frameType.synReply, 0, Buffer.concat([head, block])));
  }

  sendData(id: number, data: Buffer, fin: boolean): Promise<void> {
    const frames: Buffer[] = [];
    for (let at = 0; at < data.length || (fin && frames.length === 0); at += maxDataChunk) {
      const piece = data.subarray(at, at + maxDataChunk);
      const last = at + maxDataChunk >= data.length;
      frames.push(dataFrame(id, piece, fin && last));
    }
    return this.#write(...frames);
  }

  sendReset(id: number, status: number): void {
    const body = Buffer.alloc(8);
    body.writeUInt32BE(id & 0x7fffffff, 0);
    body.writeUInt32BE(status, 4);
    void this.#write(controlFrame(frameType.rstStream, 0, body));
  }

  /** Writes frames in order after what is queued; a closed session drops them. */
  #write(...frames: Buffer[]): Promise<void> {
    this.#outbound = this.#outbound.then(
      () =>
        new Promise<void>((resolve) => {
          if (this.#closed || this.#socket.destroyed) return resolve();
          this.#socket.write(Buffer.concat(frames), () => resolve());
        }),
    );
    return this.#outbound;
  }

  async #inflateHeaders(block: Buffer): Promise<SpdyHeaders> {
    return parseHeaderBlock(await flushThrough(this.#inflate, block));
  }

  #deflateHeaders(headers: SpdyHeaders): Promise<Buffer> {
    return flushThrough(this.#deflate, headerBlock(headers));
  }
}

/** Passes one block through a zlib stream that lives as long as the session, ending it with a sync flush. */
function flushThrough(z: Inflate | Deflate, input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const collect = (chunk: Buffer): number => out.push(chunk);
    z.on('data', collect);
    z.once('error', reject);
    z.write(input);
    z.flush(zlibConstants.Z_SYNC_FLUSH, () => {
      z.off('data', collect);
      z.off('error', reject);
      resolve(Buffer.concat(out));
    });
  });
}

function controlFrame(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | version, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(body.length, 4);
  head[4] = flags;
  return Buffer.concat([head, body]);
}

function dataFrame(id: number, data: Buffer, fin: boolean): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(id & 0x7fffffff, 0);
  head.writeUInt32BE(data.length, 4);
  head[4] = fin ? flagFin : 0;
  return Buffer.concat([head, data]);
}

function windowUpdate(id: number, delta: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeUInt32BE(id & 0x7fffffff, 0);
  body.writeUInt32BE(delta & 0x7fffffff, 4);
  return controlFrame(frameType.windowUpdate, 0, body);
}

/** An uncompressed SPDY/3 header block: a count, then length-prefixed names and values. */
export function headerBlock(headers: SpdyHeaders): Buffer {
  const parts: Buffer[] = [u32(headers.size)];
  for (const [name, value] of headers) {
    const n = Buffer.from(name.toLowerCase());
    const v = Buffer.from(value);
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

export function parseHeaderBlock(raw: Buffer): SpdyHeaders {
  const headers: SpdyHeaders = new Map();
  if (raw.length < 4) return headers;
  const count = raw.readUInt32BE(0);
  let at = 4;
  for (let i = 0; i < count && at + 4 <= raw.length; i++) {
    const nameLength = raw.readUInt32BE(at);
    const name = raw.subarray(at + 4, at + 4 + nameLength).toString();
    at += 4 + nameLength;
    const valueLength = raw.readUInt32BE(at);
    // Several values of one name are joined by NUL; the first is the one a reader takes.
    const value = raw.subarray(at + 4, at + 4 + valueLength).toString().split('\u0000')[0] ?? '';
    at += 4 + valueLength;
    headers.set(name.toLowerCase(), value);
  }
  return headers;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
