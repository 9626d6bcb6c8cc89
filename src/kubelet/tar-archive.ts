// A tar archive as `tar cf -` writes one to stdout (what `kubectl cp` from a pod runs): ustar headers
// (a GNU long-name entry before a name that does not fit), data padded to 512 bytes, two zero blocks,
// the whole padded to GNU tar's 10,240-byte record. Written by hand because the simulated shell is
// synchronous, and tar-stream's packer is a stream.

export interface TarEntry {
  /** The member name: relative, a directory's ending in '/'. */
  name: string;
  type: 'file' | 'dir' | 'link';
  mode: number;
  mtimeSeconds: number;
  data?: Buffer;
  linkname?: string;
}

const block = 512;
const record = 20 * block;

export function tarArchive(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const split = splitName(e.name);
    if (!split) member(parts, { name: '././@LongLink', type: 'longname', mode: 0o644, mtimeSeconds: 0, data: Buffer.from(`${e.name}\u0000`, 'utf8') }, { name: '././@LongLink', prefix: '' });
    member(parts, e, split ?? { name: e.name.slice(0, 100), prefix: '' });
  }
  const body = Buffer.concat(parts);
  const length = body.length + 2 * block;
  return Buffer.concat([body, Buffer.alloc(2 * block + ((record - (length % record)) % record))]);
}

function member(parts: Buffer[], e: TarEntry | (Omit<TarEntry, 'type'> & { type: 'longname' }), names: { name: string; prefix: string }): void {
  const data = e.type === 'file' || e.type === 'longname' ? (e.data ?? Buffer.alloc(0)) : Buffer.alloc(0);
  parts.push(header(e, names, data.length));
  if (data.length > 0) parts.push(data, Buffer.alloc((block - (data.length % block)) % block));
}

const typeFlags = { file: '0', dir: '5', link: '2', longname: 'L' };

function header(e: TarEntry | (Omit<TarEntry, 'type'> & { type: 'longname' }), { name, prefix }: { name: string; prefix: string }, size: number): Buffer {
  const h = Buffer.alloc(block);
  h.write(name, 0, 100, 'utf8');
  octal(h, 100, 8, e.mode & 0o7777);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, e.mtimeSeconds);
  h.fill(0x20, 148, 156);
  h.write(typeFlags[e.type], 156, 1, 'latin1');
  if (e.linkname) h.write(e.linkname, 157, 100, 'utf8');
  h.write('ustar\u000000', 257, 8, 'latin1');
  h.write('root', 265, 32, 'latin1');
  h.write('root', 297, 32, 'latin1');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8, 'latin1');
  return h;
}

/** A name over 100 bytes goes in two parts split at a '/': the prefix field and the name field; undefined when it cannot. */
function splitName(full: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(full) <= 100) return { name: full, prefix: '' };
  for (let at = full.indexOf('/'); at >= 0; at = full.indexOf('/', at + 1)) {
    const prefix = full.slice(0, at);
    const name = full.slice(at + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== '') return { name, prefix };
  }
  return undefined;
}

function octal(h: Buffer, at: number, width: number, value: number): void {
  h.write(`${value.toString(8).padStart(width - 1, '0')}\u0000`, at, width, 'latin1');
}
