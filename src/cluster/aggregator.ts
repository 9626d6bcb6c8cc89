// The kube-apiserver's aggregator controllers: an APIService for every group-version the server
// serves itself (autoregister for the built-in groups, crdregistration for the CRDs'), and the
// Available condition of APIServices that name a Service (the remote availability controller).
// Simulated pods serve no HTTP, so an APIService whose Service has ready endpoints still fails its
// discovery check, as one whose server is down does.
// Upstream: pkg/controlplane/apiserver/aggregator.go and cmd/kube-apiserver/app/aggregator.go (priorities),
// kube-aggregator/pkg/controllers/autoregister, .../status/remote/remote_available_controller.go,
// .../status/local/local_available_controller.go, pkg/controlplane/controller/crdregistration.
import { apiServiceName, availableCondition, localAvailableCondition, refs, setAPIServiceCondition } from '../api/index.ts';
import type { APIService, APIServiceCondition, EndpointSlice, Service } from '../api/index.ts';
import type { Client, DiscoveredResource, Informer } from '../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../client/index.ts';
import type { SharedInformers } from '../client/index.ts';
import type { CustomResourceDefinition } from '../apiserver/index.ts';
import type { Clock, DeepReadonly, Timer } from '../core/index.ts';
import { copyJson, formatTime, isApiError, jsonEqual, lookupTable, objectKey } from '../core/index.ts';

export const automanagedLabel = 'kube-aggregator.kubernetes.io/automanaged';
const serviceNameLabel = 'kubernetes.io/service-name';
/** Index of APIServices and EndpointSlices by the `namespace/name` of the Service they are about. */
const byService = 'service';

/** apiVersionPriorities: group and version priority of each built-in group-version (others get no APIService). */
const builtinPriorities: Readonly<Record<string, readonly [group: number, version: number]>> = lookupTable({
  'v1': [18000, 1],
  'apps/v1': [17800, 15],
  'events.k8s.io/v1': [17750, 15],
  'authentication.k8s.io/v1': [17700, 15],
  'authorization.k8s.io/v1': [17600, 15],
  'autoscaling/v2': [17500, 30],
  'autoscaling/v1': [17500, 15],
  'batch/v1': [17400, 15],
  'certificates.k8s.io/v1': [17300, 15],
  'networking.k8s.io/v1': [17200, 15],
  'policy/v1': [17100, 15],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'storage.k8s.io/v1': [16800, 15],
  'apiextensions.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1': [16700, 15],
  'scheduling.k8s.io/v1': [16600, 15],
  'scheduling.k8s.io/v1alpha1': [16600, 9],
  'coordination.k8s.io/v1': [16500, 15],
  'node.k8s.io/v1': [16300, 15],
  'discovery.k8s.io/v1': [16200, 15],
  'resource.k8s.io/v1': [16200, 21],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
});

/**
 * APIServices Drydock registers for groups it serves in process that a cluster gets from an add-on:
 * metrics.k8s.io is metrics-server's (its manifest's priorities), served here locally.
 */
const addOnPriorities: Readonly<Record<string, readonly [group: number, version: number]>> = lookupTable({
  'metrics.k8s.io/v1beta1': [100, 100],
});

// crdregistration: CRDs rank below every built-in group; versions sort kube-like within a group.
const crdGroupPriority = 1000;
const crdVersionPriority = 100;

export interface AggregatorOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  informers?: SharedInformers;
  /** How often every APIService is checked again (upstream's informer resync), ms. */
  resyncMs?: number;
}

function desiredAPIService(group: string, version: string, [groupPriority, versionPriority]: readonly [number, number], managed: 'onstart' | 'true'): APIService {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: apiServiceName(group, version), labels: { [automanagedLabel]: managed } },
    spec: { group, version, groupPriorityMinimum: groupPriority, versionPriority },
  };
}

/** The built-in (and add-on) group-versions among those served, as APIServices to register on start. */
export function builtinAPIServices(served: readonly DiscoveredResource[]): APIService[] {
  const seen = new Set<string>();
  const out: APIService[] = [];
  for (const r of served) {
    const gv = r.group ? `${r.group}/${r.version}` : r.version;
    if (seen.has(gv)) continue;
    seen.add(gv);
    const priority = builtinPriorities[gv] ?? addOnPriorities[gv];
    if (priority) out.push(desiredAPIService(r.group, r.version, priority, 'onstart'));
  }
  return out;
}

