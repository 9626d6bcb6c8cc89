// A kubelet cut off from the API server (`drydock node fail`): its writes wait until the node
// heals, as a partitioned kubelet's requests do, so the pods it runs keep the status the API
// last saw (the node controller's view) instead of moving on behind its back.
import type { Client } from '../client/index.ts';

export class PartitionGate {
  #closed = false;
  #waiters: (() => void)[] = [];

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    this.#closed = true;
  }

  open(): void {
    this.#closed = false;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Resolves at once while open; otherwise when the gate opens. */
  passed(): Promise<void> {
    return this.#closed ? new Promise((resolve) => this.#waiters.push(resolve)) : Promise.resolve();
  }
}

/** The client with every write held at the gate; reads and watches pass (informers are shared). */
export function gatedClient(client: Client, gate: PartitionGate): Client {
  return {
    withUserAgent: (userAgent) => gatedClient(client.withUserAgent(userAgent), gate),
    discover: () => client.discover(),
    get: (ref, namespace, name, options) => client.get(ref, namespace, name, options),
    list: (ref, options) => client.list(ref, options),
    watch: (ref, options, onEvent, onClose) => client.watch(ref, options, onEvent, onClose),
    create: async (ref, obj, options) => gate.passed().then(() => client.create(ref, obj, options)),
    update: async (ref, obj, options) => gate.passed().then(() => client.update(ref, obj, options)),
    updateStatus: async (ref, obj, options) => gate.passed().then(() => client.updateStatus(ref, obj, options)),
    patch: async (ref, namespace, name, type, body, options) => gate.passed().then(() => client.patch(ref, namespace, name, type, body, options)),
    delete: async (ref, namespace, name, options) => gate.passed().then(() => client.delete(ref, namespace, name, options)),
  };
}
