// Turns the devices picked for one claim into its AllocationResult: results in pick order,
// config from the chosen classes (FromClass) and from the claim (FromClaim), and the node
// selector the devices imply.
// Upstream: structured/internal/stable/allocator_stable.go (end of Allocate, createNodeSelector).
import type { DeepReadonly } from '../core/index.ts';
import type { NodeSelector, NodeSelectorRequirement, resourceV1 } from '../api/index.ts';
import type { RequestData } from './allocator.ts';
import type { DeviceRecord } from './inventory.ts';

export interface PickedDevice {
  readonly request: RequestData;
  readonly device: DeviceRecord;
}

const clone = <T>(v: DeepReadonly<T>): T => structuredClone(v) as T;

/** `chosen`: per claim request, the RequestData that was allocated (the chosen subrequest for firstAvailable). */
export function buildAllocationResult(claim: DeepReadonly<resourceV1.ResourceClaim>, chosen: readonly RequestData[], picked: readonly PickedDevice[]): resourceV1.AllocationResult {
  const results = picked.map(({ request, device }): resourceV1.DeviceRequestAllocationResult => {
    const r: resourceV1.DeviceRequestAllocationResult = { request: request.name, driver: device.driver, pool: device.pool, device: device.name };
    if (request.adminAccess) r.adminAccess = true;
    if (request.tolerations.length > 0) r.tolerations = clone<resourceV1.DeviceToleration[]>(request.tolerations);
    return r;
  });
  const config: resourceV1.DeviceAllocationConfiguration[] = [];
  // Each class's config appears once, listing every request that uses the class.
  const classConfigs = new Map<string, resourceV1.DeviceAllocationConfiguration[]>();
  for (const data of chosen) {
    const existing = classConfigs.get(data.className);
    if (existing) {
      for (const c of existing) c.requests?.push(data.name);
      continue;
    }
    const added = (data.class.spec.config ?? []).map((c): resourceV1.DeviceAllocationConfiguration => ({ source: 'FromClass', requests: [data.name], ...clone<resourceV1.DeviceConfiguration>(c) }));
    config.push(...added);
    classConfigs.set(data.className, added);
  }
  const requests = claim.spec.devices?.requests ?? [];
  for (const c of claim.spec.devices?.config ?? []) {
    const names = c.requests ?? [];
    const applies =
      names.length === 0 ||
      requests.some((r, i) => names.includes(r.name) || (chosen[i]?.subName !== undefined && names.includes(chosen[i]?.name ?? '')));
    if (!applies) continue;
    const entry: resourceV1.DeviceAllocationConfiguration = { source: 'FromClaim', ...clone<resourceV1.DeviceConfiguration>({ ...(c.opaque ? { opaque: c.opaque } : {}) }) };
    if (names.length > 0) entry.requests = [...names];
    config.push(entry);
  }
  // A config that covers every request says so by listing none.
  for (const c of config) if (c.requests && c.requests.length === requests.length) delete c.requests;
  const result: resourceV1.AllocationResult = { devices: { results, ...(config.length > 0 ? { config } : {}) } };
  const nodeSelector = createNodeSelector(picked.map((p) => p.device));
  if (nodeSelector) result.nodeSelector = nodeSelector;
  return result;
}

function sameRequirement(a: DeepReadonly<NodeSelectorRequirement>, b: DeepReadonly<NodeSelectorRequirement>): boolean {
  const av = new Set(a.values ?? []);
  const bv = b.values ?? [];
  return a.key === b.key && a.operator === b.operator && av.size === new Set(bv).size && bv.every((v) => av.has(v));
}

/** createNodeSelector: a node-local device pins the claim to its node; else merge slice selectors. */
export function createNodeSelector(devices: readonly DeviceRecord[]): NodeSelector | undefined {
  const fields: NodeSelectorRequirement[] = [];
  const exprs: NodeSelectorRequirement[] = [];
  for (const d of devices) {
    const perDevice = d.slice.spec.perDeviceNodeSelection === true;
    const nodeName = perDevice ? d.device.nodeName : d.slice.spec.nodeName;
    const selector = perDevice ? d.device.nodeSelector : d.slice.spec.nodeSelector;
    if (nodeName) return { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] };
    const term = selector?.nodeSelectorTerms[0];
    if (!term) continue;
    for (const r of term.matchFields ?? []) if (!fields.some((f) => sameRequirement(f, r))) fields.push(clone<NodeSelectorRequirement>(r));
    for (const r of term.matchExpressions ?? []) if (!exprs.some((f) => sameRequirement(f, r))) exprs.push(clone<NodeSelectorRequirement>(r));
  }
  if (fields.length === 0 && exprs.length === 0) return undefined;
  return { nodeSelectorTerms: [{ ...(exprs.length > 0 ? { matchExpressions: exprs } : {}), ...(fields.length > 0 ? { matchFields: fields } : {}) }] };
}
