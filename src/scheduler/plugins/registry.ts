// The in-tree plugin registry: name -> factory. Explicit, no registration by import side effect.
// DynamicResources and GangScheduling are added here by their own modules' authors (one line
// each); the default profile picks them up at their upstream positions (see config.ts).
// Upstream: pkg/scheduler/framework/plugins/registry.go.
import type { PluginFactory } from '../framework.ts';
import { newDefaultBinder } from './default-binder.ts';
import { newDefaultPreemption } from './default-preemption.ts';
import { newGangScheduling } from './gang-scheduling.ts';
import { newImageLocality } from './image-locality.ts';
import { newInterPodAffinity } from './inter-pod-affinity.ts';
import { newNodeAffinity } from './node-affinity.ts';
import { newNodePorts } from './node-ports.ts';
import { newPodTopologySpread } from './pod-topology-spread.ts';
import { newVolumeBinding } from './volume-binding.ts';
import { newVolumeRestrictions } from './volume-restrictions.ts';
import { newNodeName } from './node-name.ts';
import { newBalancedAllocation } from './node-resources-balanced-allocation.ts';
import { newNodeResourcesFit } from './node-resources-fit.ts';
import { newNodeUnschedulable } from './node-unschedulable.ts';
import { newPrioritySort } from './priority-sort.ts';
import { newSchedulingGates } from './scheduling-gates.ts';
import { newTaintToleration } from './taint-toleration.ts';
import { lookupTable } from '../../core/index.ts';

export const inTreeRegistry: Readonly<Record<string, PluginFactory>> = lookupTable({
  PrioritySort: newPrioritySort,
  SchedulingGates: newSchedulingGates,
  NodeName: newNodeName,
  NodeUnschedulable: newNodeUnschedulable,
  TaintToleration: newTaintToleration,
  NodeAffinity: newNodeAffinity,
  NodePorts: newNodePorts,
  VolumeRestrictions: newVolumeRestrictions,
  VolumeBinding: newVolumeBinding,
  PodTopologySpread: newPodTopologySpread,
  InterPodAffinity: newInterPodAffinity,
  NodeResourcesFit: newNodeResourcesFit,
  NodeResourcesBalancedAllocation: newBalancedAllocation,
  ImageLocality: newImageLocality,
  DefaultPreemption: newDefaultPreemption,
  DefaultBinder: newDefaultBinder,
  GangScheduling: newGangScheduling,
});
