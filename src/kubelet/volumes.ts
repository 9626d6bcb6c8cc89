// The kubelet's volume manager, reduced to what a simulated node needs: before a pod's containers
// start, every volume must be set up: configMap and secret volumes need their object (and keys),
// PVC volumes a bound claim and its volume, and a ReadWriteOncePod volume no other pod mounting it
// on this node. Failures are retried with the operation backoff (500 ms doubling to 2m2s), each
// with a FailedMount event; after 2m3s the pod sync itself reports the unmounted volumes.
// Upstream: pkg/kubelet/volumemanager (volume_manager.go WaitForAttachAndMount, populator,
// reconciler), pkg/volume/util/operationexecutor/operation_generator.go, pkg/volume/configmap, secret.
import type { EndpointSlice, Namespace, PersistentVolume, PersistentVolumeClaim, Pod, Service } from '../api/index.ts';
import { ephemeralClaimName } from '../api/index.ts';
import type { ServiceEnvironments } from './service-env.ts';
import type { Informer } from '../client/index.ts';
import type { Clock, DeepReadonly, KubeObject } from '../core/index.ts';
import type { EventRecorder } from './events.ts';

export interface VolumeSources {
  configMaps: Informer<KubeObject & { data?: Record<string, string>; binaryData?: Record<string, string> }>;
  secrets: Informer<KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> }>;
  claims: Informer<PersistentVolumeClaim>;
  volumes: Informer<PersistentVolume>;
  /** The Services, for the containers' environment variables (serviceEnv). */
  services: Informer<Service>;
  serviceEnv: ServiceEnvironments;
  /** EndpointSlices (indexed by endpointSliceServiceIndex) and Namespaces, for what the cluster DNS answers. */
  endpointSlices?: Informer<EndpointSlice>;
  namespaces?: Informer<Namespace>;
}

export type MountResult = { ok: true } | { ok: false; retryMs: number };

/** Whether the pod mounts config map (or secret) `name`, as a volume or a projected source, that it cannot do without (not optional). */
export function mountsSource(pod: DeepReadonly<Pod>, kind: 'configMap' | 'secret', name: string): boolean {
  const needs = (s: { name?: string; optional?: boolean } | undefined, sourceName = s?.name): boolean => s !== undefined && sourceName === name && s.optional !== true;
  return (pod.spec.volumes ?? []).some((v) =>
    kind === 'configMap'
      ? needs(v.configMap) || (v.projected?.sources ?? []).some((p) => needs(p.configMap))
      : needs(v.secret, v.secret?.secretName) || (v.projected?.sources ?? []).some((p) => needs(p.secret)),
  );
}

// Kept for every pod on the node for its whole life, so the collections are made only when a
// volume needs them (a pod has a few volumes; most mount at the first pass).
interface PodMounts {
  firstAttempt: number;
  lastTimeout: number;
  /** volume name -> next retry time and current backoff. */
  backoff?: Map<string, { at: number; delayMs: number }>;
  mounted: string[];
  /** PV names of ReadWriteOncePod volumes this pod holds. */
  rwop?: string[];
}

const initialDelayMs = 500;
const maxDelayMs = 122_000;
const podAttachAndMountTimeoutMs = 123_000;

type Outcome = { kind: 'mounted'; rwop?: string } | { kind: 'failed'; message: string } | { kind: 'unprocessed' };

export class VolumeMounter {
  readonly #sources: VolumeSources;
  readonly #events: EventRecorder;
  readonly #clock: Clock;
  readonly #pods = new Map<string, PodMounts>();
  /** RWOP PV name -> uid of the pod on this node that mounted it. */
  readonly #rwopHolders = new Map<string, string>();

  constructor(options: { sources: VolumeSources; events: EventRecorder; clock: Clock }) {
    this.#sources = options.sources;
    this.#events = options.events;
    this.#clock = options.clock;
  }

  /** One reconcile pass for the pod: mounts what it can; ok once every volume is mounted. */
  setUp(pod: DeepReadonly<Pod>): MountResult {
    const uid = pod.metadata.uid ?? '';
    const now = this.#clock.now();
    let st = this.#pods.get(uid);
    if (!st) this.#pods.set(uid, (st = { firstAttempt: now, lastTimeout: now, mounted: [] }));
    const unmounted: string[] = [];
    const unprocessed: string[] = [];
    let nextRetry = Infinity;
    for (const v of pod.spec.volumes ?? []) {
      if (st.mounted.includes(v.name)) continue;
      const b = st.backoff?.get(v.name);
      if (b && b.at > now) {
        unmounted.push(v.name);
        nextRetry = Math.min(nextRetry, b.at);
        continue;
      }
      const outcome = this.#mount(pod, v, uid);
      if (outcome.kind === 'mounted') {
        st.mounted.push(v.name);
        st.backoff?.delete(v.name);
        if (outcome.rwop) {
          if (!st.rwop?.includes(outcome.rwop)) (st.rwop ??= []).push(outcome.rwop);
          this.#rwopHolders.set(outcome.rwop, uid);
        }
        continue;
      }
      unmounted.push(v.name);
      if (outcome.kind === 'unprocessed') unprocessed.push(v.name);
      else this.#events.record(pod, 'Warning', 'FailedMount', outcome.message);
      const delayMs = b ? Math.min(b.delayMs * 2, maxDelayMs) : initialDelayMs;
      (st.backoff ??= new Map()).set(v.name, { at: now + delayMs, delayMs });
      nextRetry = Math.min(nextRetry, now + delayMs);
    }
    if (unmounted.length === 0) return { ok: true };
    if (now - st.lastTimeout >= podAttachAndMountTimeoutMs) {
      st.lastTimeout = now;
      const list = (xs: readonly string[]): string => `[${xs.join(' ')}]`;
      this.#events.record(pod, 'Warning', 'FailedMount', `Unable to attach or mount volumes: unmounted volumes=${list(unmounted)}, unattached volumes=[], failed to process volumes=${list(unprocessed)}: context deadline exceeded`);
    }
    const timeoutAt = st.lastTimeout + podAttachAndMountTimeoutMs;
    return { ok: false, retryMs: Math.max(0, Math.min(nextRetry, timeoutAt) - now) };
  }

