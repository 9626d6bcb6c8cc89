// One probe worker per container instance and probe kind, on the injected clock: probes at start and
// every periodSeconds, skips until initialDelaySeconds, applies success/failure thresholds, and
// reports result changes. Liveness and readiness wait for the startup probe.
// Upstream: pkg/kubelet/prober/worker.go (doProbe), prober_manager.go.
import type { Clock, Timer } from '../core/index.ts';
import type { HandlerResult } from './handlers.ts';
import type { Probe } from './types.ts';

export type ProbeKind = 'startup' | 'liveness' | 'readiness';

/** The probe type as the kubelet names it in events and metrics. */
export type ProbeTypeName = 'Startup' | 'Liveness' | 'Readiness';

export const probeKindName: Record<ProbeKind, ProbeTypeName> = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' };

export interface ProbeWorkerOptions {
  clock: Clock;
  kind: ProbeKind;
  probe: Readonly<Probe>;
  startedAt: number;
  /** One attempt, its timeout applied (handlers.ts runProbe; a host process's probe settles later). */
  run: () => HandlerResult | Promise<HandlerResult>;
  /** Liveness and readiness only probe once this is true. */
  isStarted: () => boolean;
  onFailedAttempt: (output: string) => void;
  /** Every attempt's result and how long it took (the prober's metrics). */
  onAttempt?: (ok: boolean, durationMs: number) => void;
  onResult: (ok: boolean) => void;
}

export class ProbeWorker {
  readonly #o: ProbeWorkerOptions;
  #timer: Timer | undefined;
  #result: boolean | undefined;
  #lastAttempt: boolean | undefined;
  #run = 0;
  #stopped = false;

  constructor(options: ProbeWorkerOptions) {
    this.#o = options;
    // Initial results: readiness fails, liveness succeeds, startup is unknown until probed.
    this.#result = options.kind === 'readiness' ? false : options.kind === 'liveness' ? true : undefined;
    this.#timer = options.clock.after(0, () => this.#tick());
  }

  get result(): boolean | undefined {
    return this.#result;
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
  }

  #tick(): void {
    if (this.#stopped) return;
    const next = (more: boolean): void => {
      if (more && !this.#stopped) this.#timer = this.#o.clock.after((this.#o.probe.periodSeconds ?? 10) * 1000, () => this.#tick());
    };
    const more = this.#doProbe();
    if (typeof more === 'boolean') next(more);
    else void more.then(next);
  }

  /** false: the worker is done (startup passed, or a liveness/startup failure holds until restart). */
  #doProbe(): boolean | Promise<boolean> {
    const { kind, probe, clock, startedAt } = this.#o;
    if (kind === 'startup' && this.#result === true) return false;
    if (kind !== 'startup' && !this.#o.isStarted()) return true;
    if (Math.floor((clock.now() - startedAt) / 1000) < (probe.initialDelaySeconds ?? 0)) return true;
    const res = this.#o.run();
    return res instanceof Promise ? res.then((r) => (this.#stopped ? false : this.#record(r))) : this.#record(res);
  }

  /** The attempt's result, through the thresholds; false once the worker is done. */
  #record(res: HandlerResult): boolean {
    const { kind, probe } = this.#o;
    this.#o.onAttempt?.(res.ok, res.durationMs);
    if (!res.ok) this.#o.onFailedAttempt(res.output);
    this.#run = this.#lastAttempt === res.ok ? this.#run + 1 : 1;
    this.#lastAttempt = res.ok;
    const threshold = res.ok ? (probe.successThreshold ?? 1) : (probe.failureThreshold ?? 3);
    if (this.#run < threshold) return true;
    if (this.#result !== res.ok) {
      this.#result = res.ok;
      this.#o.onResult(res.ok);
    }
    if (!res.ok && kind !== 'readiness') return false;
    return !(kind === 'startup' && res.ok);
  }
}
