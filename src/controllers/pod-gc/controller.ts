// The pod garbage collector: every 20 s it force-deletes pods bound to nodes that no longer exist
// (after a 40 s quarantine and a direct GET), terminating pods on out-of-service nodes, terminating
// pods that were never scheduled, and the oldest terminated pods beyond the threshold.
// Upstream: pkg/controller/podgc/gc_controller.go.
import { refs } from '../../api/index.ts';
import type { Node, Pod, PodCondition } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { informerFor } from '../../client/index.ts';
import type { Clock, DeepReadonly, Timer } from '../../core/index.ts';
import { isApiError } from '../../core/index.ts';
import { updatePodCondition } from '../node-lifecycle/pod-conditions.ts';
import { taintNodeOutOfService } from '../node-lifecycle/taints.ts';

export interface PodGCControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  /** --terminated-pod-gc-threshold (default 12500; 0 disables). */
  terminatedPodThreshold?: number;
  gcCheckPeriodMs?: number;
  quarantineMs?: number;
  /** The program's shared informers (kube-controller-manager's factory); absent: the controller's own. */
  informers?: SharedInformers;
}

const controllerName = 'pod-garbage-collector';

export class PodGCController {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #threshold: number;
  readonly #period: number;
  readonly #quarantine: number;
  readonly #nodes: Informer<Node>;
  readonly #pods: Informer<Pod>;
  /** Node names missing from the informer -> when their quarantine ends. */
  readonly #suspects = new Map<string, number>();
  #timer: Timer | undefined;
  #stopped = false;

  constructor(options: PodGCControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#clock = clock;
    this.#log = log;
    this.#threshold = options.terminatedPodThreshold ?? 12500;
    this.#period = options.gcCheckPeriodMs ?? 20_000;
    this.#quarantine = options.quarantineMs ?? 40_000;
    this.#nodes = informerFor<Node>(options.informers, { client, clock, log, ref: refs.nodes });
    this.#pods = informerFor<Pod>(options.informers, { client, clock, log, ref: refs.pods });
  }

  start(): void {
    this.#nodes.start();
    this.#pods.start();
    void (async () => {
      await Promise.all([this.#nodes.waitForSync(), this.#pods.waitForSync()]);
      this.#loop();
    })();
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
    this.#nodes.stop();
    this.#pods.stop();
  }

  #loop(): void {
    if (this.#stopped) return;
    this.gc()
      .catch((error: unknown) => this.#log(`${controllerName}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (!this.#stopped) this.#timer = this.#clock.after(this.#period, () => this.#loop());
      });
  }

  /** One collection pass (also callable from tests). */
  async gc(): Promise<void> {
    const pods = this.#pods.list();
    if (this.#threshold > 0) await this.#gcTerminated(pods);
    await this.#gcTerminating(pods);
    await this.#gcOrphaned(pods);
    await this.#gcUnscheduledTerminating(pods);
  }

  async #gcTerminated(pods: readonly DeepReadonly<Pod>[]): Promise<void> {
    const terminated = pods.filter((p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed');
    const excess = terminated.length - this.#threshold;
    if (excess <= 0) return;
    terminated.sort(byEvictionAndCreation);
    await Promise.all(terminated.slice(0, excess).map((p) => this.#markFailedAndDelete(p)));
  }

  async #gcTerminating(pods: readonly DeepReadonly<Pod>[]): Promise<void> {
    const doomed = pods.filter((p) => {
      if (!p.metadata.deletionTimestamp) return false;
      const node = this.#nodes.getByName(undefined, p.spec?.nodeName ?? '');
      if (!node) return false;
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
      return !ready && (node.spec?.taints ?? []).some((t) => t.key === taintNodeOutOfService);
    });
    doomed.sort(byEvictionAndCreation);
    await Promise.all(doomed.map((p) => this.#markFailedAndDelete(p)));
  }

  async #gcOrphaned(pods: readonly DeepReadonly<Pod>[]): Promise<void> {
    const now = this.#clock.now();
    for (const p of pods) {
      const nodeName = p.spec?.nodeName;
      if (nodeName && !this.#nodes.getByName(undefined, nodeName) && !this.#suspects.has(nodeName)) this.#suspects.set(nodeName, now + this.#quarantine);
    }
    const deleted = new Set<string>();
    for (const [nodeName, until] of [...this.#suspects]) {
      if (until > now) continue;
      this.#suspects.delete(nodeName);
      if (this.#nodes.getByName(undefined, nodeName)) continue;
      try {
        await this.#client.get(refs.nodes, undefined, nodeName);
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') deleted.add(nodeName);
        else this.#log(`${controllerName}: error while getting node ${nodeName}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const condition = { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' } as const;
    for (const p of pods) {
      if (!deleted.has(p.spec?.nodeName ?? '')) continue;
      await this.#markFailedAndDelete(p, condition);
    }
  }

  async #gcUnscheduledTerminating(pods: readonly DeepReadonly<Pod>[]): Promise<void> {
    for (const p of pods) {
      if (!p.metadata.deletionTimestamp || p.spec?.nodeName) continue;
      await this.#markFailedAndDelete(p);
    }
  }

  /** Moves a non-terminal pod to Failed (no kubelet will), then deletes it with grace period 0. */
  async #markFailedAndDelete(pod: DeepReadonly<Pod>, condition?: Omit<PodCondition, 'lastTransitionTime'>): Promise<void> {
    const namespace = pod.metadata.namespace ?? '';
    const name = pod.metadata.name ?? '';
    try {
      const phase = pod.status?.phase;
      if (phase !== 'Succeeded' && phase !== 'Failed') {
        const conditions = condition ? updatePodCondition(pod.status?.conditions, condition, this.#clock.now()) : undefined;
        const status = { ...pod.status, phase: 'Failed' as const, ...(conditions ? { conditions } : {}) };
        await this.#client.updateStatus<Pod>(refs.pods, { ...pod, status } as Pod);
      }
      await this.#client.delete(refs.pods, namespace, name, { gracePeriodSeconds: 0, ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}) });
    } catch (error) {
      if (isApiError(error) && (error.reason === 'NotFound' || error.reason === 'Conflict')) return;
      this.#log(`${controllerName}: cannot force delete pod ${namespace}/${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Evicted pods first, then oldest first, names breaking ties. */
function byEvictionAndCreation(a: DeepReadonly<Pod>, b: DeepReadonly<Pod>): number {
  const ea = a.status?.reason === 'Evicted';
  const eb = b.status?.reason === 'Evicted';
  if (ea !== eb) return ea ? -1 : 1;
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}
