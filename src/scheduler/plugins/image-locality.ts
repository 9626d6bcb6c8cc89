// ImageLocality: prefers nodes that already have the pod's images (node.status.images), each image's
// size scaled by the share of nodes that have it, so one image on every node does not pull pods
// together. Names match as the Node lists them: a containerd node lists `docker.io/library/nginx:1.27`,
// so a pod asking for `nginx:1.27` matches nothing, upstream's limit kept.
// Upstream: pkg/scheduler/framework/plugins/imagelocality/image_locality.go, backend/cache (addNodeImageStates).
import { refs } from '../../api/index.ts';
import type { Node } from '../../api/index.ts';
import type { Informer } from '../../client/index.ts';
import type { Plugin, PluginFactory } from '../framework.ts';
import { maxNodeScore, skip, stateKey, success } from '../framework.ts';
import type { NodeInfo } from '../node-info.ts';

export const name = 'ImageLocality';

const mb = 1024 * 1024;
const minThreshold = 23 * mb;
const maxContainerThreshold = 1000 * mb;

/** The images named in node.status.images: each one's size and the nodes that have it (the cache's imageStates). */
type ImageStates = Map<string, { size: number; nodes: Set<string> }>;

const stateKeyOf = stateKey<{ names: string[]; totalNodes: number }>(`PreScore${name}`);

/** normalizedImageName: a name with no tag gets `:latest`. */
export function normalizedImageName(image: string): string {
  return image.lastIndexOf(':') <= image.lastIndexOf('/') ? `${image}:latest` : image;
}

/** addNodeImageStates / removeNodeImageStates, kept as Node events come, not walked for every pod. */
function trackImages(nodes: Informer<Node>): ImageStates {
  const states: ImageStates = new Map();
  const add = (node: Node): void => {
    const nodeName = node.metadata.name ?? '';
    for (const image of node.status?.images ?? []) {
      for (const n of image.names ?? []) {
        const state = states.get(n);
        if (state) state.nodes.add(nodeName);
        else states.set(n, { size: image.sizeBytes ?? 0, nodes: new Set([nodeName]) });
      }
    }
  };
  const remove = (node: Node): void => {
    const nodeName = node.metadata.name ?? '';
    for (const image of node.status?.images ?? []) {
      for (const n of image.names ?? []) {
        const state = states.get(n);
        if (state?.nodes.delete(nodeName) && state.nodes.size === 0) states.delete(n);
      }
    }
  };
  for (const node of nodes.list()) add(node);
  nodes.addHandlers({
    onAdd: add,
    onUpdate: (old, node) => {
      if (old.status?.images === node.status?.images) return;
      remove(old);
      add(node);
    },
    onDelete: remove,
  });
  return states;
}

/** calculatePriority: the summed scores between 23 MB and 1,000 MB a container, mapped onto 0-100. */
export function imageLocalityScore(sumScores: number, containers: number): number {
  const maxThreshold = maxContainerThreshold * containers;
  const clamped = Math.min(Math.max(sumScores, minThreshold), maxThreshold);
  return Math.trunc((maxNodeScore * (clamped - minThreshold)) / (maxThreshold - minThreshold));
}

export const newImageLocality: PluginFactory = (_args, handle) => {
  const images = trackImages(handle.informer<Node>(refs.nodes));
  return {
    name,
    preScore(state, pod) {
      const names = [...(pod.pod.spec.initContainers ?? []), ...pod.pod.spec.containers].map((c) => normalizedImageName(c.image ?? ''));
      // No node has any of them: every node scores zero.
      if (!names.some((n) => images.has(n))) return skip;
      state.write(stateKeyOf, { names, totalNodes: handle.snapshot().list().length });
      return success;
    },
    score(state, _pod, nodeInfo: NodeInfo) {
      const s = state.read(stateKeyOf);
      if (!s) return 0;
      let sum = 0;
      // sumImageScores: each container whose image the node has adds its size times its spread.
      for (const n of s.names) {
        const image = images.get(n);
        if (image?.nodes.has(nodeInfo.name)) sum += Math.trunc(image.size * (image.nodes.size / s.totalNodes));
      }
      return imageLocalityScore(sum, s.names.length);
    },
  } satisfies Plugin;
};