/** The check upstream's discovery GET would fail with: nothing listens behind a simulated Service. */
function discoveryFailure(apiService: APIService, service: Service): string {
  const port = apiService.spec.service?.port ?? 443;
  const host = service.spec?.type === 'ExternalName' ? (service.spec.externalName ?? '') : (service.spec?.clusterIP ?? '');
  const path = apiService.metadata.name === 'v1.' ? `/api/${apiService.spec.version ?? ''}` : `/apis/${apiService.spec.group ?? ''}/${apiService.spec.version ?? ''}`;
  const url = `https://${host}:${port}${path}`;
  return `failing or missing response from ${url}: Get "${url}": dial tcp ${host}:${port}: connect: connection refused`;
}

export class Aggregator {
  readonly #client: Client;
  readonly #clock: Clock;
  readonly #log: (line: string) => void;
  readonly #resyncMs: number;
  readonly #apiServices: Informer<APIService>;
  readonly #crds: Informer<CustomResourceDefinition>;
  readonly #services: Informer<Service>;
  readonly #slices: Informer<EndpointSlice>;
  readonly #queue: WorkQueue<string>;
  #resync: Timer | undefined;
  #stopped = false;

  constructor(options: AggregatorOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#clock = clock;
    this.#log = log;
    this.#resyncMs = options.resyncMs ?? 30_000;
    this.#apiServices = informerFor<APIService>(options.informers, { client, ref: refs.apiServices, clock, log });
    this.#crds = informerFor<CustomResourceDefinition>(options.informers, { client, ref: refs.customResourceDefinitions, clock, log });
    this.#services = informerFor<Service>(options.informers, { client, ref: refs.services, clock, log });
    this.#slices = informerFor<EndpointSlice>(options.informers, { client, ref: refs.endpointSlices, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    // The same index, by name and function, as the EndpointSlice controller's on the shared informer.
    this.#slices.addIndex(byService, (s) => [objectKey(s.metadata.namespace, s.metadata.labels?.[serviceNameLabel] ?? '')]);
    this.#apiServices.addIndex(byService, (a) => (a.spec?.service ? [objectKey(a.spec.service.namespace, a.spec.service.name ?? '')] : []));
    const enqueue = (a: APIService): void => this.#queue.add(a.metadata.name ?? '');
    this.#apiServices.addHandlers({ onAdd: enqueue, onUpdate: (_old, a) => enqueue(a), onDelete: enqueue });
    const forService = (namespace: string | undefined, name: string | undefined): void => {
      if (name) for (const a of this.#apiServices.byIndex(byService, objectKey(namespace, name))) enqueue(a);
    };
    const onService = (s: Service): void => forService(s.metadata.namespace, s.metadata.name);
    this.#services.addHandlers({ onAdd: onService, onUpdate: (_old, s) => onService(s), onDelete: onService });
    const onSlice = (s: EndpointSlice): void => forService(s.metadata.namespace, s.metadata.labels?.[serviceNameLabel]);
    this.#slices.addHandlers({ onAdd: onSlice, onUpdate: (_old, s) => onSlice(s), onDelete: onSlice });
    const crdChanged = (): void => this.#queue.add(crdSyncKey);
    this.#crds.addHandlers({ onAdd: crdChanged, onUpdate: crdChanged, onDelete: crdChanged });
  }

  /** Registers the built-in APIServices (awaited, as upstream's readyz waits for them), then runs. */
  async start(): Promise<void> {
    // One list instead of a read per APIService: the informers start after this.
    const existing = new Map((await this.#client.list<APIService>(refs.apiServices)).items.map((a) => [a.metadata.name ?? '', a]));
    for (const desired of builtinAPIServices(await this.#client.discover())) await this.#ensure(desired, existing.get(desired.metadata.name ?? ''));
    runWhenSynced([this.#apiServices, this.#crds, this.#services, this.#slices], this.#queue, 1, (key) => this.#sync(key), this.#log, () => this.#scheduleResync());
  }

  stop(): void {
    this.#stopped = true;
    this.#resync?.cancel();
    this.#queue.shutDown();
    for (const i of [this.#apiServices, this.#crds, this.#services, this.#slices]) i.stop();
  }

  #scheduleResync(): void {
    if (this.#stopped) return;
    this.#resync = this.#clock.after(this.#resyncMs, () => {
      for (const a of this.#apiServices.list()) if (a.spec?.service) this.#queue.add(a.metadata.name ?? '');
      this.#scheduleResync();
    });
  }

  async #sync(key: string): Promise<void> {
    if (key === crdSyncKey) return this.#syncCustomResourceGroups();
    const apiService = this.#apiServices.getByName(undefined, key);
    if (!apiService) return;
    const next = copyJson(apiService) as APIService;
    setAPIServiceCondition(next, apiService.spec?.service ? this.#remoteCondition(apiService) : localAvailableCondition(this.#clock.now()));
    if (jsonEqual(next.status, apiService.status)) return;
    try {
      await this.#client.updateStatus(refs.apiServices, next);
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      throw error;
    }
  }

  /** The remote availability controller's checks, in its order, with its reasons and messages. */
  #remoteCondition(apiService: APIService): APIServiceCondition {
    const ref = apiService.spec.service ?? {};
    const name = ref.name ?? '';
    const namespace = ref.namespace ?? '';
    const port = ref.port ?? 443;
    const at = formatTime(this.#clock.now());
    const unavailable = (reason: string, message: string): APIServiceCondition => ({ type: availableCondition, status: 'False', lastTransitionTime: at, reason, message });
    const service = this.#services.getByName(namespace, name);
    if (!service) return unavailable('ServiceNotFound', `service/${name} in ${JSON.stringify(namespace)} is not present`);
    if ((service.spec?.type ?? 'ClusterIP') === 'ClusterIP') {
      const servicePort = (service.spec?.ports ?? []).find((p) => p.port === port);
      if (!servicePort) return unavailable('ServicePortError', `service/${name} in ${JSON.stringify(namespace)} is not listening on port ${port}`);
      const portName = servicePort.name ?? '';
      const slices = this.#slices.byIndex(byService, objectKey(namespace, name));
      if (slices.length === 0) return unavailable('EndpointsNotFound', `cannot find endpointslices for service/${name} in ${JSON.stringify(namespace)}`);
      const ready = slices.some((s) => (s.endpoints ?? []).some((e) => e.conditions?.ready !== false) && (s.ports ?? []).some((p) => (p.name ?? '') === portName && p.port !== undefined));
      if (!ready) return unavailable('MissingEndpoints', `endpointslices for service/${name} in ${JSON.stringify(namespace)} have no addresses with port name ${JSON.stringify(portName)}`);
    }
    return unavailable('FailedDiscoveryCheck', discoveryFailure(apiService, service));
  }

  /** crdregistration + autoregister: one APIService per served CRD group-version, removed when none serves it. */
  async #syncCustomResourceGroups(): Promise<void> {
    const wanted = new Map<string, APIService>();
    for (const crd of this.#crds.list()) {
      for (const v of crd.spec?.versions ?? []) {
        if (!v.served || builtinPriorities[`${crd.spec.group}/${v.name}`]) continue;
        const desired = desiredAPIService(crd.spec.group, v.name, [crdGroupPriority, crdVersionPriority], 'true');
        wanted.set(desired.metadata.name ?? '', desired);
      }
    }
    for (const desired of wanted.values()) await this.#ensure(desired, this.#apiServices.getByName(undefined, desired.metadata.name ?? ''));
    for (const existing of this.#apiServices.list()) {
      if (existing.metadata.labels?.[automanagedLabel] !== 'true' || wanted.has(existing.metadata.name ?? '')) continue;
      try {
        await this.#client.delete(refs.apiServices, undefined, existing.metadata.name ?? '');
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
      }
    }
  }

  /**
   * Creates a missing APIService (`current` is how it stands, as last read); one this controller
   * manages gets its spec back if it was changed.
   */
  async #ensure(desired: APIService, current: DeepReadonly<APIService> | undefined): Promise<void> {
    if (!current) {
      try {
        await this.#client.create(refs.apiServices, desired);
      } catch (error) {
        if (!(isApiError(error) && error.reason === 'AlreadyExists')) throw error;
      }
      return;
    }
    // An APIService someone else made (no automanaged label) is left as it is.
    if (!current.metadata.labels?.[automanagedLabel] || jsonEqual(current.spec, desired.spec)) return;
    await this.#client.update(refs.apiServices, { ...(current as APIService), spec: desired.spec });
  }
}

const crdSyncKey = '\u0000customresourcedefinitions';
