// Content negotiation: which representation a client asked for in Accept, and how a body
// was sent. Upstream: apiserver/pkg/endpoints/handlers/negotiation/negotiate.go.
import { ApiError, badRequest } from '../core/index.ts';

export interface MediaType {
  type: string;
  params: Record<string, string>;
  raw: string;
}

export function parseMediaTypes(header: string | undefined): MediaType[] {
  if (!header) return [];
  return header.split(',').map((part) => {
    const [typePart = '', ...paramParts] = part.split(';');
    const params: Record<string, string> = {};
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
    }
    return { type: typePart.trim().toLowerCase(), params, raw: part.trim() };
  }).filter((m) => m.type !== '');
}

export type Representation =
  | { kind: 'json' }
  | { kind: 'yaml' }
  | { kind: 'table'; contentType: string; includeObject: 'None' | 'Metadata' | 'Object' }
  | { kind: 'partial-metadata'; contentType: string; list: boolean }
  | { kind: 'discovery'; contentType: string; apiVersion: string };

const jsonLike = new Set(['application/json', '*/*', 'application/*', 'application/vnd.kubernetes.protobuf']);

/**
 * Picks the first acceptable entry. Protobuf is answered as JSON (clients that send
 * `protobuf,json` accept either); an Accept with nothing we can produce is a 406.
 */
export function negotiate(header: string | undefined, query: URLSearchParams, allow: { table: boolean; discovery: boolean }): Representation {
  // What most clients send, answered without parsing it into media types on every request.
  if (header === 'application/json' || header === '*/*') return { kind: 'json' };
  const types = parseMediaTypes(header);
  if (types.length === 0) return { kind: 'json' };
  for (const m of types) {
    const as = m.params.as;
    if (as === 'Table' && allow.table && (m.params.g === 'meta.k8s.io') && (m.params.v === 'v1' || m.params.v === 'v1beta1')) {
      const include = query.get('includeObject') ?? '';
      // optionsForTransform: ValidateTableOptions's one error, as a 400.
      if (!['', 'Metadata', 'Object', 'None'].includes(include)) {
        throw badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(include)}: must be 'Metadata', 'Object', 'None', or empty`);
      }
      const includeObject = include === 'None' || include === 'Object' ? include : 'Metadata';
      return { kind: 'table', contentType: `application/json;as=Table;v=${m.params.v};g=meta.k8s.io`, includeObject };
    }
    if ((as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') && m.params.g === 'meta.k8s.io') {
      return { kind: 'partial-metadata', contentType: `application/json;as=${as};v=${m.params.v ?? 'v1'};g=meta.k8s.io`, list: as.endsWith('List') };
    }
    if (as === 'APIGroupDiscoveryList' && allow.discovery && m.params.g === 'apidiscovery.k8s.io' && (m.params.v === 'v2' || m.params.v === 'v2beta1')) {
      return { kind: 'discovery', contentType: `application/json;g=apidiscovery.k8s.io;v=${m.params.v};as=APIGroupDiscoveryList`, apiVersion: `apidiscovery.k8s.io/${m.params.v}` };
    }
    if (as) continue;
    if (m.type === 'application/yaml') return { kind: 'yaml' };
    if (jsonLike.has(m.type)) return { kind: 'json' };
  }
  throw new ApiError('NotAcceptable', `only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf`);
}

export type BodyType = 'json' | 'yaml' | 'protobuf';

export function bodyType(contentType: string | undefined): BodyType | undefined {
  if (contentType === 'application/json') return 'json';
  const [first] = parseMediaTypes(contentType);
  if (!first) return 'json';
  switch (first.type) {
    case 'application/json':
      return 'json';
    case 'application/yaml':
    case 'application/apply-patch+yaml':
      return 'yaml';
    case 'application/vnd.kubernetes.protobuf':
      return 'protobuf';
    case 'application/json-patch+json':
    case 'application/merge-patch+json':
    case 'application/strategic-merge-patch+json':
      return 'json';
    default:
      return undefined;
  }
}
