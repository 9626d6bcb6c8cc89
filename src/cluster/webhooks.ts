// Mutating webhooks for pods, in process: components that upstream run as admission webhooks (the
// VPA admission controller) register a mutator here; one admission plugin calls them on pod CREATE.
// Their failures are ignored, as a webhook with failurePolicy: Ignore.
// Upstream: apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go.
import type { Pod } from '../api/index.ts';
import type { AdmissionPlugin } from '../apiserver/index.ts';

export type PodMutator = (pod: Pod) => Promise<void>;

export class PodWebhooks {
  readonly #hooks = new Map<string, PodMutator>();

  /** Registers a mutator; the returned function removes it. */
  register(name: string, mutate: PodMutator): () => void {
    this.#hooks.set(name, mutate);
    return () => this.#hooks.delete(name);
  }

  readonly plugin: AdmissionPlugin = {
    name: 'MutatingAdmissionWebhook',
    // Nothing to call (no mutator registered, or not a pod create) answers at once: no async frame, no turn.
    mutate: (attrs) => {
      if (this.#hooks.size === 0 || attrs.operation !== 'CREATE' || attrs.def.group !== '' || attrs.def.resource !== 'pods' || attrs.ctx.subresource) return undefined;
      return callAll(this.#hooks.values(), attrs.object as Pod);
    },
  };
}

async function callAll(mutators: Iterable<PodMutator>, pod: Pod): Promise<void> {
  for (const mutate of mutators) await mutate(pod).catch(() => undefined);
}
