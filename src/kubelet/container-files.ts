// The files a simulated container shows to exec (cat, ls, tar): not the image's, which nothing here has,
// but what the kubelet and the runtime put in: /etc/hosts, /etc/hostname, /etc/resolv.conf, the termination log, and every volume mount whose
// content the kubelet writes (configMap, secret, downwardAPI, projected, in the atomic writer's layout)
// or that starts empty (emptyDir). Everything else is unknown, and a command reading it says so.
// Upstream: pkg/kubelet/kubelet_pods.go (makeMounts, managedHostsFileContent), pkg/volume/util/
// atomic_writer.go, pkg/volume/configmap, secret, downwardapi, projected (MakePayload, CollectData).
import type { Container, DownwardAPIVolumeFile, Pod, Volume } from '../api/index.ts';
import type { DeepReadonly } from '../core/index.ts';
import { cleanRootedPath, goQuote, isDNS1123Subdomain, ownValue } from '../core/index.ts';
import { containerResourceValue, metadataFieldValue } from './downward-api.ts';
import type { Allocatable } from './downward-api.ts';
import { containerUser } from './container-user.ts';
import { clusterDomain, podResolvConf } from './pod-dns.ts';

/**
 * `uid`/`gid`: the owner (0, root, when not said: what the kubelet and the image make is root's); `mtimeMs`:
 * when a process last wrote the file (ContainerFiles.writtenAt when not said).
 */
export type FileNode =
  | { kind: 'file'; data: Buffer; mode: number; uid?: number; gid?: number; mtimeMs?: number }
  /**
   * `writable`: an emptyDir's directory or the writable layer's, which `tar x` (kubectl cp into the pod)
   * may add to. `image`: a directory of the image's, shown through the writable layer: only what was
   * written there is known, any other name is not (rather than missing). `removed`: names of an image
   * directory removed through the layer (overlayfs whiteouts), known to be missing.
   */
  | { kind: 'dir'; entries: ReadonlyMap<string, FileNode>; mode: number; writable?: true; image?: true; removed?: Set<string>; uid?: number; gid?: number }
  | { kind: 'link'; target: string };

export interface Mount {
  path: string;
  node: FileNode;
  readOnly?: true;
  generated?: true;
}

export interface ContainerFiles {
  /**
   * Mount points, absolute and clean, each with what is there; `/` is the container's writable layer.
   * `readOnly`: the volume mount says so, or the volume is one the kubelet writes (configMap, secret,
   * downwardAPI, projected), which it mounts read-only. `generated`: a file the kubelet makes anew for each
   * look (/etc/hosts, /etc/hostname, /etc/resolv.conf), which keeps no write.
   */
  mounts: readonly Mount[];
  /** The writable layer over the image (the root filesystem), where files copied in outside volumes go. */
  layer?: Extract<FileNode, { kind: 'dir' }>;
  /** When the kubelet wrote them: every file's modification time. */
  writtenAt: number;
  /** Who the container's processes run as: the owner of the files they make. */
  user?: { uid: number; gid: number };
}

/** What a volume's content comes from: the kubelet's informers and its token manager. */
export interface VolumeContentSources {
  configMap(namespace: string, name: string): { data?: Record<string, string>; binaryData?: Record<string, string> } | undefined;
  secret(namespace: string, name: string): { data?: Record<string, string> } | undefined;
  /** The projected token for the source at `path` of volume `volume`, once requested; undefined before. */
  token(volume: string, path: string): string | undefined;
  /**
   * The atomic writer's timestamped directory of a volume (`..2026_12_06_19_08_52.1234567890`) holding
   * the payload `fingerprint` names: a new one when the payload changed, as each write makes one.
   */
  dataDirectory(volume: string, fingerprint: string): string;
  /** The Node's allocatable, for a resourceFieldRef's limit the container does not set. */
  allocatable: Allocatable;
  /** An emptyDir's root, kept for the pod's life (what was copied into it stays). */
  emptyDir(volume: string): FileNode;
  /** The volume's content as last written (a SetUp that fails leaves it as it was); `content` replaces it. */
  written(volume: string, content?: FileNode): FileNode | undefined;
}

