// When the API server's clients were last heard from, for start-up work that can wait for a quiet moment.
import type { Clock } from '../core/index.ts';
import { RealClock } from '../core/index.ts';

export class ClientActivity {
  #lastHeard = -Infinity;
  readonly #clock: Clock;

  /** Real time by default, whatever the cluster's clock: the quiet is the user's, not the simulation's. */
  constructor(clock: Clock = new RealClock()) {
    this.#clock = clock;
  }

  now(): number {
    return this.#clock.now();
  }

  /** Notes a connection opened or a request sent now. */
  readonly heard = (): void => {
    this.#lastHeard = this.#clock.now();
  };

  /**
   * Resolves once no client has been heard from for `quietMs` (at once when none ever was), or at
   * `deadline`, whichever comes first (times as now()).
   */
  quiet(quietMs: number, deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        const quietAt = this.#lastHeard + quietMs;
        if (this.#clock.now() >= Math.min(quietAt, deadline)) return resolve();
        this.#clock.setTimer(Math.min(quietAt, deadline), check);
      };
      check();
    });
  }
}
