// One pod's part of what exec reads from its containers' files: the atomic writer's directory name
// for each volume (one per payload it has held), the emptyDirs' contents and the projected service account tokens,
// requested through the API as the kubelet's token manager does (TokenRequest bound to the pod) when
// exec first reads them, and again once 80% of their lifetime or 24 hours have passed.
// Upstream: pkg/kubelet/token/token_manager.go, pkg/volume/projected (getServiceAccountToken).
import { refs } from '../api/index.ts';
import type { Pod, TokenRequest } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, DeepReadonly, Random } from '../core/index.ts';
import { containerFiles, imageRoot } from './container-files.ts';
import type { ContainerFiles, FileNode } from './container-files.ts';
import type { EnvSources } from './container-env.ts';
import type { Allocatable } from './downward-api.ts';

interface Token {
  token: string;
  issuedAt: number;
  ttlMs: number;
}

const maxTokenAgeMs = 24 * 3600_000;

export class PodFiles {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #sources: EnvSources | undefined;
  readonly #allocatable: () => Allocatable;
  readonly #writtenAt: number;
  readonly #dataDirectories = new Map<string, { name: string; fingerprint: string }>();
  readonly #tokens = new Map<string, Token>();
  /** The emptyDirs' contents: empty until something is copied in; gone with the pod. */
  readonly #emptyDirs = new Map<string, FileNode>();
  /** Each volume's content as last written. */
  readonly #written = new Map<string, FileNode>();
  /**
   * Each container's writable layer and termination log, for its current instance: a restart starts from
   * the image and an empty log again.
   */
  readonly #layers = new Map<string, { instance: string; root: Extract<FileNode, { kind: 'dir' }>; terminationLog: Extract<FileNode, { kind: 'file' }> }>();

  constructor(options: { client: Client; clock: Clock; random: Random; sources: EnvSources | undefined; allocatable: () => Allocatable; writtenAt: number }) {
    this.#client = options.client;
    this.#clock = options.clock;
    this.#random = options.random;
    this.#sources = options.sources;
    this.#allocatable = options.allocatable;
    this.#writtenAt = options.writtenAt;
  }

  /** Requests the pod's projected tokens that are missing or due; one that cannot be had stays unknown. */
  async requestTokens(pod: DeepReadonly<Pod>): Promise<void> {
    const now = this.#clock.now();
    for (const v of pod.spec.volumes ?? []) {
      for (const source of v.projected?.sources ?? []) {
        const projection = source.serviceAccountToken;
        if (!projection) continue;
        const key = `${v.name}/${projection.path}`;
        const held = this.#tokens.get(key);
        if (held && now < held.issuedAt + held.ttlMs * 0.8 && now - held.issuedAt < maxTokenAgeMs) continue;
        const request: TokenRequest = {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          metadata: {},
          spec: { audiences: projection.audience ? [projection.audience] : null, expirationSeconds: projection.expirationSeconds ?? 3600, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' } },
        };
        const name = pod.spec.serviceAccountName || 'default';
        const answer = await this.#client.create<TokenRequest>(refs.serviceAccounts, request, { namespace: pod.metadata.namespace ?? '', name, subresource: 'token' }).catch(() => undefined);
        const token = answer?.status?.token;
        if (token) this.#tokens.set(key, { token, issuedAt: now, ttlMs: (answer.spec?.expirationSeconds ?? 3600) * 1000 });
      }
    }
  }

  /** The files instance `instance` of container `c` sees now (config maps and secrets as the informers hold them). */
  files(pod: DeepReadonly<Pod>, container: string, podIP: string | undefined, instance: string): ContainerFiles | undefined {
    const c = [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])].find((x) => x.name === container);
    if (!c) return undefined;
    let layer = this.#layers.get(container);
    if (layer?.instance !== instance) {
      this.#layers.set(container, (layer = { instance, root: imageRoot(!c.securityContext?.readOnlyRootFilesystem), terminationLog: { kind: 'file', data: Buffer.alloc(0), mode: 0o666 } }));
    }
    const sources = this.#sources;
    return containerFiles(pod, c, podIP ? [podIP] : [], {
      configMap: (namespace, name) => sources?.configMaps.getByName(namespace, name),
      secret: (namespace, name) => sources?.secrets.getByName(namespace, name),
      token: (volume, path) => this.#tokens.get(`${volume}/${path}`)?.token,
      dataDirectory: (volume, fingerprint) => this.#dataDirectory(volume, fingerprint),
      allocatable: this.#allocatable(),
      emptyDir: (volume) => this.#emptyDir(volume),
      written: (volume, content) => {
        if (content) this.#written.set(volume, content);
        return this.#written.get(volume);
      },
    }, this.#writtenAt, layer.root, layer.terminationLog);
  }

  /** What instance `instance` of `container` wrote to its termination log; none if it never opened a file. */
  terminationLog(container: string, instance: string): Buffer | undefined {
    const layer = this.#layers.get(container);
    return layer?.instance === instance ? layer.terminationLog.data : undefined;
  }

  /** The bytes copied into each container's writable layer (its current instance), for those holding any. */
  layerBytes(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [container, { root }] of this.#layers) {
      const bytes = treeBytes(root);
      if (bytes > 0) out.set(container, bytes);
    }
    return out;
  }

  /** The bytes of the files copied into each emptyDir that holds any (none before the first exec). */
  emptyDirBytes(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [volume, root] of this.#emptyDirs) {
      const bytes = treeBytes(root);
      if (bytes > 0) out.set(volume, bytes);
    }
    return out;
  }

  #emptyDir(volume: string): FileNode {
    let root = this.#emptyDirs.get(volume);
    if (!root) this.#emptyDirs.set(volume, (root = { kind: 'dir', entries: new Map(), mode: 0o777, writable: true }));
    return root;
  }

  /**
   * os.MkdirTemp's name for the atomic writer's write: `..` + the UTC time + a random number; the
   * first at the volume's set-up, a new one (at the time it is first seen) for each changed payload.
   */
  #dataDirectory(volume: string, fingerprint: string): string {
    const known = this.#dataDirectories.get(volume);
    if (known?.fingerprint === fingerprint) return known.name;
    const t = new Date(known ? this.#clock.now() : this.#writtenAt).toISOString();
    const stamp = `${t.slice(0, 4)}_${t.slice(5, 7)}_${t.slice(8, 10)}_${t.slice(11, 13)}_${t.slice(14, 16)}_${t.slice(17, 19)}`;
    const name = `..${stamp}.${this.#random.int(4_294_967_296)}`;
    this.#dataDirectories.set(volume, { name, fingerprint });
    return name;
  }
}

function treeBytes(node: FileNode): number {
  if (node.kind === 'file') return node.data.length;
  if (node.kind === 'link') return 0;
  let sum = 0;
  for (const child of node.entries.values()) sum += treeBytes(child);
  return sum;
}