const defaultFileMode = 0o644;

type DirNode = Extract<FileNode, { kind: 'dir' }>;

/**
 * A fresh container's root filesystem: the image's directories, each with its entries unknown but what is
 * written there. /tmp and /var/tmp are known to be there, as in every base image AI workloads build on
 * (busybox, Debian, Ubuntu, Alpine, distroless, CUDA), so `kubectl cp f pod:/tmp` finds a directory and
 * writes /tmp/f; the images' other directories are made as something is written into them.
 */
export function imageRoot(writable: boolean): DirNode {
  const dir = (mode: number, entries = new Map<string, FileNode>()): DirNode => ({ kind: 'dir', entries, mode, image: true, ...(writable ? { writable: true as const } : {}) });
  return dir(0o755, new Map([['tmp', dir(0o1777)], ['var', dir(0o755, new Map([['tmp', dir(0o1777)]]))]]));
}

/**
 * The files container `c` of `pod` sees, with the pod's IPs known, over its writable `layer` if it has one;
 * `terminationLog`: the instance's file at terminationMessagePath, which keeps what the container writes.
 */
export function containerFiles(pod: DeepReadonly<Pod>, c: DeepReadonly<Container>, podIPs: readonly string[], sources: VolumeContentSources, writtenAt: number, layer?: Extract<FileNode, { kind: 'dir' }>, terminationLog?: Extract<FileNode, { kind: 'file' }>): ContainerFiles {
  const mounts: Mount[] = layer ? [{ path: '/', node: layer }] : [];
  const mountsOwn = (path: string): boolean => (c.volumeMounts ?? []).some((m) => cleanRootedPath(m.mountPath) === path);
  const hostname = podHostname(pod);
  const domain = podDomain(pod);
  // makeMounts: /etc/hosts when the pod has an IP and the container does not mount its own there.
  if (podIPs.length > 0 && !pod.spec.hostNetwork && !mountsOwn('/etc/hosts')) mounts.push({ path: '/etc/hosts', node: textFile(managedHosts(pod, hostname, domain, podIPs)), generated: true });
  if (!mountsOwn('/etc/hostname')) mounts.push({ path: '/etc/hostname', node: textFile(`${podKernelHostname(pod)}\n`), generated: true });
  // The runtime's sandbox file, mounted into each container that does not mount its own there.
  const resolvConf = podResolvConf(pod);
  if (resolvConf !== undefined && !mountsOwn('/etc/resolv.conf')) mounts.push({ path: '/etc/resolv.conf', node: textFile(resolvConf), generated: true });
  // kuberuntime makeMounts: a file made empty and writable by anyone for each container instance, at
  // terminationMessagePath; what the container writes there becomes its termination message.
  const terminationLogPath = cleanRootedPath(c.terminationMessagePath || '/dev/termination-log');
  if (!mountsOwn(terminationLogPath)) mounts.push(terminationLog ? { path: terminationLogPath, node: terminationLog } : { path: terminationLogPath, node: textFile('', 0o666), generated: true });
  for (const m of c.volumeMounts ?? []) {
    const volume = (pod.spec.volumes ?? []).find((v) => v.name === m.name);
    const content = volume ? volumeContent(pod, volume, sources) : undefined;
    if (!content) continue;
    const node = m.subPath ? subPathNode(content, m.subPath) : content;
    const readOnly = m.readOnly === true || !volume?.emptyDir;
    const fsGroup = pod.spec.securityContext?.fsGroup;
    if (volume?.emptyDir && fsGroup !== undefined) setVolumeOwnership(content, fsGroup);
    if (node) mounts.push({ path: cleanRootedPath(m.mountPath), node, ...(readOnly ? { readOnly } : {}) });
  }
  const { uid, gid } = containerUser(pod.spec.securityContext, c.securityContext).linux ?? { uid: 0, gid: 0 };
  return { mounts, writtenAt, user: { uid, gid }, ...(layer ? { layer } : {}) };
}

