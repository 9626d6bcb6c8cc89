// `kubectl get pods` columns and cells: READY counts sidecars, STATUS follows printPod's precedence
// (reason, SchedulingGated, init progress, container states, Completed->Running/NotReady, Terminating).
// Upstream: pkg/printers/internalversion/printers.go (podColumnDefinitions, printPod).
import type { DeepReadonly } from '../../../../core/index.ts';
import type { TableColumnDefinition, TablePrinter } from '../../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../../table-cells.ts';
import type { Pod } from './types.ts';

export const podColumns: readonly TableColumnDefinition[] = [
  nameColumn,
  column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'string', 'The aggregate status of the containers in this pod.'),
  column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
  ageColumn,
  column('IP', 'string', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
  column(
    'Node',
    'string',
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
    1,
  ),
  column(
    'Nominated Node',
    'string',
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
    1,
  ),
  column(
    'Readiness Gates',
    'string',
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
    1,
  ),
];

// node.NodeUnreachablePodReason: the node lifecycle controller's reason for pods on a lost node.
const nodeUnreachablePodReason = 'NodeLost';

/** The STATUS, READY, RESTARTS cells (and when the last restart happened) of printPod. */
export function podStatusCells(pod: DeepReadonly<Pod>): { ready: string; status: string; restarts: number; lastRestart: number } {
  const st = pod.status ?? {};
  const phase = st.phase ?? '';
  let reason: string = st.reason || phase;
  for (const c of st.conditions ?? []) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  const initSpecs = pod.spec.initContainers ?? [];
  const sidecarNames = new Set(initSpecs.filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const total = pod.spec.containers.length + sidecarNames.size;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = 0;
  let lastSidecarRestart = 0;
  const finished = (t: string | undefined): number => (t ? Date.parse(t) || 0 : 0);
  let initializing = false;
  const inits = st.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    if (!c) continue;
    restarts += c.restartCount;
    const lt = finished(c.lastState?.terminated?.finishedAt);
    if (lt > lastRestart) lastRestart = lt;
    const isSidecar = sidecarNames.has(c.name);
    if (isSidecar) {
      sidecarRestarts += c.restartCount;
      if (lt > lastSidecarRestart) lastSidecarRestart = lt;
    }
    const term = c.state?.terminated;
    const wait = c.state?.waiting;
    if (term && term.exitCode === 0) continue;
    if (isSidecar && c.started) {
      if (c.ready) ready++;
      continue;
    }
    if (term) {
      reason = term.reason ? `Init:${term.reason}` : term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode}`;
    } else if (wait?.reason && wait.reason !== 'PodInitializing') {
      reason = `Init:${wait.reason}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }
  const initializedTrue = (st.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const cs = st.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      if (!c) continue;
      restarts += c.restartCount;
      const lt = finished(c.lastState?.terminated?.finishedAt);
      if (lt > lastRestart) lastRestart = lt;
      const term = c.state?.terminated;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (term?.reason) reason = term.reason;
      else if (term) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = (st.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp && st.reason === nodeUnreachablePodReason) reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  return { ready: `${ready}/${total}`, status: reason, restarts, lastRestart };
}

export const podTable: TablePrinter<Pod> = {
  columns: podColumns,
  cells(pod, now) {
    const { ready, status, restarts, lastRestart } = podStatusCells(pod);
    const restartCell = restarts !== 0 && lastRestart !== 0 ? `${restarts} (${translateTimestampSince(new Date(lastRestart).toISOString(), now)} ago)` : String(restarts);
    const st = pod.status ?? {};
    const gates = pod.spec.readinessGates ?? [];
    let gateCell = '<none>';
    if (gates.length > 0) {
      const trueCount = gates.filter((g) => (st.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True').length;
      gateCell = `${trueCount}/${gates.length}`;
    }
    return [
      pod.metadata.name ?? '',
      ready,
      status,
      restartCell,
      translateTimestampSince(pod.metadata.creationTimestamp, now),
      st.podIPs?.[0]?.ip || '<none>',
      pod.spec.nodeName || '<none>',
      st.nominatedNodeName || '<none>',
      gateCell,
    ];
  },
};
