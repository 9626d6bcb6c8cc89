// Volume contents held in memory for the kubelet's file tests: each emptyDir kept by volume, the rest
// as a test gives it. (No tests here; imported by others.)
import type { FileNode, VolumeContentSources } from './container-files.ts';

/** Sources with no ConfigMaps, Secrets or tokens, a fixed atomic-writer directory and node, unless `given` says otherwise. */
export function volumeSources(given: Partial<VolumeContentSources> = {}): VolumeContentSources {
  const emptyDirs = new Map<string, FileNode>();
  return {
    configMap: () => undefined,
    secret: () => undefined,
    token: () => undefined,
    dataDirectory: () => '..2026_12_07_09_00_00.1',
    allocatable: { cpu: '16', memory: '64Gi' },
    emptyDir: (volume) => {
      let root = emptyDirs.get(volume);
      if (!root) emptyDirs.set(volume, (root = { kind: 'dir', entries: new Map(), mode: 0o777, writable: true }));
      return root;
    },
    written: (_volume, content) => content,
    ...given,
  };
}
