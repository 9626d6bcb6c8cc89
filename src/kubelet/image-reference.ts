// Whether the kubelet can make sense of a container's image reference: before pulling, the image
// manager applies the default tag, which parses the reference as Docker's normalized names do; a
// reference that does not parse leaves the container waiting in InvalidImageName. Pure.
// Upstream: pkg/kubelet/images/image_manager.go (applyDefaultImageTag), pkg/util/parsers,
// github.com/distribution/reference (normalize.go ParseNormalizedNamed, reference.go Parse, regexp.go).
import { boundedMemo } from '../core/index.ts';

const alphaNumeric = '[a-z0-9]+';
const separator = '(?:[._]|__|[-]+)';
const pathComponent = `${alphaNumeric}(?:${separator}${alphaNumeric})*`;
const domainNameComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const host = `(?:${domainNameComponent}(?:\\.${domainNameComponent})*|\\[(?:[a-fA-F0-9:]+)\\])`;
const domainAndPort = `${host}(?::[0-9]+)?`;
const name = `(?:${domainAndPort}/)?${pathComponent}(?:/${pathComponent})*`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9a-fA-F]{32,}';
const referencePattern = new RegExp(`^(${name})(?::(${tag}))?(?:@(${digest}))?$`);
const anchoredIdentifier = /^[a-f0-9]{64}$/;
const nameTotalLengthMax = 255;

// Checked at every container start with a long pattern; a cluster runs a handful of images, so the
// answers are kept (a small cache, emptied when full).
/** The message the image manager reports for an image it cannot parse (its InspectFailed event), or undefined. */
export const invalidImageMessage: (image: string) => string | undefined = boundedMemo(1024, (image) => {
  const error = normalizedNameError(image);
  return error === undefined ? undefined : `Failed to apply default image tag ${JSON.stringify(image)}: couldn't parse image name ${JSON.stringify(image)}: ${error}`;
});

/** ParseNormalizedNamed's error for `s`, or undefined when it parses. */
function normalizedNameError(s: string): string | undefined {
  if (anchoredIdentifier.test(s)) return `invalid repository name (${s}), cannot specify 64-byte hexadecimal strings`;
  const [domain, remainder] = splitDockerDomain(s);
  const tagAt = remainder.indexOf(':');
  const remoteName = tagAt >= 0 ? remainder.slice(0, tagAt) : remainder;
  if (remoteName.toLowerCase() !== remoteName) return `invalid reference format: repository name (${remoteName}) must be lowercase`;
  return parseError(`${domain}/${remainder}`);
}

function splitDockerDomain(s: string): [string, string] {
  const slash = s.indexOf('/');
  const first = slash < 0 ? '' : s.slice(0, slash);
  let domain: string;
  let remainder: string;
  if (slash < 0 || (!/[.:]/.test(first) && first !== 'localhost' && first.toLowerCase() === first)) {
    domain = 'docker.io';
    remainder = s;
  } else {
    domain = first;
    remainder = s.slice(slash + 1);
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  return [domain, remainder];
}

/** reference.Parse's error, or undefined. */
function parseError(s: string): string | undefined {
  const match = referencePattern.exec(s);
  if (!match) {
    if (s === '') return 'repository name must have at least one component';
    if (referencePattern.test(s.toLowerCase())) return 'invalid reference format: repository name must be lowercase';
    return 'invalid reference format';
  }
  if ((match[1] ?? '').length > nameTotalLengthMax) return `repository name must not be more than ${nameTotalLengthMax} characters`;
  const digestText = match[3];
  if (digestText !== undefined) return digestError(digestText);
  return undefined;
}

/** go-digest's Validate for the algorithms it knows: sha256 (64 hex), sha384 (96), sha512 (128). */
function digestError(text: string): string | undefined {
  const colon = text.indexOf(':');
  const algorithm = text.slice(0, colon);
  const encoded = text.slice(colon + 1);
  const lengths: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };
  const length = Object.hasOwn(lengths, algorithm) ? lengths[algorithm] : undefined;
  if (length === undefined) return 'unsupported digest algorithm';
  if (encoded.length !== length) return 'invalid checksum digest length';
  return /^[a-f0-9]+$/.test(encoded) ? undefined : 'invalid checksum digest format';
}
