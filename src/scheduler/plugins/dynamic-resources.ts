// DynamicResources: pods with ResourceClaims wait until their claims exist (PreEnqueue), get
// devices from the structured allocator per node (Filter), keep them in memory from Reserve so
// a burst never hands a device out twice, and have the allocation, the delete-protection
// finalizer and the reservation written in PreBind. PostFilter deallocates a claim that pins
// the pod to nodes where it cannot run.
// Upstream: pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go (1.35).
import { refs, resourceV1 } from '../../api/index.ts';
import type { DeepReadonly } from '../../core/index.ts';
import { componentTurnOver, isApiError, monotonicMs, nextTurn, parseGoDuration } from '../../core/index.ts';
import type { DraAllocator, DraFeatures, DraInventory, DraOutcome } from './dynamic-resources-allocator.ts';
import type { ClusterEventWithHint, EventKeys, Handle, Plugin, PluginFactory, PodRO, QueueingHint, Status } from '../framework.ts';
import { ActionType, errorStatus, maxNodeScore, skip, stateKey, success, unresolvable, unschedulable } from '../framework.ts';
import { canBeReserved, claimKeysOfPod, claimRef, isReservedForPod, namesClaim, podResourceClaims } from './dynamic-resources-claims.ts';
import { ClaimTracker } from './dynamic-resources-tracker.ts';
import type { ClaimRO } from './dynamic-resources-tracker.ts';
import { defaultNormalizeScore } from './normalize.ts';
import { createDeviceRequests, createRequestMappings, deviceClassMapping, errReasonExtendedClaim, findExtendedResourceClaim, mappedPodResources, specialClaim } from './dynamic-resources-extended.ts';

export const name = 'DynamicResources';
export const errReasonCannotAllocate = 'cannot allocate all claims';
export const errReasonNotAvailable = 'resourceclaim not available on the node';
export const errReasonInUse = 'resourceclaim in use';
export const msgNoClaims = 'no new claims to deallocate';
export const msgDeallocated = 'deallocation of ResourceClaim completed';
export const msgStillNotSchedulable = 'still not schedulable';
export const msgDeletedClaim = 'deletion of ResourceClaim completed';

type Claim = resourceV1.ResourceClaim;

interface DraState {
  /** The pod's claims (spec order); PreBind replaces entries with what it wrote. */
  claims: ClaimRO[];
  /** Allocated claims: where their devices are. */
  availableOnNodes: (DeepReadonly<resourceV1.AllocationResult>['nodeSelector'] | undefined)[];
  /** Indexes of the claims the scheduler must allocate. */
  toAllocate: number[];
  /** Indexes of allocated claims that did not fit some node (PostFilter may deallocate one). */
  unavailable: Set<number>;
  inventory?: DraInventory;
  /** The claim specs to allocate, for the per-node "nothing fits" cache. */
  shape: string;
  /** Only firstAvailable requests give nodes different scores. */
  scored: boolean;
  nodeAllocations: Map<string, resourceV1.AllocationResult[]>;
  /** When this cycle's searches for devices are out of time (monotonic ms), set by the first one. */
  searchesEnd?: number;
  /** Set by Reserve, written by PreBind. */
  allocations: (resourceV1.AllocationResult | undefined)[];
  /** DRAExtendedResource: the pod's mapped extended resources, and a special claim left by an earlier cycle. */
  extended?: { mapping: ReadonlyMap<string, string>; resources: string[]; stale?: ClaimRO };
  /** Per node: the special claim allocated there (its allocation is the last of nodeAllocations). */
  nodeSpecial: Map<string, ClaimRO>;
  /** Set by Reserve; PreBind creates the claim (`created`) from it. */
  special?: { claim: ClaimRO; allocation: resourceV1.AllocationResult; created?: ClaimRO };
}

const key = stateKey<DraState>('DynamicResources');

