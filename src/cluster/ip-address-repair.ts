// The cluster IP allocator's repair loop: an IPAddress (managed by ipallocator.k8s.io) for every
// cluster IP a Service holds, gone when the Service lets the address go. The Service's own requests
// write and remove the records (apiserver/service-ip-records.ts); this loop mends whatever those
// missed (a Service removed once its finalizers go, a restart onto older data), as upstream's does.
// Upstream: pkg/registry/core/service/ipallocator/ipallocator.go (createIPAddress, Release),
// pkg/registry/core/service/ipallocator/controller/repairip.go.
import { isServiceIPRecord, refs, serviceClusterIPs, serviceIPRecord } from '../api/index.ts';
import type { IPAddress, Service } from '../api/index.ts';
import type { Client, Informer, SharedInformers } from '../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../client/index.ts';
import type { Clock } from '../core/index.ts';
import { isApiError, objectKey } from '../core/index.ts';

export interface IPAddressRepairOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  informers?: SharedInformers;
}

const byClusterIP = 'clusterIP';

export class IPAddressRepair {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #services: Informer<Service>;
  readonly #ipAddresses: Informer<IPAddress>;
  /** Keys: an IP address to check. */
  readonly #queue: WorkQueue<string>;

  constructor(options: IPAddressRepairOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#log = log;
    this.#services = informerFor<Service>(options.informers, { client, ref: refs.services, clock, log });
    this.#ipAddresses = informerFor<IPAddress>(options.informers, { client, ref: refs.ipAddresses, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    this.#services.addIndex(byClusterIP, serviceClusterIPs);
    const enqueue = (svc: Service): void => {
      for (const ip of serviceClusterIPs(svc)) this.#queue.add(ip);
    };
    this.#services.addHandlers({
      onAdd: enqueue,
      onUpdate: (old, svc) => {
        enqueue(old);
        enqueue(svc);
      },
      onDelete: enqueue,
    });
    const onAddress = (ip: IPAddress): void => this.#queue.add(ip.metadata.name ?? '');
    this.#ipAddresses.addHandlers({ onAdd: onAddress, onUpdate: (_old, ip) => onAddress(ip), onDelete: onAddress });
  }

  start(): void {
    runWhenSynced([this.#services, this.#ipAddresses], this.#queue, 1, (ip) => this.#sync(ip), this.#log);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#services.stop();
    this.#ipAddresses.stop();
  }

  async #sync(ip: string): Promise<void> {
    const record = this.#ipAddresses.getByName(undefined, ip);
    const [holder] = this.#services.byIndex(byClusterIP, ip);
    if (record) {
      if (!isServiceIPRecord(record)) return;
      const ref = record.spec?.parentRef;
      const parent = ref?.name ? this.#services.getByName(ref.namespace, ref.name) : undefined;
      if (parent && serviceClusterIPs(parent).includes(ip)) return;
      await this.#ignoreNotFound(this.#client.delete(refs.ipAddresses, undefined, ip));
      return;
    }
    if (holder) await this.#create(ip, holder);
  }

  async #create(ip: string, svc: Service): Promise<void> {
    try {
      await this.#client.create(refs.ipAddresses, serviceIPRecord(ip, svc.metadata.namespace ?? '', svc.metadata.name ?? ''));
    } catch (error) {
      // The Service's own request wrote it meanwhile: its event brings it here to be checked.
      if (isApiError(error) && error.reason === 'AlreadyExists') return;
      // A bad address, which validation refuses, is not ours to fix.
      if (isApiError(error) && error.reason === 'Invalid') {
        this.#log(`ip-address-repair: ${objectKey(svc.metadata.namespace, svc.metadata.name ?? '')} holds ${ip}: ${error.message}`);
        return;
      }
      throw error;
    }
  }

  async #ignoreNotFound(write: Promise<unknown>): Promise<void> {
    try {
      await write;
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }
}
