// Tar archives as a simulated container's tar writes and reads them: `tar cf -` (what `kubectl cp` from
// a pod runs) writes ustar headers (a GNU long-name entry before a name that does not fit), data padded
// to 512 bytes, two zero blocks, the whole padded to GNU tar's 10,240-byte record; `tar x` (what `kubectl
// cp` into a pod runs) reads what Go's archive/tar writes. By hand because the simulated shell is
// synchronous, and tar-stream's packer and extractor are streams.

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

/** A member read back, or why the archive could not be read (GNU tar's words). */
export type TarRead = { entries: TarEntry[] } | { error: string };

/**
 * Reads an archive as `tar x` does (what `kubectl cp` into a pod sends: Go's archive/tar, ustar with PAX
 * or GNU long names when a name does not fit): regular files, directories and symbolic links; other
 * member types are passed over.
 */
export function readTarArchive(data: Buffer): TarRead {
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  let paxPath: string | undefined;
  let paxLink: string | undefined;
  for (let at = 0; at + block <= data.length; ) {
    const h = data.subarray(at, at + block);
    if (h.every((b) => b === 0)) break;
    if (!checksumMatches(h)) return { error: entries.length === 0 ? 'This does not look like a tar archive' : 'Skipping to next header' };
    const size = readOctal(h, 124, 12);
    const body = data.subarray(at + block, at + block + size);
    at += block + Math.ceil(size / block) * block;
    const type = String.fromCharCode(h[156] ?? 0);
    if (type === 'L') {
      longName = cString(body, 0, body.length);
      continue;
    }
    if (type === 'x') {
      const records = paxRecords(body);
      paxPath = records.get('path');
      paxLink = records.get('linkpath');
      continue;
    }
    const ustar = h.subarray(257, 262).toString('latin1') === 'ustar';
    const prefix = ustar ? cString(h, 345, 155) : '';
    const name = longName ?? paxPath ?? (prefix ? `${prefix}/${cString(h, 0, 100)}` : cString(h, 0, 100));
    const linkname = paxLink ?? cString(h, 157, 100);
    longName = paxPath = paxLink = undefined;
    const mode = readOctal(h, 100, 8);
    const mtimeSeconds = readOctal(h, 136, 12);
    if (type === '0' || type === '\u0000') entries.push({ name, type: 'file', mode, mtimeSeconds, data: Buffer.from(body) });
    else if (type === '5') entries.push({ name, type: 'dir', mode, mtimeSeconds });
    else if (type === '2') entries.push({ name, type: 'link', mode, mtimeSeconds, linkname });
  }
  return { entries };
}

function checksumMatches(h: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < block; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] ?? 0);
  return sum === readOctal(h, 148, 8);
}

function readOctal(h: Buffer, at: number, width: number): number {
  const text = h.subarray(at, at + width).toString('latin1').replace(/[\0 ]+$/, '').trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function cString(b: Buffer, at: number, width: number): string {
  const field = b.subarray(at, at + width);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? field.length : end).toString('utf8');
}

/** A PAX extended header's `length key=value\n` records. */
function paxRecords(body: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  for (let at = 0; at < body.length; ) {
    const space = body.indexOf(0x20, at);
    const length = Number.parseInt(body.subarray(at, space).toString('latin1'), 10);
    if (space < 0 || !Number.isFinite(length) || length <= 0) break;
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}
