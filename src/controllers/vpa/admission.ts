// The VPA admission controller: on pod creation, sets the controlled containers' requests (and
// limits, keeping their ratio) to the recommendation of the VPA that controls the pod, for every
// mode but Off, and records what it did in the vpaUpdates / vpaObservedContainers annotations.
// The cluster calls admit() from a mutating admission plugin (upstream: a webhook, failurePolicy Ignore).
// Upstream: vertical-pod-autoscaler/pkg/admission-controller/resource/pod/handler.go.
import type { Pod } from '../../api/index.ts';
import type { Client } from '../../client/index.ts';
import { Informer } from '../../client/index.ts';
import type { Clock } from '../../core/index.ts';
import { recommendedResources, updatesAnnotation } from './resources.ts';
import { TargetSelectors, controllingVpa } from './target.ts';
import { updateModeOf, vpaRef } from './types.ts';
import type { VerticalPodAutoscaler } from './types.ts';

export interface VpaAdmissionOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
}

export class VpaAdmission {
  readonly #o: VpaAdmissionOptions;
  readonly #vpas: Informer<VerticalPodAutoscaler>;
  readonly #selectors: TargetSelectors;

  constructor(options: VpaAdmissionOptions) {
    this.#o = options;
    this.#vpas = new Informer<VerticalPodAutoscaler>({ client: options.client, ref: vpaRef, clock: options.clock, log: options.log });
    this.#selectors = new TargetSelectors({ client: options.client, clock: options.clock });
  }

  async start(): Promise<void> {
    this.#vpas.start();
    await this.#vpas.waitForSync();
  }

  stop(): void {
    this.#vpas.stop();
  }

  /** Mutates a pod being created in place; never throws (a failing webhook is ignored). */
  async admit(pod: Pod): Promise<void> {
    try {
      const inNamespace = this.#vpas.list().filter((v) => v.metadata.namespace === pod.metadata.namespace && updateModeOf(v) !== 'Off');
      if (inNamespace.length === 0) return;
      const vpa = await controllingVpa(this.#selectors, inNamespace, pod);
      if (!vpa) return;
      const updates = recommendedResources(pod, vpa);
      pod.metadata.annotations = { ...pod.metadata.annotations, vpaObservedContainers: pod.spec.containers.map((c) => c.name).join(', ') };
      if (updates.length === 0) return;
      for (const u of updates) {
        const c = pod.spec.containers[u.index];
        if (c) c.resources = { ...c.resources, ...u.resources };
      }
      pod.metadata.annotations.vpaUpdates = updatesAnnotation(vpa.metadata.name ?? '', updates);
    } catch (error) {
      this.#o.log(`vpa-admission: ${String(error)}`);
    }
  }
}
