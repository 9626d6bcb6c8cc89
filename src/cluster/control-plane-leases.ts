// The control plane's Leases in kube-system, as `kubectl get leases -n kube-system` shows them on a
// cluster: kube-scheduler and kube-controller-manager hold their leader-election Leases (renewed
// every 2 s, a "became leader" Event when taken), and the API server its identity Lease
// (apiserver-<hash>, renewed every 10 s). The components run whether or not they lead: there is
// one of each, and a restart with --data-dir takes the lease over once the old holder's expires.
// Upstream: cmd/kube-scheduler/app/options, cmd/kube-controller-manager/app (leader election),
// pkg/controlplane/apiserver/server.go and component-helpers/apimachinery/lease (identity lease).
import { createHash } from 'node:crypto';
import { refs } from '../api/index.ts';
import type { Lease } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import { LeaderElector } from '../client/index.ts';
import type { Clock, Random, Timer } from '../core/index.ts';
import { formatMicroTime, isApiError } from '../core/index.ts';
import { createEventRecorder } from '../controllers/index.ts';

/** The host the control plane runs on, as its identities name it (kind's is `kind-control-plane`). */
export const controlPlaneHost = 'drydock-control-plane';
const systemNamespace = 'kube-system';
const identityLeaseDurationSeconds = 3600;
const identityLeaseRenewMs = 10_000;

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lower-cased. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** APIServerID: `apiserver-` and the base32 of the first 16 bytes of the host name's SHA-256. */
export function apiServerId(host: string): string {
  return `apiserver-${base32(createHash('sha256').update(host).digest().subarray(0, 16))}`;
}

export interface ControlPlaneLeaseOptions {
  client: Client;
  clock: Clock;
  random: Random;
  log: (line: string) => void;
}

/** A component's leader election on kube-system/<lease>, recording "became leader" as `eventSource`. */
export function startLeaderElection(options: ControlPlaneLeaseOptions & { lease: string; eventSource: string }): Promise<LeaderElector> {
  const { client, clock, log } = options;
  const events = createEventRecorder({ client, clock, component: options.eventSource, log });
  const identity = `${controlPlaneHost}_${options.random.uuid()}`;
  const elector = new LeaderElector({
    client,
    clock,
    log,
    namespace: systemNamespace,
    name: options.lease,
    identity,
    onStartedLeading: (lease) => events.event(lease, 'Normal', 'LeaderElection', `${identity} became leader`),
  });
  return elector.start().then(() => elector);
}

/** The API server's identity Lease, kept renewed until stopped. */
export class ApiServerIdentityLease {
  readonly #o: ControlPlaneLeaseOptions;
  readonly #name = apiServerId(controlPlaneHost);
  readonly #holder: string;
  #timer: Timer | undefined;
  #stopped = false;
  #lease: Lease | undefined;

  constructor(options: ControlPlaneLeaseOptions) {
    this.#o = options;
    this.#holder = `${this.#name}_${options.random.uuid()}`;
  }

  async start(): Promise<void> {
    await this.#renew();
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
  }

  async #renew(): Promise<void> {
    if (this.#stopped) return;
    const { clock, log } = this.#o;
    try {
      this.#lease = await this.#write(formatMicroTime(clock.now()));
    } catch (error) {
      this.#lease = undefined;
      log(`apiserver identity lease: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!this.#stopped) this.#timer = clock.after(identityLeaseRenewMs, () => void this.#renew());
  }

  /** One update on the lease last written; a read first only when that one changed or went, a create when there is none. */
  async #write(renewTime: string): Promise<Lease> {
    const { client } = this.#o;
    const spec = { holderIdentity: this.#holder, leaseDurationSeconds: identityLeaseDurationSeconds, renewTime };
    if (this.#lease) {
      try {
        return await client.update<Lease>(refs.leases, { ...this.#lease, spec: { ...this.#lease.spec, ...spec } });
      } catch (error) {
        if (!isApiError(error) || (error.reason !== 'Conflict' && error.reason !== 'NotFound')) throw error;
      }
    }
    try {
      const current = await client.get<Lease>(refs.leases, systemNamespace, this.#name);
      return await client.update<Lease>(refs.leases, { ...current, spec: { ...current.spec, ...spec } });
    } catch (error) {
      if (!isApiError(error) || error.reason !== 'NotFound') throw error;
    }
    const labels = { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': controlPlaneHost };
    return client.create<Lease>(refs.leases, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.#name, namespace: systemNamespace, labels }, spec });
  }
}