/**
 * SetVolumeOwnership on an emptyDir's root as SetUp leaves it: group fsGroup, group read and write, and
 * setgid, so what the pod's processes make there is the fsGroup's too (drwxrwsrwx root 2000).
 * Upstream: pkg/volume/volume_linux.go (changeFilePermission: rwMask, execMask and ModeSetgid for a directory).
 */
function setVolumeOwnership(root: FileNode, fsGroup: number): void {
  if (root.kind !== 'dir' || root.gid !== undefined) return;
  root.gid = fsGroup;
  root.mode |= 0o2000 | 0o660 | 0o110;
}

/** Who owns a file a container's process makes in `dir`: the process's user, and the directory's group when it is setgid. */
export function newFileOwner(files: ContainerFiles, dir: Extract<FileNode, { kind: 'dir' }>): { uid: number; gid: number } {
  const user = files.user ?? { uid: 0, gid: 0 };
  return { uid: user.uid, gid: dir.mode & 0o2000 ? (dir.gid ?? 0) : user.gid };
}

/**
 * GeneratePodHostNameAndDomain's domain: `<subdomain>.<namespace>.svc.<clusterDomain>`, or none; none
 * with hostnameOverride (HostnameOverride, beta and on in 1.35), whose name stands alone.
 */
function podDomain(pod: DeepReadonly<Pod>): string {
  if (pod.spec.hostnameOverride !== undefined) return '';
  return pod.spec.subdomain ? `${pod.spec.subdomain}.${pod.metadata.namespace ?? ''}.svc.${clusterDomain}` : '';
}

/**
 * The sandbox's hostname (GetNodenameForKernel): the FQDN when setHostnameAsFQDN asks for it, else the
 * pod's hostname. What /etc/hostname holds and the runtime puts in HOSTNAME.
 */
export function podKernelHostname(pod: DeepReadonly<Pod>): string {
  const hostname = podHostname(pod);
  const domain = podDomain(pod);
  return pod.spec.setHostnameAsFQDN && domain ? `${hostname}.${domain}` : hostname;
}

/**
 * GeneratePodHostNameAndDomain's hostname: spec.hostnameOverride, else spec.hostname, else the pod's
 * name, cut to 63 characters (and its trailing '-' and '.').
 */
function podHostname(pod: DeepReadonly<Pod>): string {
  const name = pod.spec.hostnameOverride ?? (pod.spec.hostname || (pod.metadata.name ?? ''));
  return name.length <= 63 ? name : name.slice(0, 63).replace(/[-.]+$/, '');
}

/**
 * GeneratePodHostNameAndDomain's refusal of a hostnameOverride that is no DNS subdomain (the API
 * server's validation does not check it here): the container is not created, in upstream's words.
 */
export function podHostnameError(pod: DeepReadonly<Pod>): string | undefined {
  const override = pod.spec.hostnameOverride;
  if (override === undefined) return undefined;
  const msgs = isDNS1123Subdomain(override);
  return msgs.length === 0 ? undefined : `pod HostnameOverride ${goQuote(override)} is not a valid DNS subdomain: ${msgs.join(';')}`;
}

/** managedHostsFileContent: the boilerplate, the pod's own names on each of its IPs, then hostAliases. */
function managedHosts(pod: DeepReadonly<Pod>, hostname: string, domain: string, podIPs: readonly string[]): string {
  const lines = ['# Kubernetes-managed hosts file.', '127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet', 'fe00::0\tip6-mcastprefix', 'fe00::1\tip6-allnodes', 'fe00::2\tip6-allrouters'];
  for (const ip of podIPs) lines.push(domain ? `${ip}\t${hostname}.${domain}\t${hostname}` : `${ip}\t${hostname}`);
  const aliases = pod.spec.hostAliases ?? [];
  if (aliases.length > 0) {
    lines.push('', '# Entries added by HostAliases.');
    // One line a HostAlias, its hostnames tab-joined, as upstream's hostsEntriesFromHostAliases writes it.
    for (const alias of aliases) lines.push(`${alias.ip ?? ''}\t${(alias.hostnames ?? []).join('\t')}`);
  }
  return `${lines.join('\n')}\n`;
}

