// TaintNodesByCondition: every new Node starts tainted node.kubernetes.io/not-ready:NoSchedule, so no
// pod lands on it before the node lifecycle controller has seen its conditions; that controller's
// NoSchedule pass lifts the taint once the Ready condition is neither False nor Unknown.
// Upstream: plugin/pkg/admission/nodetaint/admission.go.
import type { Node } from '../api/index.ts';
import { taintNodeNotReady } from '../api/index.ts';
import type { AdmissionPlugin } from './admission.ts';

export const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  mutate(attrs) {
    if (attrs.operation !== 'CREATE' || attrs.def.resource !== 'nodes' || attrs.def.group !== '' || attrs.ctx.subresource) return;
    const node = attrs.object as unknown as Node;
    const taints = node.spec?.taints ?? [];
    // MatchTaint: the same key and effect, whatever the value.
    if (taints.some((t) => t.key === taintNodeNotReady && t.effect === 'NoSchedule')) return;
    node.spec = { ...node.spec, taints: [...taints, { key: taintNodeNotReady, effect: 'NoSchedule' }] };
  },
};
