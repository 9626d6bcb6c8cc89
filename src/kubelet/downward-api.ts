// What the downward API reads of a pod for env variables and downwardAPI volume items: its metadata
// fields, and a container's resources (a request or limit divided by the divisor and rounded up; a
// limit not set is the node's allocatable, as the kubelet merges it in before it reads them).
// Upstream: pkg/fieldpath/fieldpath.go (ExtractFieldPathAsString), pkg/api/v1/resource/helpers.go
// (ExtractContainerResourceValue, convertResource*ToString), pkg/kubelet/kubelet_resources.go
// (defaultPodLimitsForDownwardAPI).
import type { Container, Pod, ResourceFieldSelector } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { isZeroQuantity, ownValue, parseQuantity, quantityMilliValue, quantityValue } from '../core/index.ts';

/** What the node offers; the default of a limit the container does not set. */
export type Allocatable = Readonly<Record<string, string>> | undefined;

/** The resources besides hugepages-<size>; a limit not set is the allocatable's for each. */
const defaultedLimits = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** A metadata field's value (a single label or annotation by key, '' when absent); undefined for other paths. */
export function metadataFieldValue(pod: DeepReadonly<Pod>, path: string): string | undefined {
  const meta = pod.metadata;
  const keyed = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (keyed) return ownValue((keyed[1] === 'labels' ? meta.labels : meta.annotations) ?? undefined, keyed[2] ?? '') ?? '';
  switch (path) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    default:
      return undefined;
  }
}

/** The value, or the error the kubelet reports (the container then does not start). */
export function containerResourceValue(selector: DeepReadonly<ResourceFieldSelector>, pod: DeepReadonly<Pod>, own: DeepReadonly<Container> | undefined, allocatable: Allocatable): { value: string } | { error: string } {
  const name = selector.containerName;
  const c = name ? [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((x) => x.name === name) : own;
  if (!c) return { error: `container ${name ?? ''} not found` };
  // A zero divisor (the defaulted '0') is 1.
  const given = selector.divisor ? parseQuantity(selector.divisor) : undefined;
  const divisor = given && !isZeroQuantity(given) ? given : parseQuantity('1');
  const [kind = '', resource = ''] = splitOnce(selector.resource, '.');
  const known = (kind === 'limits' || kind === 'requests') && (defaultedLimits.has(resource) || resource.startsWith('hugepages-'));
  let text = known ? ownValue(kind === 'limits' ? c.resources?.limits : c.resources?.requests, resource) : undefined;
  if (text === undefined && kind === 'limits' && defaultedLimits.has(resource)) text = ownValue(allocatable, resource);
  const amount = parseQuantity(text ?? '0');
  if (!known || !divisor || !amount) return { error: `unsupported container resource : ${selector.resource}` };
  // convertResourceCPUToString divides milli-values; the others divide values.
  const value = resource === 'cpu' ? Math.ceil(quantityMilliValue(amount) / quantityMilliValue(divisor)) : Math.ceil(quantityValue(amount) / quantityValue(divisor));
  return { value: String(value) };
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