function textFile(text: string, mode = defaultFileMode): FileNode {
  return { kind: 'file', data: Buffer.from(text, 'utf8'), mode };
}

/**
 * Whether the volume's SetUp fails for want of its config map or secret: a source not marked optional is
 * gone (one marked optional gives an empty payload instead).
 */
function sourceMissing(namespace: string, v: DeepReadonly<Volume>, sources: VolumeContentSources): boolean {
  const missingMap = (s: { name?: string; optional?: boolean } | undefined): boolean => s !== undefined && s.optional !== true && !sources.configMap(namespace, s.name ?? '');
  const missingSecret = (name: string | undefined, s: { optional?: boolean } | undefined): boolean => s !== undefined && s.optional !== true && !sources.secret(namespace, name ?? '');
  if (missingMap(v.configMap) || missingSecret(v.secret?.secretName, v.secret)) return true;
  return (v.projected?.sources ?? []).some((p) => missingMap(p.configMap) || missingSecret(p.secret?.name, p.secret));
}

/** A volume's tree, or undefined when its content is not the kubelet's to know (a disk, the host's files, an image). */
function volumeContent(pod: DeepReadonly<Pod>, v: DeepReadonly<Volume>, sources: VolumeContentSources): FileNode | undefined {
  const namespace = pod.metadata.namespace ?? '';
  if (v.emptyDir) return sources.emptyDir(v.name);
  // The remount fails ("configmap ... not found"): the files written before stay as they were.
  if (sourceMissing(namespace, v, sources)) return sources.written(v.name);
  let payload: Map<string, FileNode> | undefined;
  if (v.configMap) payload = configMapPayload(sources.configMap(namespace, v.configMap.name ?? ''), v.configMap.items, v.configMap.defaultMode ?? defaultFileMode);
  else if (v.secret) payload = secretPayload(sources.secret(namespace, v.secret.secretName ?? ''), v.secret.items, v.secret.defaultMode ?? defaultFileMode);
  else if (v.downwardAPI) payload = downwardPayload(pod, v.downwardAPI.items ?? [], v.downwardAPI.defaultMode ?? defaultFileMode, sources.allocatable);
  else if (v.projected) payload = projectedPayload(pod, v.name, v.projected.sources ?? [], v.projected.defaultMode ?? defaultFileMode, sources);
  return payload && sources.written(v.name, atomicWriterLayout(payload, sources.dataDirectory(v.name, fingerprint(payload))));
}

type Payload = Map<string, FileNode>;

/** configmap.MakePayload: every key (data, then binaryData) or the items asked for; a missing key is skipped (the mount checked it). */
function configMapPayload(cm: { data?: Record<string, string>; binaryData?: Record<string, string> } | undefined, items: DeepReadonly<{ key: string; path: string; mode?: number }[]> | undefined, mode: number): Payload {
  const out: Payload = new Map();
  const value = (key: string): Buffer | undefined => {
    const text = ownValue(cm?.data, key);
    if (text !== undefined) return Buffer.from(text, 'utf8');
    const binary = ownValue(cm?.binaryData, key);
    return binary === undefined ? undefined : Buffer.from(binary, 'base64');
  };
  if (!items || items.length === 0) {
    for (const key of [...Object.keys(cm?.data ?? {}), ...Object.keys(cm?.binaryData ?? {})]) out.set(key, { kind: 'file', data: value(key) ?? Buffer.alloc(0), mode });
    return out;
  }
  for (const item of items) {
    const data = value(item.key);
    if (data !== undefined) out.set(item.path, { kind: 'file', data, mode: item.mode ?? mode });
  }
  return out;
}

/** secret.MakePayload: as a config map's, the values decoded from base64. */
function secretPayload(secret: { data?: Record<string, string> } | undefined, items: DeepReadonly<{ key: string; path: string; mode?: number }[]> | undefined, mode: number): Payload {
  return configMapPayload({ binaryData: { ...secret?.data } }, items, mode);
}

