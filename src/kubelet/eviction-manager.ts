// The eviction manager's loop on the kubelet's clock: a pass every evictionMonitoringPeriod that
// reports memory pressure (held for the transition period after the threshold was last met) and
// evicts at most one pod. The decisions are eviction.ts's.
// Upstream: pkg/kubelet/eviction/eviction_manager.go (Start, synchronize, IsUnderMemoryPressure, Admit).
import type { Clock, Timer } from '../core/index.ts';
import { admitUnderMemoryPressure, evictionMonitoringPeriodMs, evictionPass, evictionPressureTransitionPeriodMs, localStorageEviction } from './eviction.ts';
import type { MemoryObservation, PodDisk } from './eviction.ts';
import type { DeepReadonlyPod } from './types.ts';

export interface EvictionManagerOptions {
  clock: Clock;
  /** The node's memory and its active pods' working sets now; undefined before the Node is known. */
  observe: () => MemoryObservation | undefined;
  /** What the active pods' containers have written to local disk now. */
  observeLocalStorage: () => PodDisk[];
  /**
   * Kills the pod with phase Failed, reason Evicted and this message; a threshold's eviction also
   * brings a DisruptionTarget condition, a local storage limit's does not. `signal` names what was
   * exceeded (memory.available, emptydirfs.limit, ...).
   */
  evict: (pod: DeepReadonlyPod, message: string, disruptionTarget: boolean, signal: string) => void;
  /** MemoryPressure turned on or off (the node status setter reads it). */
  pressureChanged: (underPressure: boolean) => void;
}

export class EvictionManager {
  readonly #o: EvictionManagerOptions;
  #timer: Timer | undefined;
  #lastMet: number | undefined;
  #underPressure = false;

  constructor(options: EvictionManagerOptions) {
    this.#o = options;
  }

  get underMemoryPressure(): boolean {
    return this.#underPressure;
  }

  start(): void {
    this.#timer = this.#o.clock.after(evictionMonitoringPeriodMs, () => this.#tick());
  }

  stop(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  /** Admit: under memory pressure BestEffort pods are refused (Evicted, "The node had condition: [MemoryPressure]. "). */
  admit(pod: DeepReadonlyPod): { admit: true } | { admit: false; reason: string; message: string } {
    return this.#underPressure ? admitUnderMemoryPressure(pod) : { admit: true };
  }

  #tick(): void {
    this.synchronize();
    this.#timer = this.#o.clock.after(evictionMonitoringPeriodMs, () => this.#tick());
  }

  /**
   * One pass: first every pod past a local storage limit is evicted (and that is the pass); else the
   * pressure as of now, and one eviction while the threshold is met.
   */
  synchronize(): void {
    let evicted = false;
    for (const pod of this.#o.observeLocalStorage()) {
      const exceeded = localStorageEviction(pod);
      if (exceeded === undefined) continue;
      this.#o.evict(pod.pod, exceeded.message, false, exceeded.signal);
      evicted = true;
    }
    if (evicted) return;
    const observation = this.#o.observe();
    if (!observation) return;
    const now = this.#o.clock.now();
    const pass = evictionPass(observation);
    if (pass.met) this.#lastMet = now;
    const pressure = this.#lastMet !== undefined && now - this.#lastMet < evictionPressureTransitionPeriodMs;
    if (pressure !== this.#underPressure) {
      this.#underPressure = pressure;
      this.#o.pressureChanged(pressure);
    }
    if (pass.evict) this.#o.evict(pass.evict.pod, pass.evict.message, true, pass.evict.signal);
  }
}
