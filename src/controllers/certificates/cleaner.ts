// The csrcleaner controller: every hour, deletes the CSRs that are done with (issued, denied or
// failed more than an hour ago, pending for a day, or whose certificate has expired).
// Upstream: pkg/controller/certificates/cleaner/cleaner.go.
import { X509Certificate } from 'node:crypto';
import { refs } from '../../api/index.ts';
import type { CertificateSigningRequest } from '../../api/index.ts';
import type { Client, Informer, SharedInformers } from '../../client/index.ts';
import { informerFor } from '../../client/index.ts';
import type { Clock, Timer } from '../../core/index.ts';
import { isApiError } from '../../core/index.ts';

const pollingIntervalMs = 3_600_000;
const answeredExpirationMs = 3_600_000;
const pendingExpirationMs = 24 * 3_600_000;

export interface CsrCleanerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  informers?: SharedInformers;
}

function conditionTime(csr: CertificateSigningRequest, type: string): number | undefined {
  const c = (csr.status?.conditions ?? []).find((x) => x.type === type);
  return c ? Date.parse(c.lastUpdateTime ?? '') : undefined;
}

/** Whether the cleaner deletes `csr` at `now`. */
export function isDoneWith(csr: CertificateSigningRequest, now: number): boolean {
  const past = (at: number | undefined, ms: number): boolean => at !== undefined && at + ms < now;
  const approved = conditionTime(csr, 'Approved');
  const denied = conditionTime(csr, 'Denied');
  const failed = conditionTime(csr, 'Failed');
  if (csr.status?.certificate && past(approved, answeredExpirationMs)) return true;
  if (past(denied, answeredExpirationMs) || past(failed, answeredExpirationMs)) return true;
  if (approved === undefined && denied === undefined && failed === undefined && past(Date.parse(csr.metadata.creationTimestamp ?? ''), pendingExpirationMs)) return true;
  return csr.status?.certificate !== undefined && certificateExpired(csr.status.certificate, now);
}

function certificateExpired(base64: string, now: number): boolean {
  try {
    return Date.parse(new X509Certificate(Buffer.from(base64, 'base64')).validTo) < now;
  } catch {
    return false;
  }
}

export class CsrCleaner {
  readonly #o: CsrCleanerOptions;
  readonly #requests: Informer<CertificateSigningRequest>;
  #timer: Timer | undefined;
  #stopped = false;

  constructor(options: CsrCleanerOptions) {
    this.#o = options;
    const { client, clock, log } = options;
    this.#requests = informerFor<CertificateSigningRequest>(options.informers, { client, ref: refs.certificateSigningRequests, clock, log });
  }

  /** Sweeps once the cache is filled, then every hour (wait.Until). */
  start(): void {
    this.#requests.start();
    void this.#requests.waitForSync().then(() => (this.#stopped ? undefined : this.#sweep().finally(() => this.#schedule())));
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
    this.#requests.stop();
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = this.#o.clock.after(pollingIntervalMs, () => {
      void this.#sweep().finally(() => this.#schedule());
    });
  }

  async #sweep(): Promise<void> {
    const now = this.#o.clock.now();
    for (const csr of this.#requests.list().filter((c) => isDoneWith(c, now))) {
      try {
        await this.#o.client.delete(refs.certificateSigningRequests, undefined, csr.metadata.name ?? '');
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) this.#o.log(`csrcleaner: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
