// The API server's kubernetes service controller: the default/kubernetes Service (re-created if it
// goes) and its endpoints, the API server's advertised address on 6443, as the Endpoints object the
// EndpointSlice mirror skips and the EndpointSlice written beside it. Checked every 10 s, as upstream.
// Upstream: pkg/controlplane/controller/kubernetesservice/controller.go,
// pkg/controlplane/reconcilers/{lease.go,endpointsadapter.go}.
import { refs, serviceNameLabel } from '../api/index.ts';
import type { EndpointSlice, Endpoints, Service } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { Clock, KubeObject, Timer } from '../core/index.ts';
import { isApiError, jsonEqual } from '../core/index.ts';

/**
 * Where the simulated API server is advertised (--advertise-address): the control plane's address
 * on the node network, below the nodes' 10.0.0.10 and up.
 */
export const apiServerAdvertiseAddress = '10.0.0.2';
export const apiServerSecurePort = 6443;
export const kubernetesServiceIP = '10.96.0.1';
const skipMirrorLabel = 'endpointslice.kubernetes.io/skip-mirror';
const intervalMs = 10_000;

export function kubernetesService(): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { type: 'ClusterIP', clusterIP: kubernetesServiceIP, ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: apiServerSecurePort }], sessionAffinity: 'None' },
  };
}

function kubernetesEndpoints(): Endpoints {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { [skipMirrorLabel]: 'true' } },
    subsets: [{ addresses: [{ ip: apiServerAdvertiseAddress }], ports: [{ name: 'https', port: apiServerSecurePort, protocol: 'TCP' }] }],
  };
}

/** endpointSliceFromEndpoints: the same address and port, ready, named and labelled for the Service. */
function kubernetesEndpointSlice(): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { [serviceNameLabel]: 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [apiServerAdvertiseAddress], conditions: { ready: true } }],
    ports: [{ name: 'https', port: apiServerSecurePort, protocol: 'TCP' }],
  };
}

export interface KubernetesServiceControllerOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
}

export class KubernetesServiceController {
  readonly #o: KubernetesServiceControllerOptions;
  #timer: Timer | undefined;
  #stopped = false;

  constructor(options: KubernetesServiceControllerOptions) {
    this.#o = options;
  }

  /** The first pass, then one every 10 s. */
  async start(): Promise<void> {
    await this.#pass();
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
  }

  async #pass(): Promise<void> {
    try {
      await this.#ensure(refs.services, kubernetesService(), false);
      await this.#ensure(refs.endpoints, kubernetesEndpoints(), true);
      await this.#ensure(refs.endpointSlices, kubernetesEndpointSlice(), true);
    } catch (error) {
      this.#o.log(`kubernetes service controller: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!this.#stopped) this.#timer = this.#o.clock.after(intervalMs, () => void this.#pass());
  }

  /** Creates `desired` if missing; with `reconcile`, puts back the fields this controller owns. */
  async #ensure(ref: typeof refs.services, desired: KubeObject, reconcile: boolean): Promise<void> {
    const { client } = this.#o;
    let current: KubeObject;
    try {
      current = await client.get(ref, desired.metadata.namespace, desired.metadata.name ?? '');
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      await ignoreConflicts(client.create(ref, desired));
      return;
    }
    if (!reconcile) return;
    const next: KubeObject = { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, ...desired.metadata.labels } } };
    for (const [key, value] of Object.entries(desired)) if (key !== 'metadata' && key !== 'apiVersion' && key !== 'kind') next[key] = value;
    if (jsonEqual(next as never, current as never)) return;
    await ignoreConflicts(client.update(ref, next));
  }
}

/** A concurrent writer (or a second pass) got there first; the next pass looks again. */
async function ignoreConflicts(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (!(isApiError(error) && (error.reason === 'AlreadyExists' || error.reason === 'Conflict'))) throw error;
  }
}
