// Image references as a containerd-backed kubelet reports them: the fully qualified name in
// `image` and a digest reference in `imageID`. Simulated digests are a hash of the name.
import { createHash } from 'node:crypto';
import { boundedMemo } from '../core/index.ts';

/** `nginx` -> `docker.io/library/nginx:latest`; `ghcr.io/x/y:1` stays. */
export function normalizeImage(image: string): string {
  if (image === '') return image;
  const [name = '', digest] = image.split('@');
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasRegistry = slash >= 0 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let full = hasRegistry ? name : slash < 0 ? `docker.io/library/${name}` : `docker.io/${name}`;
  const last = full.slice(full.lastIndexOf('/') + 1);
  if (!digest && !last.includes(':')) full += ':latest';
  return digest ? `${full}@${digest}` : full;
}

export function imageDigest(image: string): string {
  return `sha256:${createHash('sha256').update(normalizeImage(image)).digest('hex')}`;
}

// Every status write of a running container names its imageID, a SHA-256 of the reference; a
// cluster runs a handful of images, so the IDs are kept (a small cache, emptied when full).
/** `docker.io/library/nginx@sha256:...`. */
export const imageID: (image: string) => string = boundedMemo(1024, (image) => digestReference(image));

function digestReference(image: string): string {
  const normalized = normalizeImage(image);
  const at = normalized.indexOf('@');
  if (at >= 0) return normalized;
  const last = normalized.lastIndexOf(':');
  const repo = last > normalized.lastIndexOf('/') ? normalized.slice(0, last) : normalized;
  return `${repo}@${imageDigest(image)}`;
}

/** A stable, plausible image size, the same for every way of writing the reference (Pulled events, the Node's images). */
export function imageSizeBytes(image: string): number {
  const h = createHash('sha256').update(normalizeImage(image)).digest();
  return 5_000_000 + (h.readUInt32BE(0) % 200_000_000);
}

/** node.status.images' most: nodeStatusMaxImages' default. */
const nodeStatusMaxImages = 50;

/**
 * The Images setter's list: the node's images largest first, at most 50, each named by its digest
 * reference then its tag (the runtime's RepoDigests, then RepoTags).
 * Upstream: pkg/kubelet/nodestatus/setters.go (Images), pkg/kubelet/images (GetImageList, sorted by size).
 */
export function nodeImages(references: Iterable<string>): { names: string[]; sizeBytes: number }[] {
  const images = [...references].map((ref) => ({ names: ref.includes('@') ? [ref] : [imageID(ref), ref], sizeBytes: imageSizeBytes(ref) }));
  return images.sort((a, b) => b.sizeBytes - a.sizeBytes).slice(0, nodeStatusMaxImages);
}
