// Validators for the documents served as they are built (discovery, OpenAPI): an entity tag that is
// the SHA-512 of the document, and 304 Not Modified for a client whose copy is current, so kubectl's
// HTTP cache (~/.kube/cache/http) revalidates instead of downloading again.
// Upstream: apiserver/pkg/endpoints/discovery/aggregated/etag.go; Go's net/http ServeContent
// (checkIfNoneMatch, checkIfModifiedSince, writeNotModified), which kube-openapi's handlers call.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';

/** SHA-512 in upper-case hex: kube-openapi's document hash and the aggregated discovery ETag. */
export function contentHash(body: string | Uint8Array): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}

/** A document served as bytes with its validators. */
export interface ServedDocument {
  readonly body: Uint8Array;
  /** Quoted, as the ETag header carries it: `"<HASH>"`. */
  readonly etag: string;
  /** Wall-clock milliseconds when this version was built: the Last-Modified header. */
  readonly lastModified: number;
}

/**
 * http.ServeContent for a GET: 200 with the body, or 304 when If-None-Match names the document's tag
 * or, without If-None-Match, If-Modified-Since is not before it. The 304 keeps the caching headers
 * (`extra`, ETag) and drops the content's, and Last-Modified too since an ETag is there.
 */
export function serveContent(req: IncomingMessage, res: ServerResponse, doc: ServedDocument, contentType: string, extra: Record<string, string> = {}): void {
  const lastModified = new Date(doc.lastModified).toUTCString();
  if (isNotModified(req, doc.etag, doc.lastModified)) {
    res.writeHead(304, { ...extra, ETag: doc.etag });
    res.end();
    return;
  }
  res.writeHead(200, { ...extra, 'Content-Type': contentType, ETag: doc.etag, 'Last-Modified': lastModified, 'Content-Length': doc.body.byteLength });
  res.end(doc.body);
}

function isNotModified(req: IncomingMessage, etag: string, lastModified: number): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatch !== '') return noneMatchHits(ifNoneMatch, etag);
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince === undefined || ifModifiedSince === '') return false;
  const since = Date.parse(ifModifiedSince);
  // HTTP dates have whole seconds; Go truncates the modification time to compare.
  return !Number.isNaN(since) && Math.floor(lastModified / 1000) * 1000 <= since;
}

/** checkIfNoneMatch: `*`, or any listed tag equal to ours by weak comparison (W/ ignored). */
function noneMatchHits(header: string, etag: string): boolean {
  let rest = header;
  for (;;) {
    rest = rest.trim();
    if (rest === '') return false;
    if (rest.startsWith(',')) {
      rest = rest.slice(1);
      continue;
    }
    if (rest.startsWith('*')) return true;
    const tag = scanETag(rest);
    if (tag === undefined) return false;
    if (tag.replace(/^W\//, '') === etag.replace(/^W\//, '')) return true;
    rest = rest.slice(tag.length);
  }
}

/** The entity tag at the start of `s` (`"x"` or `W/"x"`), or undefined when there is none. */
function scanETag(s: string): string | undefined {
  const start = s.startsWith('W/') ? 2 : 0;
  if (s.length - start < 2 || s[start] !== '"') return undefined;
  for (let i = start + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) return s.slice(0, i + 1);
    if (!(c === 0x21 || (c >= 0x23 && c <= 0x7e) || c >= 0x80)) return undefined;
  }
  return undefined;
}
