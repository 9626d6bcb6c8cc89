// client-go's flowcontrol.Backoff as the kubelet uses it twice: crash-loop back-off per container (the
// first restart is immediate) and image pull back-off per pod and image; 10 s doubling to 5 min, and
// an entry whose event (the container's exit) comes 2 x max (10 min) after its last update starts over.
// Upstream: pkg/kubelet/kuberuntime/kuberuntime_manager.go (doBackOff), pkg/kubelet/images/image_manager.go,
// client-go/util/flowcontrol/backoff.go.

export const initialBackoffMs = 10_000;
export const maxBackoffMs = 300_000;

interface Entry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  readonly #entries = new Map<string, Entry>();

  /** hasExpired: measured at the event (a container's exit), so the time spent backing off does not count. */
  #expired(e: Entry, eventTime: number): boolean {
    return eventTime - e.lastUpdate > 2 * maxBackoffMs;
  }

  /** IsInBackOffSince(key, finishedAt): still inside the current back-off window. */
  isInBackOffSince(key: string, finishedAt: number, now: number): boolean {
    const e = this.#entries.get(key);
    if (!e || this.#expired(e, finishedAt)) return false;
    return now - finishedAt < e.backoffMs;
  }

  /** IsInBackOffSinceUpdate(key): still inside the window that began at the last `next`. */
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const e = this.#entries.get(key);
    if (!e || this.#expired(e, now)) return false;
    return now - e.lastUpdate < e.backoffMs;
  }

  /** When the current window (started at finishedAt) ends. */
  releaseAt(key: string, finishedAt: number): number {
    return finishedAt + (this.#entries.get(key)?.backoffMs ?? 0);
  }

  get(key: string): number {
    return this.#entries.get(key)?.backoffMs ?? 0;
  }

  /**
   * Next(key, eventTime): records a restart at `now`; the window grows for the next failure, unless the
   * event (the crash-loop's exit) came over 10 minutes after the last restart: the container ran that long.
   */
  next(key: string, now: number, eventTime = now): void {
    const e = this.#entries.get(key);
    if (!e || this.#expired(e, eventTime)) this.#entries.set(key, { backoffMs: initialBackoffMs, lastUpdate: now });
    else this.#entries.set(key, { backoffMs: Math.min(e.backoffMs * 2, maxBackoffMs), lastUpdate: now });
  }

  forget(prefix: string): void {
    for (const key of [...this.#entries.keys()]) if (key.startsWith(prefix)) this.#entries.delete(key);
  }
}

/** Go's time.Duration.String() for whole milliseconds: 10s, 1m20s, 5m0s, 1.5s. */
export function formatGoDurationMs(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const sec = `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  if (h) return `${h}h${m}m${sec}`;
  if (m) return `${m}m${sec}`;
  return sec;
}
