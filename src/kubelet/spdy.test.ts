import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Duplex, PassThrough, Writable } from 'node:stream';
import { constants, createDeflate, createInflate } from 'node:zlib';
import type { Deflate, Inflate } from 'node:zlib';
import { SpdySession, headerBlock, parseHeaderBlock } from './spdy.ts';
import type { SpdyStream } from './spdy.ts';
import { spdyHeaderDictionary } from './spdy-dictionary.ts';
import { spdySessionTransport, stderrStream, stdoutStream } from './exec-transport.ts';

/** What kubectl's spdystream does on its side: frames with header blocks from one deflate stream. */
class Client {
  readonly toServer = new PassThrough();
  /** The server's socket writes, each acknowledged at once unless `hold` picks it: then only at release(). */
  readonly fromServer = new Writable({
    write: (chunk: Buffer, _encoding, callback: () => void) => {
      this.#received = Buffer.concat([this.#received, chunk]);
      if (this.#hold(chunk)) this.#held.push(callback);
      else callback();
    },
  });
  readonly serverSide = Duplex.from({ readable: this.toServer, writable: this.fromServer });
  readonly #deflate: Deflate = createDeflate({ dictionary: spdyHeaderDictionary });
  readonly #inflate: Inflate = createInflate({ dictionary: spdyHeaderDictionary });
  readonly #hold: (chunk: Buffer) => boolean;
  readonly #held: (() => void)[] = [];
  #received = Buffer.alloc(0);

  constructor(hold: (chunk: Buffer) => boolean = () => false) {
    this.#hold = hold;
  }

  release(): void {
    for (const callback of this.#held.splice(0)) callback();
  }

  async synStream(id: number, headers: Record<string, string>, byteByByte = false): Promise<void> {
    const block = await through(this.#deflate, headerBlock(new Map(Object.entries(headers))));
    const body = Buffer.concat([u32(id), u32(0), Buffer.from([0, 0]), block]);
    const frame = control(1, 0, body);
    if (!byteByByte) this.toServer.write(frame);
    else for (const byte of frame) this.toServer.write(Buffer.from([byte]));
  }

  data(id: number, payload: Buffer, fin: boolean): void {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(id, 0);
    head.writeUInt32BE(payload.length, 4);
    head[4] = fin ? 1 : 0;
    this.toServer.write(Buffer.concat([head, payload]));
  }

  ping(id: number): void {
    this.toServer.write(control(6, 0, u32(id)));
  }

  /** The frames the server has written so far: control frames by type, data by stream. */
  async frames(): Promise<{ type: number | 'data'; id: number; flags: number; body: Buffer }[]> {
    await new Promise((res) => setImmediate(res));
    const out: { type: number | 'data'; id: number; flags: number; body: Buffer }[] = [];
    let at = 0;
    while (at + 8 <= this.#received.length) {
      const length = this.#received.readUIntBE(at + 5, 3);
      const body = this.#received.subarray(at + 8, at + 8 + length);
      const flags = this.#received[at + 4] ?? 0;
      if (((this.#received[at] ?? 0) & 0x80) !== 0) out.push({ type: this.#received.readUInt16BE(at + 2), id: body.length >= 4 ? body.readUInt32BE(0) & 0x7fffffff : 0, flags, body });
      else out.push({ type: 'data', id: this.#received.readUInt32BE(at) & 0x7fffffff, flags, body });
      at += 8 + length;
    }
    return out;
  }

  async replyHeaders(body: Buffer): Promise<Map<string, string>> {
    return parseHeaderBlock(await through(this.#inflate, body.subarray(4)));
  }
}

function through(z: Deflate | Inflate, input: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const collect = (c: Buffer): number => out.push(c);
    z.on('data', collect);
    z.write(input);
    z.flush(constants.Z_SYNC_FLUSH, () => {
      z.off('data', collect);
      resolve(Buffer.concat(out));
    });
  });
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function control(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8003, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(body.length, 4);
  head[4] = flags;
  return Buffer.concat([head, body]);
}

const nextStream = (session: SpdySession): Promise<SpdyStream> => new Promise((res) => session.once('stream', res));

test('a new stream gets an empty SYN_REPLY and carries data both ways, ended by FIN', async () => {
  const client = new Client();
  const session = new SpdySession(client.serverSide);
  const arriving = nextStream(session);
  await client.synStream(1, { streamtype: 'data', port: '80', requestid: '0' }, true);
  const stream = await arriving;
  assert.deepEqual(Object.fromEntries(stream.headers), { streamtype: 'data', port: '80', requestid: '0' });
  const [reply] = await client.frames();
  assert.deepEqual([reply?.type, reply?.id, reply?.flags], [2, 1, 0]);
  assert.equal((await client.replyHeaders(reply!.body)).size, 0);

  const got: Buffer[] = [];
  stream.on('data', (c: Buffer) => got.push(c));
  const ended = new Promise((res) => stream.once('end', res));
  client.data(1, Buffer.from('hello'), false);
  client.data(1, Buffer.from(' world'), true);
  await ended;
  assert.equal(Buffer.concat(got).toString(), 'hello world');
  // Each data frame read reopens the stream's and the session's window.
  const updates = (await client.frames()).filter((f) => f.type === 9).map((f) => [f.id, f.body.readUInt32BE(4)]);
  assert.deepEqual(updates, [[1, 5], [0, 5], [1, 6], [0, 6]]);

  await new Promise<void>((res) => stream.end('bye', () => res()));
  const data = (await client.frames()).filter((f) => f.type === 'data');
  assert.deepEqual(data.map((f) => [f.id, f.body.toString(), f.flags]), [[1, 'bye', 0], [1, '', 1]]);
  session.close();
});

test("a PING is echoed with its id, and a second stream's headers inflate from the same zlib stream", async () => {
  const client = new Client();
  const session = new SpdySession(client.serverSide);
  let arriving = nextStream(session);
  await client.synStream(1, { streamtype: 'error', port: '8000', requestid: '7' });
  await arriving;
  arriving = nextStream(session);
  await client.synStream(3, { streamtype: 'data', port: '8000', requestid: '7' });
  assert.equal((await arriving).headers.get('streamtype'), 'data');
  client.ping(9);
  const frames = await client.frames();
  const ping = frames.find((f) => f.type === 6);
  assert.deepEqual([ping?.id, ping?.flags], [9, 0]);
  const replies = frames.filter((f) => f.type === 2);
  assert.deepEqual(replies.map((f) => f.id), [1, 3]);
  assert.equal((await client.replyHeaders(replies[0]!.body)).size, 0);
  assert.equal((await client.replyHeaders(replies[1]!.body)).size, 0);
  session.close();
});

test('a malformed frame or header block ends the session without throwing', async () => {
  for (const garbage of [control(1, 0, Buffer.from([0, 0, 0, 1])), control(1, 0, Buffer.concat([u32(1), u32(0), Buffer.from([0, 0]), Buffer.from('not zlib at all')]))]) {
    const client = new Client();
    const session = new SpdySession(client.serverSide);
    const closed = new Promise((res) => session.once('close', res));
    client.toServer.write(garbage);
    await closed;
  }
  // A frame whose length runs past what came waits for the rest; the peer going away ends the session.
  const client = new Client();
  const session = new SpdySession(client.serverSide);
  const closed = new Promise((res) => session.once('close', res));
  client.toServer.write(Buffer.alloc(64, 0xff));
  client.toServer.end();
  await closed;
});

test("an exec session's output leaves in the order it was written across its streams, the status after it and the FINs last, however slow the socket", async () => {
  const warning = "tar: Removing leading `/' from member names\n";
  // The socket is slow to take the first data frame: what is written meanwhile queues behind it.
  let first = true;
  const client = new Client((chunk) => ((chunk[0] ?? 0) & 0x80) === 0 && first && !(first = false));
  const session = new SpdySession(client.serverSide);
  const opening = spdySessionTransport(session, { stdin: false, stdout: true, stderr: true, tty: false });
  await client.synStream(1, { streamtype: 'error' });
  await client.synStream(3, { streamtype: 'stdout' });
  await client.synStream(5, { streamtype: 'stderr' });
  const transport = await opening;
  assert.ok(transport);
  const closed = new Promise((res) => session.once('close', res));
  transport.send(stderrStream, warning);
  transport.send(stderrStream, 'tar: Exiting with failure status due to previous errors\n');
  transport.send(stdoutStream, Buffer.from('archive'));
  transport.send(stderrStream, 'late\n');
  transport.end('{"status":"Success"}');
  await new Promise((res) => setImmediate(res));
  client.release();
  await closed;
  const data = (await client.frames()).filter((f) => f.type === 'data').map((f) => [f.id, f.body.toString(), f.flags]);
  assert.deepEqual(data.slice(0, 5), [
    [5, warning, 0],
    [5, 'tar: Exiting with failure status due to previous errors\n', 0],
    [3, 'archive', 0],
    [5, 'late\n', 0],
    [1, '{"status":"Success"}', 0],
  ]);
  assert.deepEqual(data.slice(5).map(([id, body, flags]) => [id, body, flags]).sort(), [[1, '', 1], [3, '', 1], [5, '', 1]]);
});
