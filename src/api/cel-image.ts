// Kubernetes' Image library for CEL (in every environment since 1.33): image()/isImage() and an image
// reference's registry, repository, tag, digest and identifier, as go-containerregistry's
// name.ParseReference reads it (Docker Hub as index.docker.io, its official images under library/, the
// tag latest when neither tag nor digest is given).
// Upstream: staging/src/k8s.io/apiserver/pkg/cel/library/image.go, google/go-containerregistry
// pkg/name (ParseReference, NewTag, NewDigest, repository.go, registry.go).
import type { Environment } from '@marcbachmann/cel-js';

/** apiservercel.ImageReference. */
export class CelImage {
  readonly registry: string;
  readonly repository: string;
  readonly tag: string;
  readonly digest: string;
  constructor(parts: { registry: string; repository: string; tag: string; digest: string }) {
    ({ registry: this.registry, repository: this.repository, tag: this.tag, digest: this.digest } = parts);
  }
  /** Identifier(): the digest when there is one, else the tag. */
  get identifier(): string {
    return this.digest || this.tag;
  }
}

const dockerHub = 'index.docker.io';
const repositoryChars = /^[a-z0-9_./-]+$/;
const tagPattern = /^[\w][\w.-]{0,127}$/;
const digestPattern = /^sha256:[0-9a-f]{64}$/;

/** name.NewRepository: the registry (the first part when it looks like a host), the repository path. */
function repositoryOf(name: string): { registry: string; repository: string } | undefined {
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const isHost = first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost');
  // docker.io is Docker Hub's alias.
  const registry = !isHost || first === 'docker.io' ? dockerHub : first;
  let repository = isHost ? name.slice(slash + 1) : name;
  if (repository === '' || !repositoryChars.test(repository) || repository.split('/').some((part) => part === '')) return undefined;
  if (registry === dockerHub && !repository.includes('/')) repository = `library/${repository}`;
  return { registry, repository };
}

/** name.NewTag: the repository and the tag after its last ':' (latest when none). */
function tagReference(text: string): CelImage | undefined {
  const colon = text.lastIndexOf(':');
  const hasTag = colon > text.lastIndexOf('/');
  const tag = hasTag ? text.slice(colon + 1) : 'latest';
  if (!tagPattern.test(tag)) return undefined;
  const repo = repositoryOf(hasTag ? text.slice(0, colon) : text);
  return repo && new CelImage({ ...repo, tag, digest: '' });
}

/** name.NewDigest: the repository (a tag before the '@' allowed) and a sha256 digest. */
function digestReference(text: string): CelImage | undefined {
  const at = text.indexOf('@');
  if (at < 0) return undefined;
  const digest = text.slice(at + 1);
  const base = tagReference(text.slice(0, at));
  if (!base || !digestPattern.test(digest)) return undefined;
  return new CelImage({ registry: base.registry, repository: base.repository, tag: '', digest });
}

/** name.ParseReference: a tag reference, else a digest reference. */
export function parseImageReference(text: string): CelImage | undefined {
  return (text.includes('@') ? undefined : tagReference(text)) ?? digestReference(text);
}

function mustImage(text: string): CelImage {
  const image = parseImageReference(text);
  if (!image) throw new Error(`could not parse reference: ${text}`);
  return image;
}

/** Registers the Image type and its functions on `env`. */
export function withImageLibrary(env: Environment): Environment {
  return env
    .registerType('kubernetes.Image', CelImage)
    .registerFunction('image(string): kubernetes.Image', mustImage)
    .registerFunction('isImage(string): bool', (s: string) => parseImageReference(s) !== undefined)
    .registerFunction('kubernetes.Image.containsDigest(): bool', (i: CelImage) => i.digest !== '')
    .registerFunction('kubernetes.Image.registry(): string', (i: CelImage) => i.registry)
    .registerFunction('kubernetes.Image.repository(): string', (i: CelImage) => i.repository)
    .registerFunction('kubernetes.Image.tag(): string', (i: CelImage) => i.tag)
    .registerFunction('kubernetes.Image.digest(): string', (i: CelImage) => i.digest)
    .registerFunction('kubernetes.Image.identifier(): string', (i: CelImage) => i.identifier);
}
