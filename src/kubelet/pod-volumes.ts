// A pod's volumes as its worker sees them: set up once before any container starts, remounted at the
// pod's periodic syncs while a config map or secret it mounts is gone, and holding the content they
// were written with until the next sync after a source changed.
// Upstream: pkg/kubelet/volumemanager/volume_manager.go (WaitForAttachAndMount),
// kubelet.go (syncFrequency), nestedpendingoperations (the operation backoff).
import type { KubeObject } from '../core/index.ts';
import type { EnvSources } from './container-env.ts';
import type { PodWorkerDeps, PodWorkerView } from './pod-worker-deps.ts';

/** Volumes are remounted or held only while the pod worker syncs the pod (not once it terminates). */
export interface PodVolumesOptions {
  deps: Pick<PodWorkerDeps, 'clock' | 'volumes' | 'envSources'>;
  startTime: number;
}

/** syncFrequency: how often the kubelet syncs every pod (its volumes remounted). */
const podSyncPeriodMs = 60_000;
/** The volume operations' exponential backoff (nestedpendingoperations). */
const remountInitialDelayMs = 500;
const remountMaxDelayMs = 122_000;

export class PodVolumes {
  readonly #v: PodWorkerView;
  readonly #o: PodVolumesOptions;
  #mountDone = false;
  #mountRetry = false;
  /** A remount of the pod's volumes is failing (a config map or secret it mounts is gone). */
  #remounting = false;
  /**
   * Config maps and secrets changed since the pod's last sync, as its volumes still show them
   * (`configMap/<name>`, `secret/<name>`): the kubelet rewrites a volume only when it syncs the pod.
   */
  #heldSources: Map<string, KubeObject> | undefined;

  constructor(view: PodWorkerView, options: PodVolumesOptions) {
    this.#v = view;
    this.#o = options;
  }

  /** WaitForAttachAndMount: containers wait (ContainerCreating) until every volume is set up. */
  mounted(): boolean {
    const volumes = this.#o.deps.volumes;
    if (this.#mountDone || !volumes) return true;
    if (this.#mountRetry) return false;
    const r = volumes.setUp(this.#v.pod);
    if (r.ok) return (this.#mountDone = true);
    this.#mountRetry = true;
    this.#v.after(r.retryMs, () => {
      this.#mountRetry = false;
      this.#v.sync();
    });
    return false;
  }

  /**
   * A config map or secret the pod mounts was deleted: its next sync (every syncFrequency, a minute, from
   * the pod's start) remounts the volumes and fails, and the volume manager tries again with its operation
   * backoff (500 ms doubling to 2m2s) until the object is back.
   */
  sourceDeleted(): void {
    if (this.#remounting || !this.#v.isSyncing() || !this.#o.deps.volumes) return;
    this.#remounting = true;
    this.#v.after(this.#untilNextSync(), () => this.#remount(remountInitialDelayMs));
  }

  /**
   * A config map or secret the pod mounts changed: its volumes keep the content they were written with
   * until the pod's next sync (every syncFrequency, a minute, from its start), which writes the new one.
   */
  sourceChanged(kind: 'configMap' | 'secret', old: KubeObject): void {
    if (!this.#v.isSyncing()) return;
    const key = `${kind}/${old.metadata.name ?? ''}`;
    if (!this.#heldSources) {
      this.#heldSources = new Map();
      this.#v.after(this.#untilNextSync(), () => (this.#heldSources = undefined));
    }
    if (!this.#heldSources.has(key)) this.#heldSources.set(key, old);
  }

  /** The config maps and secrets as the pod's volumes were last written: those changed since held as they were. */
  contentSources(): EnvSources | undefined {
    const live = this.#o.deps.envSources;
    if (!live) return undefined;
    const held = (key: string) => this.#heldSources?.get(key);
    return {
      configMaps: { getByName: (namespace, name) => held(`configMap/${name}`) ?? live.configMaps.getByName(namespace, name) },
      secrets: { getByName: (namespace, name) => held(`secret/${name}`) ?? live.secrets.getByName(namespace, name) },
    };
  }

  /** The time to the pod's next periodic sync: every syncFrequency from its start. */
  #untilNextSync(): number {
    return podSyncPeriodMs - ((this.#o.deps.clock.now() - this.#o.startTime) % podSyncPeriodMs);
  }

  #remount(delayMs: number): void {
    if (!this.#v.isSyncing() || !this.#o.deps.volumes?.remount(this.#v.pod)) {
      this.#remounting = false;
      return;
    }
    this.#v.after(delayMs, () => this.#remount(Math.min(delayMs * 2, remountMaxDelayMs)));
  }
}
