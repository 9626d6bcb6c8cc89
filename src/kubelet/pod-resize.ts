// One pod's in-place resize state on its kubelet: the allocation checkpoint, the PodResizePending /
// PodResizeInProgress conditions, and actuation (NotRequired in place, RestartContainer by restart,
// a memory-limit decrease below the working set refused with reason Error and retried).
// Upstream: pkg/kubelet/allocation/allocation_manager.go, pkg/kubelet/status/status_manager.go
// (SetPodResizePendingCondition, updatedPodResizeCondition), kuberuntime_manager.go (doPodResizeAction).
import { podEffectiveRequests } from '../api/index.ts';
import type { Pod, ResourceAmounts } from '../api/index.ts';
import type { Clock, Timer } from '../core/index.ts';
import { copyJson, formatTime } from '../core/index.ts';
import { desiredAllocation, podWithAllocation, resizableContainers, resizeEventDetail, resizeEvents, resizeNeedsRestart, sameAllocation, sameResources } from './allocation.ts';
import type { Allocation, ResizeCandidate, ResizeVerdict, Resources } from './allocation.ts';
import type { ContainerRecord } from './container-record.ts';
import { isRunning } from './container-record.ts';
import type { ResizeStatus } from './pod-status.ts';
import { resourceAmountOf } from './quantities.ts';
import type { ContainerProcess } from './sim-container.ts';
import type { KubeletMetrics } from './kubelet-metrics.ts';
import type { DeepReadonlyPod, PodCondition } from './types.ts';

type ResizeEvent = (typeof resizeEvents)[keyof typeof resizeEvents];

export interface PodResizeDeps {
  clock: Clock;
  pod: () => DeepReadonlyPod;
  records: ReadonlyMap<string, ContainerRecord>;
  sim: (name: string) => ContainerProcess | undefined;
  event: (e: ResizeEvent, detail: string) => void;
  /** Kill the container so that it restarts with the new allocation. */
  restart: (rec: ContainerRecord, message: string) => void;
  /** Counts doPodResizeAction's runs (some container updated in place), how long each took and whether every update went through. */
  metrics?: Pick<KubeletMetrics, 'resizeActuated'>;
  changed: () => void;
}

interface Cond {
  reason: string;
  message: string;
  generation: number;
  transition: number;
  probe: number;
}

/** Actuation failures are retried on the next sync; the simulated kubelet re-syncs the pod this often. */
export const resizeRetryMs = 10_000;

export class PodResize {
  readonly #d: PodResizeDeps;
  #allocated: Map<string, Resources>;
  #pending: Cond | undefined;
  #inProgress: Cond | undefined;
  #firstSeen: number | undefined;
  #retry: Timer | undefined;
  #usage: { key: string; value: ResourceAmounts } | undefined;
  /** Bumped whenever the allocation or an instance's actual resources change. */
  #version = 0;

  constructor(deps: PodResizeDeps) {
    this.#d = deps;
    this.#allocated = desiredAllocation(deps.pod());
  }

  get allocated(): Allocation {
    return this.#allocated;
  }

