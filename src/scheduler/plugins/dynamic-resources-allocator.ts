// The structured allocator as DynamicResources sees it. The scheduler may not import dra/
// (components import only core, api and client), so cluster/ injects dra's functions through
// dynamicResourcesFactory; these are the shapes they must have.
// Upstream: the plugin calls k8s.io/dynamic-resource-allocation/structured directly.
import type { NodeSelector, resourceV1 } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';

export interface DraNode {
  readonly metadata: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
}

export interface DraInventory {
  /** The pools a node sees; `id` is `<driver>/<pool>`. */
  poolsForNode(node: DraNode): readonly { readonly id: string }[];
}

export type DraOutcome =
  | { readonly type: 'allocated'; readonly results: resourceV1.AllocationResult[] }
  | { readonly type: 'unschedulable'; readonly reason: string }
  | { readonly type: 'error'; readonly message: string };

/** The DRA feature gates the allocator honours (upstream structured.Features). */
export interface DraFeatures {
  readonly prioritizedList: boolean;
  readonly adminAccess: boolean;
  readonly partitionableDevices: boolean;
  readonly deviceTaints: boolean;
}

export interface DraAllocator {
  /** Without partitionableDevices, slices with perDeviceNodeSelection are left out (GatherPools). */
  buildInventory(slices: readonly DeepReadonly<resourceV1.ResourceSlice>[], options: { readonly partitionableDevices: boolean }): DraInventory;
  /**
   * Allocate for one node: a search that pauses every few devices it tries (where it looks at the
   * clock), its outcome the iterator's return value.
   */
  searchClaims(input: {
    readonly claims: readonly DeepReadonly<resourceV1.ResourceClaim>[];
    readonly node: DraNode;
    readonly inventory: DraInventory;
    readonly getClass: (name: string) => DeepReadonly<resourceV1.DeviceClass> | undefined;
    readonly allocated: ReadonlySet<string>;
    readonly features: DraFeatures;
    /** Whether the Filter's time for this node is up (filterTimeout). */
    readonly timedOut?: (() => boolean) | undefined;
  }): Iterator<void, DraOutcome, void>;
  nodeSelectorMatches(selector: DeepReadonly<NodeSelector>, node: DraNode): boolean;
  /** `<driver>/<pool>/<device>` of an allocation's results (adminAccess ones excluded). */
  resultDeviceIds(allocation: DeepReadonly<resourceV1.AllocationResult> | undefined): string[];
}
