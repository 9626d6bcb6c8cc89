// The unschedulable pool (gated pods included), indexed by what each pod listens for, so that a
// cluster event is offered only to the pods whose plugins' hints could answer Queue.
// Upstream keeps a plain map and asks every pod (pkg/scheduler/backend/queue/scheduling_queue.go,
// movePodsToActiveOrBackoffQueue); the index is ours, for pools of thousands of pods.
//
// Worked example: pods a and b wait on DynamicResources, whose ResourceClaim hint has keys (a's
// claims: ["ns/a-gpu"], b's: ["ns/b-gpu"]); pod c waits on NodeResourcesFit (Node events, no keys).
//   byKey    ResourceClaim|ns/a-gpu -> {a}, ResourceClaim|ns/b-gpu -> {b}
//   keyed    ResourceClaim -> {a, b}
//   unkeyed  Node -> {c}
// An update of claim ns/a-gpu (event keys ["ns/a-gpu"]) is offered to a only; a Node event to c
// only; a claim event whose keys are undefined (a deallocation) to a and b.
import type { ClusterEvent, ClusterEventWithHint, QueuedPodInfo } from './framework.ts';

export interface WaitingPod {
  qpi: QueuedPodInfo;
  since: number;
}

/** What one waiting pod listens for: every event, or per event resource every event or some keys. */
type Listening = { all: true } | { all: false; unkeyed: readonly string[]; keyed: readonly (readonly [resource: string, key: string])[] };

/** The resources an incoming event names that a registered resource stands for. */
function incomingNames(registered: string): readonly string[] {
  return registered === 'Pod' ? ['Pod', 'AssignedPod', 'UnscheduledPod'] : [registered];
}

/**
 * What a pod listens for, from the hints of the plugins it waits on (undefined hints: everything).
 * `plugins` empty means the pod waits on nothing in particular and takes every event.
 */
export function listeningOf(qpi: QueuedPodInfo, plugins: readonly string[], hintsFor: (plugin: string) => readonly ClusterEventWithHint[] | undefined): Listening {
  if (plugins.length === 0) return { all: true };
  const unkeyed = new Set<string>();
  const keyed: [string, string][] = [];
  for (const plugin of plugins) {
    const hints = hintsFor(plugin);
    if (hints === undefined) return { all: true };
    for (const h of hints) {
      const resource = h.event.resource;
      if (resource === '*') return { all: true };
      if (h.keys && resource !== 'Pod') {
        for (const key of h.keys.ofPod(qpi.podInfo.pod)) keyed.push([resource, key]);
        // A pod with no keys for a keyed resource still sees events whose keys are undefined.
        keyed.push([resource, '']);
      } else {
        for (const name of incomingNames(resource)) unkeyed.add(name);
      }
    }
  }
  return { all: false, unkeyed: [...unkeyed], keyed };
}

export class WaitingPods {
  readonly #pods = new Map<string, WaitingPod>();
  readonly #listening = new Map<string, Listening>();
  /** Pods that take every event. */
  readonly #everything = new Set<string>();
  /** incoming resource -> pods listening to all of its events. */
  readonly #unkeyed = new Map<string, Set<string>>();
  /** `resource|key` -> pods; `resource|` holds every pod listening to the resource by key. */
  readonly #byKey = new Map<string, Set<string>>();
  /** Arrival order (kept when a pod is replaced), so candidates come in the pool's order. */
  readonly #order = new Map<string, number>();
  #next = 0;

  get size(): number {
    return this.#pods.size;
  }

  get(uid: string): WaitingPod | undefined {
    return this.#pods.get(uid);
  }

  has(uid: string): boolean {
    return this.#pods.has(uid);
  }

  values(): IterableIterator<WaitingPod> {
    return this.#pods.values();
  }

  entries(): IterableIterator<[string, WaitingPod]> {
    return this.#pods.entries();
  }

  /** Adds (or replaces) a pod with what it listens for; call again when the pod object changes. */
  set(uid: string, pod: WaitingPod, listening: Listening): void {
    this.#unindex(uid);
    if (!this.#pods.has(uid)) this.#order.set(uid, this.#next++);
    this.#pods.set(uid, pod);
    this.#listening.set(uid, listening);
    if (listening.all) {
      this.#everything.add(uid);
      return;
    }
    for (const resource of listening.unkeyed) add(this.#unkeyed, resource, uid);
    for (const [resource, key] of listening.keyed) add(this.#byKey, `${resource}|${key}`, uid);
  }

  delete(uid: string): void {
    this.#unindex(uid);
    this.#pods.delete(uid);
    this.#order.delete(uid);
  }

  /**
   * The pods an event may concern, in no particular order: all of them for a wildcard event;
   * otherwise those listening to everything or to the event's resource, and, of those listening
   * by key, the ones sharing a key with `keys` (all of them when keys is undefined). In the order
   * the pods arrived, as a walk of the whole pool would give them.
   */
  candidates(event: ClusterEvent, keys: readonly string[] | undefined): WaitingPod[] {
    if (event.resource === '*') return [...this.#pods.values()];
    const uids = new Set(this.#everything);
    for (const uid of this.#unkeyed.get(event.resource) ?? []) uids.add(uid);
    for (const key of keys ?? ['']) for (const uid of this.#byKey.get(`${event.resource}|${key}`) ?? []) uids.add(uid);
    if (uids.size === this.#pods.size) return [...this.#pods.values()];
    const order = this.#order;
    return [...uids].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)).map((uid) => this.#pods.get(uid) as WaitingPod);
  }

  #unindex(uid: string): void {
    const listening = this.#listening.get(uid);
    if (!listening) return;
    this.#listening.delete(uid);
    if (listening.all) {
      this.#everything.delete(uid);
      return;
    }
    for (const resource of listening.unkeyed) remove(this.#unkeyed, resource, uid);
    for (const [resource, key] of listening.keyed) remove(this.#byKey, `${resource}|${key}`, uid);
  }
}

function add(index: Map<string, Set<string>>, key: string, uid: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(uid);
}

function remove(index: Map<string, Set<string>>, key: string, uid: string): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(uid);
  if (set.size === 0) index.delete(key);
}
