// ImageLocality: prefers nodes that already have the pod's images (node.status.images), each image's
// size scaled by the share of nodes that have it, so one image on every node does not pull pods
// together. Names match as the Node lists them: a containerd node lists `docker.io/library/nginx:1.27`,
// so a pod asking for `nginx:1.27` matches nothing, upstream's limit kept.
// Upstream: pkg/scheduler/framework/plugins/imagelocality/image_locality.go, backend/cache (addNodeImageStates).
import type { Plugin, PluginFactory } from '../framework.ts';
import { maxNodeScore, skip, stateKey, success } from '../framework.ts';
import type { NodeInfo, NodeRO } from '../node-info.ts';

export const name = 'ImageLocality';

const mb = 1024 * 1024;
const minThreshold = 23 * mb;
const maxContainerThreshold = 1000 * mb;

/** The pod's images (normalized) with each one's size and the number of nodes that have it. */
type ImageStates = Map<string, { size: number; nodes: number }>;

const stateKeyOf = stateKey<{ images: ImageStates; totalNodes: number; names: string[] }>(`PreScore${name}`);

/** normalizedImageName: a name with no tag gets `:latest`. */
export function normalizedImageName(image: string): string {
  return image.lastIndexOf(':') <= image.lastIndexOf('/') ? `${image}:latest` : image;
}

// A node's image names and sizes, per Node object (its status is replaced, never changed, on a write).
const namesOfNode = new WeakMap<NodeRO, Map<string, number>>();

function nodeImageNames(node: NodeRO | undefined): Map<string, number> | undefined {
  const images = node?.status?.images;
  if (!node || !images || images.length === 0) return undefined;
  let names = namesOfNode.get(node);
  if (!names) {
    names = new Map();
    for (const image of images) for (const n of image.names ?? []) if (!names.has(n)) names.set(n, image.sizeBytes ?? 0);
    namesOfNode.set(node, names);
  }
  return names;
}

/** calculatePriority: the summed scores between 23 MB and 1,000 MB a container, mapped onto 0-100. */
export function imageLocalityScore(sumScores: number, containers: number): number {
  const maxThreshold = maxContainerThreshold * containers;
  const clamped = Math.min(Math.max(sumScores, minThreshold), maxThreshold);
  return Math.trunc((maxNodeScore * (clamped - minThreshold)) / (maxThreshold - minThreshold));
}

export const newImageLocality: PluginFactory = (_args, handle) =>
  ({
    name,
    preScore(state, pod) {
      const names = [...(pod.pod.spec.initContainers ?? []), ...pod.pod.spec.containers].map((c) => normalizedImageName(c.image ?? ''));
      const all = handle.snapshot().list();
      const images: ImageStates = new Map();
      for (const info of all) {
        const onNode = nodeImageNames(info.node);
        if (!onNode) continue;
        for (const n of new Set(names)) {
          const size = onNode.get(n);
          if (size === undefined) continue;
          const known = images.get(n);
          if (known) known.nodes++;
          else images.set(n, { size, nodes: 1 });
        }
      }
      // No node has any of them: every node scores zero.
      if (images.size === 0) return skip;
      state.write(stateKeyOf, { images, totalNodes: all.length, names });
      return success;
    },
    score(state, _pod, nodeInfo: NodeInfo) {
      const s = state.read(stateKeyOf);
      const onNode = nodeImageNames(nodeInfo.node);
      if (!s || !onNode) return 0;
      let sum = 0;
      // sumImageScores: each container whose image the node has adds its size times its spread.
      for (const n of s.names) {
        const image = onNode.has(n) ? s.images.get(n) : undefined;
        if (image) sum += Math.trunc(image.size * (image.nodes / s.totalNodes));
      }
      return imageLocalityScore(sum, s.names.length);
    },
  }) satisfies Plugin;