/** The allocator's outcome on one node, and what it was computed from. */
interface Verdict {
  shape: string;
  node: object;
  inventoryGen: number;
  classGen: number;
  outcome: DraOutcome;
}
const withStale = (c: ClaimRO | undefined): { stale?: ClaimRO } => (c ? { stale: c } : {});
const maxRetries = 5;

/** The plugin factory, given dra/'s allocator (cluster/ wires it; see dynamic-resources-allocator.ts). */
/** Upstream's default DynamicResourcesArgs.filterTimeout. */
const defaultFilterTimeoutMs = 10_000;

/**
 * DynamicResourcesArgs.filterTimeout (a Go duration; "0s" turns the limit off) in milliseconds, or
 * undefined for none; the limit applies only with the DRASchedulerFilterTimeout gate on.
 */
export function filterTimeoutMs(args: Readonly<Record<string, unknown>>, gate: boolean): number | undefined {
  const value = args['filterTimeout'];
  const parsed = typeof value === 'string' ? parseGoDuration(value) : undefined;
  if (value !== undefined && parsed === undefined) {
    throw new Error(`filterTimeout: Invalid value: ${JSON.stringify(value)}: must be a duration like "10s"`);
  }
  const ms = parsed ?? defaultFilterTimeoutMs;
  if (ms < 0) throw new Error(`filterTimeout: Invalid value: ${JSON.stringify(value)}: must be zero or positive`);
  return gate && ms > 0 ? ms : undefined;
}

/**
 * `elapsedMs`: real elapsed milliseconds, what the filterTimeout is measured in (default: core's
 * monotonicMs); tests give a fake to run a search to its timeout step by step.
 */
