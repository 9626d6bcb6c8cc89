// FitError: why no node fits, in upstream's words. The message formula is the contract users
// grep for: "0/N nodes are available: <PreFilterMsg>." or the sorted "<count> <reason>"
// histogram, then " <PostFilterMsg>" (preemption's own FitError string, prefixed).
// Upstream: pkg/scheduler/framework/types.go (Diagnosis, FitError.Error), NodeToStatus.
import type { NodeToStatus, Status } from './framework.ts';
import { statusReasons, unresolvable } from './framework.ts';

/** NodeToStatus: explicit statuses for rejected nodes, one shared status for the rest. */
export class NodeStatusMap implements NodeToStatus {
  readonly explicit = new Map<string, Status>();
  absent: Status;
  constructor(absent: Status = unresolvable()) {
    this.absent = absent;
  }
  get(nodeName: string): Status | undefined {
    return this.explicit.get(nodeName) ?? this.absent;
  }
  set(nodeName: string, s: Status): void {
    this.explicit.set(nodeName, s);
  }
}

export interface Diagnosis {
  nodeToStatus: NodeStatusMap;
  unschedulablePlugins: Set<string>;
  pendingPlugins: Set<string>;
  preFilterMsg: string;
  postFilterMsg: string;
}

export function newDiagnosis(): Diagnosis {
  return { nodeToStatus: new NodeStatusMap(), unschedulablePlugins: new Set(), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
}

/** Go's sort.Strings order: byte-wise, so "10 x" sorts before "2 y". */
function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** FitError.Error(). */
export function fitErrorMessage(numAllNodes: number, d: Pick<Diagnosis, 'nodeToStatus' | 'preFilterMsg' | 'postFilterMsg'>): string {
  let msg = `0/${numAllNodes} nodes are available:`;
  if (d.preFilterMsg !== '') {
    msg += ` ${d.preFilterMsg}.`;
  } else {
    const counts = new Map<string, number>();
    for (const s of d.nodeToStatus.explicit.values()) for (const r of statusReasons(s)) counts.set(r, (counts.get(r) ?? 0) + 1);
    const absentNodes = numAllNodes - d.nodeToStatus.explicit.size;
    if (absentNodes > 0) for (const r of statusReasons(d.nodeToStatus.absent)) counts.set(r, (counts.get(r) ?? 0) + absentNodes);
    const parts = [...counts].map(([r, n]) => `${n} ${r}`).sort(byteCompare);
    if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
  }
  if (d.postFilterMsg !== '') msg += ` ${d.postFilterMsg}`;
  return msg;
}
