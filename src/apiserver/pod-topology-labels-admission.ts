// PodTopologyLabels (KEP-4742, beta and on in 1.35): a pod bound to a node takes the node's zone and
// region labels, so the downward API can hand them to its containers. On a bind the plugin copies them
// onto the Binding, and the binding subresource copies the Binding's labels onto the pod, overwriting;
// a pod created with spec.nodeName gets them directly.
// Upstream: plugin/pkg/admission/podtopologylabels/admission.go,
// pkg/registry/core/pod/storage/storage.go (setPodNodeAndMetadata, copyLabelsWithOverwriting).
import type { Pod } from '../api/index.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission.ts';
import type { KubeObject } from '../core/index.ts';
import { nodeNow } from './watched-lookups.ts';

/** defaultConfig.Labels: the node labels the kube-apiserver's instance copies. */
const topologyLabels = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region'] as const;

/**
 * The node the request binds the pod to, when the plugin acts on it: the Binding of a pods/binding
 * CREATE whose target is a Node (the scheduler's; a Binding with no target kind is left alone, as
 * upstream's admitBinding does), or a pod created with spec.nodeName. Only creates, as upstream's
 * handler; the legacy `bindings` resource is not one it takes.
 */
function boundNode(attrs: AdmissionAttributes): string | undefined {
  if (attrs.operation !== 'CREATE' || attrs.def.group !== '' || attrs.def.resource !== 'pods' || !attrs.storage.featureGates.PodTopologyLabelsAdmission) return undefined;
  const subresource = attrs.ctx.subresource;
  if (subresource === 'binding') {
    const target = (attrs.object as { target?: { kind?: string; name?: string } }).target;
    return target?.kind === 'Node' ? target.name || undefined : undefined;
  }
  if (subresource !== '') return undefined;
  return (attrs.object as unknown as Pod).spec?.nodeName || undefined;
}

export const podTopologyLabels: AdmissionPlugin = {
  name: 'PodTopologyLabels',
  // No await when the watched copy has the node, as upstream reads its node lister.
  mutate(attrs) {
    const name = boundNode(attrs);
    if (name === undefined) return undefined;
    const node = nodeNow(attrs.storage, name);
    return node instanceof Promise ? node.then((found) => copyTopologyLabels(attrs, found)) : copyTopologyLabels(attrs, node);
  },
};

/** A node that does not exist copies nothing (upstream ignores NotFound, not to break binds). */
function copyTopologyLabels(attrs: AdmissionAttributes, node: KubeObject | undefined): undefined {
  const copied: Record<string, string> = {};
  let any = false;
  for (const key of topologyLabels) {
    const value = node?.metadata.labels?.[key];
    if (value === undefined) continue;
    copied[key] = value;
    any = true;
  }
  if (any) attrs.object.metadata.labels = withLabels(attrs.object.metadata.labels, copied);
  return undefined;
}

/**
 * `labels` with `copied` over them, built key by key into a fresh object: the admitted pod is the
 * decoded object the server keeps and shares for the pod's life, and V8 gives an object spread from
 * another and then added to (`{ ...labels, ...copied }`) a hidden class of its own (~0.2 KB a pod).
 */
function withLabels(labels: Readonly<Record<string, string>> | undefined, copied: Readonly<Record<string, string>>): Record<string, string> {
  // An assignment to `__proto__` would drop that (invalid) label before validation could refuse it.
  if (labels && Object.hasOwn(labels, '__proto__')) return { ...labels, ...copied };
  const out: Record<string, string> = {};
  for (const key in labels) out[key] = labels[key] as string;
  for (const key in copied) out[key] = copied[key] as string;
  return out;
}