  /** The spec asks for something other than the allocation. */
  wantsResize(): boolean {
    return !sameAllocation(desiredAllocation(this.#d.pod()), this.#allocated);
  }

  get pendingReason(): string | undefined {
    return this.#pending?.reason;
  }

  /** The pod has a PodResizeInProgress condition. */
  get inProgress(): boolean {
    return this.#inProgress !== undefined;
  }

  candidate(): ResizeCandidate {
    this.#firstSeen ??= this.#d.clock.now();
    return { pod: this.#d.pod(), allocated: this.#allocated, pendingSince: this.#pending?.transition ?? this.#firstSeen };
  }

  /** What the pod occupies for resize admission of the others: max(allocated, actual) per container. */
  usage(): ResourceAmounts {
    const pod = this.#d.pod();
    // Cheap key: the spec (generation), the allocation (version) and which instances run (their actual).
    let key = `${pod.metadata.generation}|${this.#version}`;
    for (const rec of this.#d.records.values()) key += `|${rec.current && isRunning(rec.current) ? rec.current.id : '-'}`;
    if (this.#usage?.key === key) return this.#usage.value;
    const statuses = resizableContainers(pod).map((c) => ({ name: c.name, allocatedResources: this.#allocated.get(c.name)?.requests ?? {}, resources: this.#actual(c.name) ?? this.#allocated.get(c.name) ?? {} }));
    const synthetic = { ...podWithAllocation(pod, this.#allocated), status: { containerStatuses: statuses } } as unknown as Pod;
    const value = podEffectiveRequests(synthetic);
    this.#usage = { key, value };
    return value;
  }

  /** The kubelet's verdict on the pending resize (the node-level queue decides the order). */
  decide(verdict: ResizeVerdict): void {
    const pod = this.#d.pod();
    const generation = pod.metadata.generation ?? 0;
    if (verdict.kind === 'fits') {
      this.#allocated = desiredAllocation(pod);
      this.#version++;
      this.#pending = undefined;
      this.#firstSeen = undefined;
      this.#inProgress = this.#cond(undefined, '', '', generation);
      this.#d.event(resizeEvents.started, resizeEventDetail(pod));
      this.reconcile();
      this.#d.changed();
      return;
    }
    const before = this.#pending;
    if (before && before.reason === verdict.kind && before.message === verdict.message && before.generation === generation) return;
    this.#pending = this.#cond(before, verdict.kind, verdict.message, generation);
    // Transitions only: a deferred resize whose message changes on retry is not re-announced.
    if (before?.reason !== verdict.kind || before.generation !== generation) {
      this.#d.event(verdict.kind === 'Deferred' ? resizeEvents.deferred : resizeEvents.infeasible, resizeEventDetail(pod, verdict.message));
    }
    this.#d.changed();
  }

  /** Desired equals allocated again (a pending resize was reverted): the condition goes, silently. */
  clearPending(): void {
    if (!this.#pending) return;
    this.#pending = undefined;
    this.#firstSeen = undefined;
    this.#d.changed();
  }

  /** Resources a new instance of `name` starts with. */
  startWith(name: string): Resources | undefined {
    return this.#allocated.get(name);
  }

  /** Brings running containers to the allocation; completes or reports the resize. */
  reconcile(): void {
    const progress = this.#inProgress;
    if (!progress) return;
    const pod = this.#d.pod();
    const errors: string[] = [];
    let done = true;
    let actuating = false;
    for (const c of resizableContainers(pod)) {
      const rec = this.#d.records.get(c.name);
      const cur = rec?.current;
      const want = this.#allocated.get(c.name);
      if (rec?.resizeRestart) {
        done = false;
        continue;
      }
      if (!rec || !cur || !isRunning(cur) || sameResources(cur.actual, want)) continue;
      if (resizeNeedsRestart(c, cur.actual, want)) {
        done = false;
        rec.resizeRestart = true;
        this.#d.restart(rec, `Container ${c.name} resize requires restart`);
        continue;
      }
      actuating = true;
      const sim = this.#d.sim(c.name);
      const limit = resourceAmountOf('memory', want?.limits?.memory);
      const oldLimit = resourceAmountOf('memory', cur.actual?.limits?.memory);
      const usage = sim?.workingSetBytes(this.#d.clock.now()) ?? 0;
      if (limit !== undefined && (oldLimit === undefined || limit < oldLimit) && usage > limit) {
        // [U] upstream's exact wording; the e2e suite matches `memory limit \(\d+\) below current usage`.
        errors.push(`attempting to set container ${c.name} memory limit (${limit}) below current usage (${usage})`);
        done = false;
        continue;
      }
      cur.actual = want ? copyJson(want) : {};
      this.#version++;
      sim?.setMemoryLimit(limit);
    }
    // The runtime applies an update at once: it takes no time on the kubelet's clock.
    if (actuating) this.#d.metrics?.resizeActuated(0, errors.length === 0);
    if (errors.length > 0) {
      const message = errors.join('; ');
      if (progress.reason === 'Error' && progress.message === message) return;
      this.#inProgress = this.#cond(progress, 'Error', message, progress.generation);
      this.#d.event(resizeEvents.error, resizeEventDetail(pod, message));
      this.#retry ??= this.#d.clock.after(resizeRetryMs, () => {
        this.#retry = undefined;
        this.reconcile();
      });
      this.#d.changed();
      return;
    }
    if (!done) return;
    this.#inProgress = undefined;
    this.#retry?.cancel();
    this.#retry = undefined;
    this.#d.event(resizeEvents.completed, resizeEventDetail(pod));
    this.#d.changed();
  }

  status(): ResizeStatus {
    const conditions: PodCondition[] = [];
    const add = (type: string, c: Cond | undefined): void => {
      if (!c) return;
      const cond = { type, status: 'True', observedGeneration: c.generation, lastProbeTime: formatTime(c.probe), lastTransitionTime: formatTime(c.transition) } as PodCondition & { observedGeneration: number };
      if (c.reason) cond.reason = c.reason;
      if (c.message) cond.message = c.message;
      conditions.push(cond);
    };
    add('PodResizePending', this.#pending);
    add('PodResizeInProgress', this.#inProgress);
    return { allocated: this.#allocated, actual: (name) => this.#actual(name), conditions };
  }

  stop(): void {
    this.#retry?.cancel();
    this.#retry = undefined;
  }

  #actual(name: string): Resources | undefined {
    const cur = this.#d.records.get(name)?.current;
    return cur && isRunning(cur) ? cur.actual : undefined;
  }

  // updatedPodResizeCondition: lastTransitionTime moves only when the reason changes.
  #cond(old: Cond | undefined, reason: string, message: string, generation: number): Cond {
    const now = this.#d.clock.now();
    return { reason, message, generation, probe: now, transition: old && old.reason === reason ? old.transition : now };
  }
}