/**
 * downwardapi.CollectData: each item's field (labels and annotations as fieldpath.FormatMap writes them)
 * or its container's resource; an item that cannot be read leaves the volume unknown (upstream's SetUp fails).
 */
function downwardPayload(pod: DeepReadonly<Pod>, items: DeepReadonly<DownwardAPIVolumeFile[]>, mode: number, allocatable: Allocatable): Payload | undefined {
  const out: Payload = new Map();
  for (const item of items) {
    let text = item.fieldRef ? downwardField(pod, item.fieldRef.fieldPath) : undefined;
    if (item.resourceFieldRef) {
      // A volume item names its container (validation requires containerName).
      const resource = containerResourceValue(item.resourceFieldRef, pod, undefined, allocatable);
      if ('error' in resource) return undefined;
      text = resource.value;
    }
    if (text !== undefined) out.set(item.path, textFile(text, item.mode ?? mode));
  }
  return out;
}

/** fieldpath.ExtractFieldPathAsString for the paths a downwardAPI volume may name. */
function downwardField(pod: DeepReadonly<Pod>, path: string): string | undefined {
  if (path === 'metadata.labels') return formatMap(pod.metadata.labels ?? {});
  if (path === 'metadata.annotations') return formatMap(pod.metadata.annotations ?? {});
  return metadataFieldValue(pod, path);
}

/** fieldpath.FormatMap: `key="value"` lines in key order, no newline after the last. */
function formatMap(map: DeepReadonly<Record<string, string>>): string {
  return Object.keys(map)
    .sort()
    .map((key) => `${key}=${goQuote(map[key] ?? '')}`)
    .join('\n');
}

/** projected's collectData: each source's files in one payload, the service account token as requested. */
function projectedPayload(pod: DeepReadonly<Pod>, volume: string, projections: DeepReadonly<NonNullable<Volume['projected']>['sources'] & object>, mode: number, sources: VolumeContentSources): Payload | undefined {
  const namespace = pod.metadata.namespace ?? '';
  const out: Payload = new Map();
  for (const p of projections) {
    let part: Payload | undefined;
    if (p.configMap) part = configMapPayload(sources.configMap(namespace, p.configMap.name ?? ''), p.configMap.items, mode);
    else if (p.secret) part = secretPayload(sources.secret(namespace, p.secret.name ?? ''), p.secret.items, mode);
    else if (p.downwardAPI) part = downwardPayload(pod, p.downwardAPI.items ?? [], mode, sources.allocatable);
    else if (p.serviceAccountToken) {
      const token = sources.token(volume, p.serviceAccountToken.path);
      if (token !== undefined) part = new Map([[p.serviceAccountToken.path, textFile(token, mode)]]);
    }
    // A clusterTrustBundle or podCertificate source, a token not had: the volume's content is not known.
    if (!part) return undefined;
    for (const [path, node] of part) out.set(path, node);
  }
  return out;
}

/** What tells one payload from another: its paths, modes and bytes. */
function fingerprint(payload: Payload): string {
  return [...payload].map(([path, node]) => (node.kind === 'file' ? `${path}:${node.mode}:${node.data.toString('base64')}` : path)).join('\n');
}

/**
 * AtomicWriter's layout: the files in a timestamped directory, `..data` linking to it, and a link for
 * each top-level name into `..data`, so an update swaps one link.
 */
function atomicWriterLayout(payload: Payload, dataDirectory: string): FileNode {
  const data = new Map<string, FileNode>();
  for (const [path, node] of payload) place(data, path.split('/').filter((p) => p !== ''), node);
  const top = new Map<string, FileNode>([
    [dataDirectory, { kind: 'dir', entries: data, mode: 0o755 }],
    ['..data', { kind: 'link', target: dataDirectory }],
  ]);
  for (const name of data.keys()) top.set(name, { kind: 'link', target: `..data/${name}` });
  return { kind: 'dir', entries: top, mode: 0o1777 };
}