export const dynamicResourcesFactory = (dra: DraAllocator, options: { readonly elapsedMs?: () => number } = {}): PluginFactory => (args, handle, features) => {
  const elapsedMs = options.elapsedMs ?? monotonicMs;
  // The search for devices holds the thread the whole cluster runs on: past this, the node is
  // reported as upstream's Filter reports a deadline exceeded.
  const timeoutMs = filterTimeoutMs(args, features.DRASchedulerFilterTimeout);
  const draFeatures: DraFeatures = {
    prioritizedList: features.DRAPrioritizedList,
    adminAccess: features.DRAAdminAccess,
    partitionableDevices: features.DRAPartitionableDevices,
    deviceTaints: features.DRADeviceTaints,
  };
  const claimInformer = handle.informer<Claim>(refs.resourceClaims);
  const tracker = new ClaimTracker(claimInformer, dra.resultDeviceIds);
  const classes = handle.informer<resourceV1.DeviceClass>(refs.deviceClasses);
  const slices = handle.informer<resourceV1.ResourceSlice>(refs.resourceSlices);
  let inventory: DraInventory | undefined;
  let inventoryGen = 0;
  let classGen = 0;
  slices.addHandlers({ onAdd: () => (inventory = undefined), onUpdate: () => (inventory = undefined), onDelete: () => (inventory = undefined) });
  let mapping: { gen: number; value: ReadonlyMap<string, string> } | undefined;
  classes.addHandlers({ onAdd: () => classGen++, onUpdate: () => classGen++, onDelete: () => classGen++ });
  const currentMapping = (): ReadonlyMap<string, string> => {
    if (mapping?.gen !== classGen) mapping = { gen: classGen, value: deviceClassMapping(classes.list()) };
    return mapping.value;
  };
  const getClass = (className: string): DeepReadonly<resourceV1.DeviceClass> | undefined => classes.getByName(undefined, className);
  const currentInventory = (): DraInventory => {
    if (!inventory) {
      inventory = dra.buildInventory(slices.list(), { partitionableDevices: features.DRAPartitionableDevices });
      inventoryGen++;
    }
    return inventory;
  };
  // Drydock addition (not upstream): the allocator is a pure function of the claim specs, the
  // node, the slices, the classes and which devices of the node's pools are taken. Its outcome
  // per node is kept until one of those changes, so a cycle re-runs it only on nodes whose pools
  // changed (usually just the last pod's node) instead of on every node. A device taken or freed
  // drops the verdicts of the nodes that see its pool, so a kept verdict needs no check of the
  // pools themselves.
  const verdicts = new Map<string, Verdict>();
  const nodesOfPool = new Map<string, Set<string>>();
  // Pods from one template have equal shapes in distinct strings; one string per shape makes the
  // per-node comparison a pointer check instead of a walk over the claim specs' JSON.
  const shapes = new Map<string, string>();
  const internShape = (shape: string): string => {
    const known = shapes.get(shape);
    if (known !== undefined) return known;
    if (shapes.size >= 1024) shapes.clear();
    shapes.set(shape, shape);
    return shape;
  };
  // Counts the device changes, so a search that waited through one does not keep a verdict from before it.
  let poolChanges = 0;
  tracker.onPoolChanged((pool) => {
    poolChanges++;
    const nodes = nodesOfPool.get(pool);
    if (!nodes) return;
    for (const name of nodes) verdicts.delete(name);
    nodesOfPool.delete(pool);
  });
  const keepVerdict = (nodeName: string, pools: readonly { readonly id: string }[], verdict: Verdict): void => {
    verdicts.set(nodeName, verdict);
    for (const p of pools) {
      const nodes = nodesOfPool.get(p.id);
      if (nodes) nodes.add(nodeName);
      else nodesOfPool.set(p.id, new Set([nodeName]));
    }
  };

  const client = handle.client;

  const bindClaim = async (st: DraState, index: number, pod: PodRO): Promise<ClaimRO> => {
    let claim = st.claims[index] as ClaimRO;
    const allocation = st.allocations[index];
    const uid = claim.metadata.uid ?? '';
    let modified = false;
    try {
      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) claim = await client.get<Claim>(refs.resourceClaims, claim.metadata.namespace, claim.metadata.name ?? '');
        if (claim.metadata.deletionTimestamp) throw new Error(`claim ${claimRef(claim)} got deleted in the meantime`);
        // The client copies what it sends, so the writes below share the unchanged parts of the claim.
        let base: ClaimRO = claim;
        try {
          if (allocation) {
            if (claim.status?.allocation) throw new Error(`claim ${claimRef(claim)} got allocated elsewhere in the meantime`);
            // The finalizer needs a normal update; an interrupted earlier attempt may have added it.
            const finalizers = claim.metadata.finalizers ?? [];
            if (!finalizers.includes(resourceV1.ResourceClaimDeleteProtectionFinalizer)) {
              try {
                base = await client.update<Claim>(refs.resourceClaims, { ...claim, metadata: { ...claim.metadata, finalizers: [...finalizers, resourceV1.ResourceClaimDeleteProtectionFinalizer] } } as Claim);
              } catch (error) {
                if (isApiError(error) && error.reason === 'Conflict') throw error;
                throw new Error(`add finalizer to claim ${claimRef(claim)}: ${error instanceof Error ? error.message : String(error)}`);
              }
            }
          }
          const reservedFor = [...(base.status?.reservedFor ?? []), { resource: 'pods', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' }];
          const next = { ...base, status: allocation ? { ...base.status, allocation, reservedFor } : { ...base.status, reservedFor } } as Claim;
          try {
            claim = await client.updateStatus<Claim>(refs.resourceClaims, next);
          } catch (error) {
            if (isApiError(error) && error.reason === 'Conflict') throw error;
            throw new Error(`${allocation ? 'add allocation and reservation' : 'add reservation'} to claim ${claimRef(claim)}: ${error instanceof Error ? error.message : String(error)}`);
          }
          modified = true;
          return claim;
        } catch (error) {
          if (!(isApiError(error) && error.reason === 'Conflict') || attempt + 1 >= maxRetries) throw error;
        }
      }
    } finally {
      // The written claim holds the devices until the informer has it; only then the in-flight entry goes.
      if (modified) tracker.assume(claim);
      if (allocation) tracker.removePendingAllocation(uid);
    }
  };

  /** PreBind for the special claim: create it (with the finalizer), write allocation and reservation, then point the pod at it. */
  const bindSpecialClaim = async (special: NonNullable<DraState['special']>, pod: PodRO): Promise<void> => {
    const pendingUid = special.claim.metadata.uid ?? '';
    try {
      const { name: _name, uid: _uid, ...meta } = special.claim.metadata;
      const draft = { ...structuredClone(special.claim), metadata: { ...structuredClone(meta), finalizers: [resourceV1.ResourceClaimDeleteProtectionFinalizer] } } as Claim;
      let created: Claim;
      try {
        created = structuredClone(await client.create<Claim>(refs.resourceClaims, draft, { namespace: draft.metadata.namespace ?? '' }));
      } catch (error) {
        throw new Error(`create claim for extended resources: ${error instanceof Error ? error.message : String(error)}`);
      }
      special.created = created;
      created.status = { allocation: structuredClone(special.allocation), reservedFor: [{ resource: 'pods', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' }] };
      let written: ClaimRO;
      try {
        written = await client.updateStatus<Claim>(refs.resourceClaims, created);
      } catch (error) {
        throw new Error(`add allocation and reservation to claim ${claimRef(created)}: ${error instanceof Error ? error.message : String(error)}`);
      }
      tracker.assume(written);
      special.created = written;
      const status = { extendedResourceClaimStatus: { resourceClaimName: written.metadata.name ?? '', requestMappings: createRequestMappings(written.spec.devices?.requests ?? [], pod) } };
      try {
        await client.patch(refs.pods, pod.metadata.namespace, pod.metadata.name ?? '', 'merge', { status }, { subresource: 'status' });
      } catch (error) {
        throw new Error(`update pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''} ExtendedResourceClaimStatus: ${error instanceof Error ? error.message : String(error)}`);
      }
    } finally {
      tracker.removePendingAllocation(pendingUid);
    }
  };

  // The hint below skips every pod that does not name the claim, unless the claim went away or
  // was deallocated: those events concern every waiting pod.
  const claimEventKeys: EventKeys = {
    ofPod: claimKeysOfPod,
    ofEvent(oldObj, newObj) {
      const original = oldObj as ClaimRO | undefined;
      const modified = newObj as ClaimRO | undefined;
      if (!modified || (original?.status?.allocation !== undefined && !modified.status?.allocation)) return undefined;
      return [`${modified.metadata.namespace ?? ''}/${modified.metadata.name ?? ''}`];
    },
  };

  const isSchedulableAfterClaimChange = (pod: PodRO, oldObj: object | undefined, newObj: object | undefined): QueueingHint => {
    const original = oldObj as ClaimRO | undefined;
    const modified = newObj as ClaimRO | undefined;
    if (!modified) return 'Queue';
    const deallocated = original?.status?.allocation !== undefined && !modified.status?.allocation;
    // Upstream skips whenever the pod does not use the claim, unless it was deallocated: a pod that
    // does not even name it is answered without resolving its claims (every waiting pod is asked
    // about every claim event).
    if (!deallocated && !namesClaim(pod, modified)) return 'QueueSkip';
    const r = podResourceClaims(pod, tracker);
    if (!r.ok) return 'QueueSkip';
    // A deallocated claim freed devices for everyone.
    if (deallocated) return 'Queue';
    if (!r.claims.some((c) => c.metadata.uid === modified.metadata.uid)) return 'QueueSkip';
    if (!original) return 'Queue';
    return JSON.stringify(original.status ?? {}) === JSON.stringify(modified.status ?? {}) ? 'QueueSkip' : 'Queue';
  };

  const isSchedulableAfterPodChange = (pod: PodRO, _oldObj: object | undefined, newObj: object | undefined): QueueingHint => {
    const modified = newObj as PodRO | undefined;
    if (!modified || modified.metadata.uid !== pod.metadata.uid) return 'QueueSkip';
    return podResourceClaims(modified, tracker).ok ? 'Queue' : 'QueueSkip';
  };

  return {
    name,
    preEnqueue(pod) {
      if ((pod.spec.resourceClaims ?? []).length === 0) return success;
      const r = podResourceClaims(pod, tracker);
      return r.ok ? success : unresolvable(r.message);
    },
    preFilter(state, pi) {
      const pod = pi.pod;
      const st: DraState = { claims: [], availableOnNodes: [], toAllocate: [], unavailable: new Set(), shape: '', scored: false, nodeAllocations: new Map(), allocations: [], nodeSpecial: new Map() };
      state.write(key, st);
      if (features.DRAExtendedResource) {
        const m = currentMapping();
        const resources = mappedPodResources(pod, m);
        if (resources.length > 0) st.extended = { mapping: m, resources, ...withStale(findExtendedResourceClaim(pod, claimInformer.list())) };
      }
      if ((pod.spec.resourceClaims ?? []).length === 0 && !st.extended) return skip;
      const r = podResourceClaims(pod, tracker);
      if (!r.ok) return unresolvable(r.message);
      if (r.claims.length === 0 && !st.extended) return skip;
      const toAllocate: number[] = [];
      for (const [i, claim] of r.claims.entries()) {
        const allocation = claim.status?.allocation;
        if (allocation && !canBeReserved(claim) && !isReservedForPod(pod, claim)) return unresolvable(errReasonInUse);
        if (allocation) {
          st.availableOnNodes[i] = allocation.nodeSelector;
          continue;
        }
        toAllocate.push(i);
        if (tracker.hasPendingAllocation(claim.metadata.uid ?? '')) return unresolvable(`resource claim ${claimRef(claim)} is in the process of being allocated`);
        for (const request of claim.spec.devices?.requests ?? []) {
          if (!request.exactly && (request.firstAvailable ?? []).length > 0 && !features.DRAPrioritizedList) {
            return unresolvable(`resource claim ${claimRef(claim)}, request ${request.name}: has subrequests, but the DRAPrioritizedList feature is disabled`);
          }
          const checks: [string, string][] = request.exactly
            ? [[request.exactly.deviceClassName, request.name]]
            : (request.firstAvailable ?? []).map((s) => [s.deviceClassName, `${request.name}/${s.name}`]);
          if (checks.length === 0) return unresolvable(`resource claim ${claimRef(claim)}, request ${request.name}: unknown request type`);
          for (const [className, requestName] of checks) {
            if (!className) return errorStatus(new Error(`request ${requestName}: unsupported request type`));
            if (!getClass(className)) return unresolvable(`request ${requestName}: device class ${className} does not exist`);
          }
        }
      }
      if (toAllocate.length > 0 || st.extended) {
        st.inventory = currentInventory();
        st.shape = internShape(JSON.stringify(toAllocate.map((i) => r.claims[i]?.spec)));
        st.scored = toAllocate.some((i) => (r.claims[i]?.spec.devices?.requests ?? []).some((q) => (q.firstAvailable ?? []).length > 0));
      }
      st.toAllocate = toAllocate;
      st.claims = r.claims;
      return success;
    },
    filter(state, _pod, nodeInfo) {
      const st = state.read(key);
      const node = nodeInfo.node;
      if (!st || (st.claims.length === 0 && !st.extended) || !node) return success;
      // A special claim from an earlier cycle: PostFilter deletes it and the pod starts over.
      if (st.extended?.stale) return unschedulable(errReasonExtendedClaim);
      let unavailable: number[] | undefined;
      for (let i = 0; i < st.availableOnNodes.length; i++) {
        const sel = st.availableOnNodes[i];
        if (sel && !dra.nodeSelectorMatches(sel, node)) (unavailable ??= []).push(i);
      }
      // Mapped resources the node offers through a device plugin are NodeResourcesFit's.
      const viaDra = st.extended ? st.extended.resources.filter((r) => !((nodeInfo.allocatable.scalar?.get(r) ?? 0) > 0)) : undefined;
      const special = viaDra && viaDra.length > 0 && st.extended ? specialClaim(_pod.pod, createDeviceRequests(_pod.pod, viaDra, st.extended.mapping)) : undefined;
      const verdict = (outcome: DraOutcome | undefined): Status => filterVerdict(st, nodeInfo.name, outcome, unavailable, special);
      if (!st.inventory || (st.toAllocate.length === 0 && !special)) return verdict(undefined);
      const shape = special ? `${st.shape}|${JSON.stringify(special.spec)}` : st.shape;
      const known = verdicts.get(nodeInfo.name);
      if (known && known.node === node && known.inventoryGen === inventoryGen && known.classGen === classGen && known.shape === shape) return verdict(known.outcome);
      const pools = st.inventory.poolsForNode(node);
      const claims = st.toAllocate.map((i) => st.claims[i] as ClaimRO);
      if (special) claims.push(special);
      // What the verdict is kept under is what the search started from: the slices, classes and taken
      // devices may change while it waits, and then it is not kept at all.
      const kept = { shape, node, inventoryGen, classGen };
      if (pools.length === 0) {
        const outcome: DraOutcome = { type: 'unschedulable', reason: errReasonCannotAllocate };
        keepVerdict(nodeInfo.name, pools, { ...kept, outcome });
        return verdict(outcome);
      }
      const search = searchTime(st, timeoutMs, handle.snapshot().list().length, elapsedMs);
      const changesBefore = poolChanges;
      const settle = (outcome: DraOutcome): Status => {
        // A node cut short by the cycle's shared time is tried again in a later cycle, not remembered as timed out.
        const cutShort = outcome.type === 'unschedulable' && search.cutShort();
        const current = poolChanges === changesBefore && kept.inventoryGen === inventoryGen && kept.classGen === classGen;
        if (outcome.type !== 'error' && !cutShort && current) keepVerdict(nodeInfo.name, pools, { ...kept, outcome });
        return verdict(outcome);
      };
      const outcome = runSearch(dra.searchClaims({ claims, node, inventory: st.inventory, getClass, allocated: tracker.allocated, features: draFeatures, timedOut: search.timedOut }), state.filterMayWait ? handle : undefined);
      return outcome instanceof Promise ? outcome.then(settle) : settle(outcome);
    },
    async postFilter(state, pi) {
      const st = state.read(key);
      if (!st || (st.claims.length === 0 && !st.extended)) return { status: unschedulable(msgNoClaims) };
      for (const i of st.unavailable) {
        const claim = st.claims[i] as ClaimRO;
        const reserved = claim.status?.reservedFor ?? [];
        if (reserved.length === 0 || (reserved.length === 1 && reserved[0]?.uid === pi.uid)) {
          const next = structuredClone(claim) as Claim;
          next.status = {};
          try {
            await client.updateStatus<Claim>(refs.resourceClaims, next);
          } catch (error) {
            return { status: errorStatus(error) };
          }
          return { status: unschedulable(msgDeallocated) };
        }
      }
      const stale = st.extended?.stale;
      if (stale) {
        try {
          await client.delete(refs.resourceClaims, stale.metadata.namespace, stale.metadata.name ?? '');
        } catch (error) {
          return { status: errorStatus(error) };
        }
        return { status: unschedulable(msgDeletedClaim) };
      }
      return { status: unschedulable(msgStillNotSchedulable) };
    },
    score(state, _pod, nodeInfo) {
      const st = state.read(key);
      const results = st?.nodeAllocations.get(nodeInfo.name);
      if (!st?.scored || !results) return 0;
      // 1.35: prefer nodes where earlier firstAvailable subrequests could be used.
      let score = 0;
      for (const [j, i] of st.toAllocate.entries()) {
        const chosen = new Set((results[j]?.devices?.results ?? []).map((r) => r.request).filter((r) => r.includes('/')));
        for (const req of st.claims[i]?.spec.devices?.requests ?? []) {
          for (const [k, sub] of (req.firstAvailable ?? []).entries()) if (chosen.has(`${req.name}/${sub.name}`)) score += resourceV1.ResourceLimits.FirstAvailableDeviceRequestMaxSize - k;
        }
      }
      return score;
    },
    normalizeScore(_state, _pod, scores) {
      defaultNormalizeScore(maxNodeScore, false, scores);
    },
    reserve(state, _pod, nodeName) {
      const st = state.read(key);
      const special = st?.nodeSpecial.get(nodeName);
      if (!st || (st.toAllocate.length === 0 && !special)) return success;
      const results = st.nodeAllocations.get(nodeName);
      if (!results) return errorStatus(new Error('claim allocation not found for node'));
      if (special) {
        const allocation = results[st.toAllocate.length] as resourceV1.AllocationResult;
        st.special = { claim: special, allocation };
        tracker.signalPendingAllocation({ ...special, status: { allocation } } as ClaimRO);
      }
      if (results.length !== st.toAllocate.length + (special ? 1 : 0)) return errorStatus(new Error(`internal error, have ${results.length} allocations, ${st.toAllocate.length} claims to allocate`));
      for (const [j, i] of st.toAllocate.entries()) {
        const allocation = results[j] as resourceV1.AllocationResult;
        st.allocations[i] = allocation;
        const claim = st.claims[i] as ClaimRO;
        tracker.signalPendingAllocation({ ...claim, status: { ...claim.status, allocation } } as ClaimRO);
      }
      return success;
    },
    async unreserve(state, pi) {
      const st = state.read(key);
      if (!st) return;
      if (st.special) {
        tracker.removePendingAllocation(st.special.claim.metadata.uid ?? '');
        const created = st.special.created;
        if (created) await client.delete(refs.resourceClaims, created.metadata.namespace, created.metadata.name ?? '').catch((error: unknown) => handle.log(`unreserve: delete ${claimRef(created)}: ${String(error)}`));
        delete st.special;
      }
      for (const claim of st.claims) {
        tracker.removePendingAllocation(claim.metadata.uid ?? '');
        if (claim.status?.allocation && isReservedForPod(pi.pod, claim)) {
          // A strategic-merge patch removes just this pod's entry, without the latest claim.
          const patch = { metadata: { uid: claim.metadata.uid }, status: { reservedFor: [{ $patch: 'delete', uid: pi.uid }] } };
          await client.patch(refs.resourceClaims, claim.metadata.namespace, claim.metadata.name ?? '', 'strategic', patch, { subresource: 'status' }).catch((error: unknown) => handle.log(`unreserve ${claimRef(claim)}: ${String(error)}`));
        }
      }
    },
    async preBind(state, pi) {
      const st = state.read(key);
      if (!st) return success;
      for (const [i, claim] of st.claims.entries()) {
        if (isReservedForPod(pi.pod, claim)) continue;
        try {
          st.claims[i] = await bindClaim(st, i, pi.pod);
        } catch (error) {
          return errorStatus(error);
        }
      }
      if (st.special) {
        try {
          await bindSpecialClaim(st.special, pi.pod);
        } catch (error) {
          return errorStatus(error);
        }
      }
      return success;
    },
    eventsToRegister: (): ClusterEventWithHint[] => [
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeAllocatable } },
      { event: { resource: 'ResourceClaim', actionType: ActionType.Add | ActionType.Update }, hint: isSchedulableAfterClaimChange, keys: claimEventKeys },
      { event: { resource: 'Pod', actionType: ActionType.UpdatePodGeneratedResourceClaim }, hint: isSchedulableAfterPodChange },
      { event: { resource: 'DeviceClass', actionType: ActionType.Add | ActionType.Update } },
      { event: { resource: 'ResourceSlice', actionType: ActionType.Add | ActionType.Update } },
    ],
  } satisfies Plugin & { preEnqueue(pod: PodRO): Status };
};

/** The Filter's answer from the node's allocation outcome (undefined when nothing needed allocating). */
function filterVerdict(st: DraState, nodeName: string, outcome: DraOutcome | undefined, unavailable: readonly number[] | undefined, special: ClaimRO | undefined): Status {
  let results: resourceV1.AllocationResult[] | undefined;
  switch (outcome?.type) {
    case undefined:
      break;
    case 'error':
      return errorStatus(new Error(outcome.message));
    case 'unschedulable':
      return unresolvable(outcome.reason);
    case 'allocated':
      results = outcome.results;
      break;
    default: {
      const never: never = outcome;
      return errorStatus(new Error(`unexpected allocation outcome ${JSON.stringify(never)}`));
    }
  }
  if (unavailable) {
    for (const i of unavailable) st.unavailable.add(i);
    return unresolvable(errReasonNotAvailable);
  }
  if (results) st.nodeAllocations.set(nodeName, results);
  if (special) st.nodeSpecial.set(nodeName, special);
  else if (st.nodeSpecial.size > 0) st.nodeSpecial.delete(nodeName);
  return success;
}

/** How long a search that may wait keeps the thread at a time: a request that arrives meanwhile waits no longer. */
const searchSliceMs = 20;

/**
 * Runs an allocation search to its end. Where the cycle may wait (`waitsFor` is then the scheduler), it
 * leaves the thread every slice (or sooner, once the components have held it past their budget) and
 * goes on in a later turn: a search that cannot finish keeps the API server answering through its
 * filterTimeout, as upstream's scheduler runs beside it.
 */
function runSearch(search: Iterator<void, DraOutcome, void>, waitsFor: Pick<Handle, 'stopping'> | undefined): DraOutcome | Promise<DraOutcome> {
  // A scheduler stopping meanwhile ends the search, as its cancelled context ends upstream's.
  if (waitsFor?.stopping()) return { type: 'error', message: 'context canceled' };
  const sliceEnd = waitsFor ? monotonicMs() + searchSliceMs : Infinity;
  for (;;) {
    const next = search.next();
    if (next.done) return next.value;
    if (!waitsFor) continue;
    const turn = monotonicMs() > sliceEnd ? nextTurn() : componentTurnOver();
    if (turn) return turn.then(() => runSearch(search, waitsFor));
  }
}

/** KubeSchedulerConfiguration.parallelism's default: how many nodes upstream filters at once. */
const filterParallelism = 16;

/**
 * One node's time to search for devices. Upstream filters 16 nodes at a time, each with its own
 * filterTimeout, so a search that cannot finish holds its scheduler ceil(nodes / 16) timeouts. One
 * thread filtering the nodes in turn gets that same time if the cycle's searches share it: each
 * node has at most filterTimeout, and none runs past the cycle's end (`cutShort` when that stopped it).
 * Real time: a compute budget, not the cluster's clock.
 */
function searchTime(st: DraState, timeoutMs: number | undefined, nodes: number, elapsedMs: () => number): { timedOut: (() => boolean) | undefined; cutShort: () => boolean } {
  if (timeoutMs === undefined) return { timedOut: undefined, cutShort: () => false };
  const now = elapsedMs();
  st.searchesEnd ??= now + timeoutMs * Math.ceil(Math.max(nodes, 1) / filterParallelism);
  const end = Math.min(now + timeoutMs, st.searchesEnd);
  const timedOut = (): boolean => elapsedMs() > end;
  return { timedOut, cutShort: () => end < now + timeoutMs && timedOut() };
}
