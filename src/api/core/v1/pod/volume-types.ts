// Pod volume wire types: Volume and its sources, as served by 1.35.
// Upstream: staging/src/k8s.io/api/core/v1/types.go (Volume, VolumeSource).
import type { LabelSelector, ObjectMeta } from '../../../../core/index.ts';
import type { ObjectFieldSelector, PullPolicy, ResourceFieldSelector, ResourceList } from './types.ts';

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}
export interface HostPathVolumeSource {
  path: string;
  type?: '' | 'DirectoryOrCreate' | 'Directory' | 'FileOrCreate' | 'File' | 'Socket' | 'CharDevice' | 'BlockDevice';
}
export interface EmptyDirVolumeSource {
  medium?: '' | 'Memory' | 'HugePages' | `HugePages-${string}`;
  sizeLimit?: string;
}
export interface SecretVolumeSource {
  secretName?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}
export interface ConfigMapVolumeSource {
  name?: string;
  items?: KeyToPath[];
  defaultMode?: number;
  optional?: boolean;
}
export interface PersistentVolumeClaimVolumeSource {
  claimName: string;
  readOnly?: boolean;
}
export interface DownwardAPIVolumeFile {
  path: string;
  fieldRef?: ObjectFieldSelector;
  resourceFieldRef?: ResourceFieldSelector;
  mode?: number;
}
export interface DownwardAPIVolumeSource {
  items?: DownwardAPIVolumeFile[];
  defaultMode?: number;
}
export interface ServiceAccountTokenProjection {
  audience?: string;
  expirationSeconds?: number;
  path: string;
}
export interface ClusterTrustBundleProjection {
  name?: string;
  signerName?: string;
  labelSelector?: LabelSelector;
  optional?: boolean;
  path: string;
}
export interface PodCertificateProjection {
  signerName: string;
  keyType: string;
  maxExpirationSeconds?: number;
  credentialBundlePath?: string;
  keyPath?: string;
  certificateChainPath?: string;
  userAnnotations?: Record<string, string>;
}
export interface VolumeProjection {
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardAPIVolumeFile[] };
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  serviceAccountToken?: ServiceAccountTokenProjection;
  clusterTrustBundle?: ClusterTrustBundleProjection;
  podCertificate?: PodCertificateProjection;
}
export interface ProjectedVolumeSource {
  sources?: VolumeProjection[];
  defaultMode?: number;
}
export interface PersistentVolumeClaimTemplate {
  metadata?: ObjectMeta;
  spec: {
    accessModes?: string[];
    selector?: LabelSelector;
    resources?: { limits?: ResourceList; requests?: ResourceList };
    volumeName?: string;
    storageClassName?: string;
    volumeMode?: 'Block' | 'Filesystem';
    dataSource?: { apiGroup?: string; kind: string; name: string };
    dataSourceRef?: { apiGroup?: string; kind: string; name: string; namespace?: string };
    volumeAttributesClassName?: string;
  };
}
export interface EphemeralVolumeSource {
  volumeClaimTemplate?: PersistentVolumeClaimTemplate;
}
export interface CSIVolumeSource {
  driver: string;
  readOnly?: boolean;
  fsType?: string;
  volumeAttributes?: Record<string, string>;
  nodePublishSecretRef?: { name?: string };
}
export interface ImageVolumeSource {
  reference?: string;
  pullPolicy?: PullPolicy;
}
export interface NFSVolumeSource {
  server: string;
  path: string;
  readOnly?: boolean;
}

/** Volume: a name plus exactly one source. Rarely used in-tree sources are kept loosely typed. */
export interface Volume {
  name: string;
  hostPath?: HostPathVolumeSource;
  emptyDir?: EmptyDirVolumeSource;
  secret?: SecretVolumeSource;
  configMap?: ConfigMapVolumeSource;
  persistentVolumeClaim?: PersistentVolumeClaimVolumeSource;
  downwardAPI?: DownwardAPIVolumeSource;
  projected?: ProjectedVolumeSource;
  ephemeral?: EphemeralVolumeSource;
  csi?: CSIVolumeSource;
  image?: ImageVolumeSource;
  nfs?: NFSVolumeSource;
  gitRepo?: Record<string, unknown>;
  iscsi?: Record<string, unknown>;
  glusterfs?: Record<string, unknown>;
  rbd?: Record<string, unknown>;
  flexVolume?: Record<string, unknown>;
  cinder?: Record<string, unknown>;
  cephfs?: Record<string, unknown>;
  flocker?: Record<string, unknown>;
  fc?: Record<string, unknown>;
  azureFile?: Record<string, unknown>;
  azureDisk?: Record<string, unknown>;
  vsphereVolume?: Record<string, unknown>;
  quobyte?: Record<string, unknown>;
  photonPersistentDisk?: Record<string, unknown>;
  portworxVolume?: Record<string, unknown>;
  scaleIO?: Record<string, unknown>;
  storageos?: Record<string, unknown>;
  gcePersistentDisk?: Record<string, unknown>;
  awsElasticBlockStore?: Record<string, unknown>;
}