  /**
   * The pod sync's remount of its configMap and secret volumes (they RequiresRemount): each whose object
   * (or a key it names) is gone fails with a FailedMount event, the files written before staying. True
   * while one fails.
   */
  remount(pod: DeepReadonly<Pod>): boolean {
    let failing = false;
    for (const v of pod.spec.volumes ?? []) {
      if (!v.configMap && !v.secret && !v.projected?.sources?.some((p) => p.configMap || p.secret)) continue;
      const outcome = this.#mount(pod, v, pod.metadata.uid ?? '');
      if (outcome.kind !== 'failed') continue;
      failing = true;
      this.#events.record(pod, 'Warning', 'FailedMount', outcome.message);
    }
    return failing;
  }

  /** The pod is gone or terminated: its volumes (and RWOP holds) are released. */
  tearDown(uid: string): void {
    const st = this.#pods.get(uid);
    if (!st) return;
    for (const pv of st.rwop ?? []) if (this.#rwopHolders.get(pv) === uid) this.#rwopHolders.delete(pv);
    this.#pods.delete(uid);
  }

  /**
   * configmap's and secret's SetUpAt / MakePayload: the watch-based manager's not found, or a key the
   * items name that the object lacks (optional: neither is an error).
   */
  #sourceError(kind: 'configMap' | 'secret', ns: string, name: string, items: readonly { key: string }[] | undefined, optional: boolean): string | undefined {
    const found = kind === 'configMap' ? this.#sources.configMaps.getByName(ns, name) : this.#sources.secrets.getByName(ns, name);
    if (!found) return optional ? undefined : `${kind === 'configMap' ? 'configmap' : 'secret'} ${JSON.stringify(name)} not found`;
    if (optional) return undefined;
    const binary = kind === 'configMap' ? (found as { binaryData?: Record<string, string> }).binaryData : undefined;
    const missing = (items ?? []).find((item) => found.data?.[item.key] === undefined && binary?.[item.key] === undefined);
    if (!missing) return undefined;
    return kind === 'configMap' ? `configmap references non-existent config key: ${missing.key}` : `references non-existent secret key: ${missing.key}`;
  }

  #mount(pod: DeepReadonly<Pod>, v: NonNullable<DeepReadonly<Pod>['spec']['volumes']>[number], uid: string): Outcome {
    const ns = pod.metadata.namespace ?? '';
    const setUpFailed = (volumeName: string, err: string): Outcome => ({ kind: 'failed', message: `MountVolume.SetUp failed for volume ${JSON.stringify(volumeName)} : ${err}` });
    if (v.configMap) {
      const error = this.#sourceError('configMap', ns, v.configMap.name ?? '', v.configMap.items, v.configMap.optional === true);
      return error === undefined ? { kind: 'mounted' } : setUpFailed(v.name, error);
    }
    if (v.secret) {
      const error = this.#sourceError('secret', ns, v.secret.secretName ?? '', v.secret.items, v.secret.optional === true);
      return error === undefined ? { kind: 'mounted' } : setUpFailed(v.name, error);
    }
    if (v.projected) {
      // collectData: every source is tried, and the errors aggregate ("[a, b]" when more than one).
      const errors: string[] = [];
      for (const source of v.projected.sources ?? []) {
        const error = source.configMap
          ? this.#sourceError('configMap', ns, source.configMap.name ?? '', source.configMap.items, source.configMap.optional === true)
          : source.secret
            ? this.#sourceError('secret', ns, source.secret.name ?? '', source.secret.items, source.secret.optional === true)
            : undefined;
        if (error !== undefined) errors.push(error);
      }
      if (errors.length === 0) return { kind: 'mounted' };
      return setUpFailed(v.name, errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`);
    }
    const claimName = v.persistentVolumeClaim?.claimName ?? (v.ephemeral ? ephemeralClaimName(pod, v) : undefined);
    if (claimName === undefined) return { kind: 'mounted' };
    const claim = this.#sources.claims.getByName(ns, claimName);
    const pvName = claim?.spec?.volumeName;
    // The populator cannot build a volume spec: no event, the volume is "failed to process".
    if (!claim || claim.status?.phase !== 'Bound' || !pvName) return { kind: 'unprocessed' };
    const pv = this.#sources.volumes.get(pvName);
    if (!pv) return { kind: 'unprocessed' };
    const modes = pv.spec?.accessModes ?? [];
    // Enforced only when RWOP is the volume's only mode: with several, the pod's intent is unknown.
    if (modes.length === 1 && modes[0] === 'ReadWriteOncePod') {
      const holder = this.#rwopHolders.get(pvName);
      if (holder !== undefined && holder !== uid) return setUpFailed(pvName, 'volume uses the ReadWriteOncePod access mode and is already in use by another pod');
      return { kind: 'mounted', rwop: pvName };
    }
    return { kind: 'mounted' };
  }
}
