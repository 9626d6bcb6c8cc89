// Leader election on a Lease, as client-go's leaderelection package runs it for kube-scheduler and
// kube-controller-manager: take the lease when it is free or expired (acquireTime, one more
// leaseTransition when it changes hands), then renew it every retry period while leading.
// Upstream: client-go/tools/leaderelection/{leaderelection.go,resourcelock/leaselock.go}.
import { refs } from '../api/index.ts';
import type { Lease } from '../api/index.ts';
import type { Clock, Timer } from '../core/index.ts';
import { formatMicroTime, isApiError } from '../core/index.ts';
import type { Client } from './client.ts';

export interface LeaderElectionOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  namespace: string;
  name: string;
  /** `<hostname>_<uuid>`, as the components build it. */
  identity: string;
  /** LeaseDuration (the components' default 15 s). */
  leaseDurationSeconds?: number;
  /** RetryPeriod (default 2 s): how often the leader renews and a candidate tries again. */
  retryPeriodMs?: number;
  /** Called once when this candidate takes the lease (the "became leader" event). */
  onStartedLeading?: (lease: Lease) => void;
}

export class LeaderElector {
  readonly #o: LeaderElectionOptions;
  #lease: Lease | undefined;
  #leading = false;
  #timer: Timer | undefined;
  #stopped = false;

  constructor(options: LeaderElectionOptions) {
    this.#o = options;
  }

  get isLeader(): boolean {
    return this.#leading;
  }

  /** Tries once now (awaited), then keeps trying or renewing every retry period. */
  async start(): Promise<void> {
    await this.#tick();
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#tryAcquireOrRenew();
    } catch (error) {
      this.#o.log(`leader election ${this.#o.namespace}/${this.#o.name}: ${error instanceof Error ? error.message : String(error)}`);
      this.#lease = undefined;
    }
    if (!this.#stopped) this.#timer = this.#o.clock.after(this.#o.retryPeriodMs ?? 2_000, () => void this.#tick());
  }

  async #tryAcquireOrRenew(): Promise<void> {
    const { client, clock, namespace, name, identity } = this.#o;
    const now = clock.now();
    const duration = this.#o.leaseDurationSeconds ?? 15;
    let current = this.#lease;
    if (!current) {
      try {
        current = await client.get<Lease>(refs.leases, namespace, name);
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
        const created = await client.create<Lease>(refs.leases, {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name, namespace },
          spec: { holderIdentity: identity, leaseDurationSeconds: duration, acquireTime: formatMicroTime(now), renewTime: formatMicroTime(now), leaseTransitions: 0 },
        });
        return this.#became(created);
      }
    }
    const spec = current.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const renewedAt = spec.renewTime ? Date.parse(spec.renewTime) : 0;
    const expired = renewedAt + (spec.leaseDurationSeconds ?? duration) * 1000 <= now;
    if (holder !== '' && holder !== identity && !expired) {
      // Someone else leads: look again next time.
      this.#lease = undefined;
      this.#leading = false;
      return;
    }
    const takingOver = holder !== identity;
    const next: Lease = {
      ...current,
      spec: {
        ...spec,
        holderIdentity: identity,
        leaseDurationSeconds: duration,
        acquireTime: takingOver ? formatMicroTime(now) : (spec.acquireTime ?? formatMicroTime(now)),
        renewTime: formatMicroTime(now),
        leaseTransitions: takingOver && holder !== '' ? (spec.leaseTransitions ?? 0) + 1 : (spec.leaseTransitions ?? 0),
      },
    };
    try {
      this.#lease = await client.update<Lease>(refs.leases, next);
    } catch (error) {
      // Changed or gone since it was read: read it again next time.
      if (isApiError(error) && (error.reason === 'Conflict' || error.reason === 'NotFound')) {
        this.#lease = undefined;
        return;
      }
      throw error;
    }
    if (takingOver || !this.#leading) this.#became(this.#lease);
  }

  #became(lease: Lease): void {
    this.#lease = lease;
    if (this.#leading) return;
    this.#leading = true;
    this.#o.onStartedLeading?.(lease);
  }
}