function place(dir: Map<string, FileNode>, parts: string[], node: FileNode): void {
  const [first, ...rest] = parts;
  if (first === undefined) return;
  if (rest.length === 0) {
    dir.set(first, node);
    return;
  }
  let sub = dir.get(first);
  if (sub?.kind !== 'dir') dir.set(first, (sub = { kind: 'dir', entries: new Map(), mode: 0o755 }));
  place(sub.entries as Map<string, FileNode>, rest, node);
}

/** A subPath mount: the node at that path inside the volume (links followed), else nothing is mounted. */
function subPathNode(root: FileNode, subPath: string): FileNode | undefined {
  const found = walk(root, subPath.split('/'), 0);
  return found.kind === 'found' ? found.node : undefined;
}

// ---- Reading

export type Lookup =
  | { kind: 'found'; node: FileNode; path: string }
  | { kind: 'missing' }
  | { kind: 'not-directory' }
  /** Outside what the kubelet wrote: the image's files, which a simulated container does not have. */
  | { kind: 'unknown' }
  | { kind: 'loop' };

const maxLinks = 40;

/**
 * What `path` (relative to `workingDir`) names, as the kernel resolves it: links followed on the way,
 * and at the end too unless `followLast` is false (lstat, as ls and tar look at a link itself).
 */
export function lookup(files: ContainerFiles, path: string, workingDir: string, followLast = true): Lookup {
  const pending = (path.startsWith('/') ? path : `${workingDir}/${path}`).split('/');
  const at: string[] = [];
  let links = 0;
  for (let i = 0; i < pending.length; i++) {
    const part = pending[i] ?? '';
    if (part === '' || part === '.') continue;
    if (part === '..') {
      at.pop();
      continue;
    }
    at.push(part);
    const found = nodeAt(files, at);
    // An unknown directory on the way (the image's /etc) may still lead to a mount (/etc/config).
    if (found.kind === 'unknown') continue;
    if (found.kind !== 'found') return found;
    const last = pending.slice(i + 1).every((p) => p === '' || p === '.');
    if (found.node.kind !== 'link' || (last && !followLast)) continue;
    if (++links > maxLinks) return { kind: 'loop' };
    at.pop();
    if (found.node.target.startsWith('/')) at.length = 0;
    pending.splice(i + 1, 0, ...found.node.target.split('/'));
  }
  const found = nodeAt(files, at);
  return found.kind === 'found' ? { ...found, path: `/${at.join('/')}` } : found;
}

/** The mount `path` (absolute, clean, resolved) is on: the deepest one over it. */
export function mountAt(files: ContainerFiles, path: string): Mount | undefined {
  let best: Mount | undefined;
  for (const m of files.mounts) {
    const over = m.path === '/' || path === m.path || path.startsWith(`${m.path}/`);
    if (over && (!best || m.path.length > best.path.length)) best = m;
  }
  return best;
}

/** The node at a path with no links in it but perhaps the last part. */
function nodeAt(files: ContainerFiles, parts: readonly string[]): Lookup {
  let best: { path: string; node: FileNode; depth: number } | undefined;
  for (const m of files.mounts) {
    const mountParts = m.path.split('/').filter((p) => p !== '');
    if (mountParts.length > parts.length || (best && best.depth > mountParts.length)) continue;
    if (mountParts.every((p, i) => parts[i] === p)) best = { path: m.path, node: m.node, depth: mountParts.length };
  }
  if (!best) return { kind: 'unknown' };
  return walk(best.node, parts.slice(best.depth), 0);
}

function walk(node: FileNode, parts: readonly string[], links: number): Lookup {
  let here = node;
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (here.kind !== 'dir') return { kind: 'not-directory' };
    const next = here.entries.get(part);
    if (!next) return here.image && !here.removed?.has(part) ? { kind: 'unknown' } : { kind: 'missing' };
    here = next;
    if (here.kind === 'link') {
      if (links >= maxLinks) return { kind: 'loop' };
      const target = walk(node, here.target.split('/'), links + 1);
      if (target.kind !== 'found') return target;
      here = target.node;
    }
  }
  return { kind: 'found', node: here, path: '' };
}
