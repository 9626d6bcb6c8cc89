// A node's images as the kubelet's image manager sees them: pulled once per node, one pull at a time
// (serializeImagePulls, the kubelet's default), a failed pull backing off per pod and image with its
// error kept for the ImagePullBackOff message. The pull's time and outcome come from the container's
// behaviour (`pull: 45s`, `pull: notFound`).
// Upstream: pkg/kubelet/images/image_manager.go (EnsureImageExists, pullImage, evalCRIPullErr),
// pkg/kubelet/images/puller.go (serialImagePuller).
import type { Clock } from '../core/index.ts';
import { Backoff, formatGoDurationMs } from './backoff.ts';
import { imageSizeBytes, normalizeImage } from './images.ts';

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

export interface ImageRequest {
  podUID: string;
  /** The image as the container spec names it. */
  image: string;
  policy: PullPolicy;
  pullMs: number;
  notFound: boolean;
  /** The registry wants credentials, and the pod has none it can use. */
  unauthorized: boolean;
  /** Records an event on the container. */
  event: (type: 'Normal' | 'Warning', reason: string, message: string) => void;
}

/** The image is there, or why the container cannot be created (its waiting reason and message). */
export type EnsureResult = { ok: true } | { ok: false; reason: 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull'; message: string };

export class ImageManager {
  readonly #clock: Clock;
  readonly #present = new Set<string>();
  readonly #backoff = new Backoff();
  readonly #previousError = new Map<string, string>();
  #pulls: Promise<unknown> = Promise.resolve();

  readonly #onChange: (() => void) | undefined;
  readonly #onPulled: ((sizeBytes: number, seconds: number) => void) | undefined;

  /**
   * `onChange` hears of each image new on the node (the Node's image list then changes); `onPulled` of
   * each successful pull, its size and how long it took with its wait in the queue (the pull metric).
   */
  constructor(clock: Clock, onChange?: () => void, onPulled?: (sizeBytes: number, seconds: number) => void) {
    this.#clock = clock;
    this.#onChange = onChange;
    this.#onPulled = onPulled;
  }

  /** The images on the node, by their normalized references. */
  get present(): ReadonlySet<string> {
    return this.#present;
  }

  /** A container a restarted kubelet found had its image: it is on the node. */
  markPresent(image: string): void {
    this.#add(normalizeImage(image));
  }

  #add(ref: string): void {
    if (this.#present.has(ref)) return;
    this.#present.add(ref);
    this.#onChange?.();
  }

  async ensure(r: ImageRequest): Promise<EnsureResult> {
    // Images are known by their normalized reference (`nginx` is docker.io/library/nginx:latest).
    const ref = normalizeImage(r.image);
    const present = this.#present.has(ref);
    // A Never image is taken as loaded onto the node beforehand, unless the registry has no such image.
    if (r.policy === 'Never' && !present && r.notFound) {
      const message = `Container image "${r.image}" is not present with pull policy of Never`;
      r.event('Warning', 'ErrImageNeverPull', message);
      return { ok: false, reason: 'ErrImageNeverPull', message };
    }
    if (r.policy === 'Never' || (r.policy === 'IfNotPresent' && present)) {
      this.#add(ref);
      r.event('Normal', 'Pulled', `Container image "${r.image}" already present on machine and can be accessed by the pod`);
      return { ok: true };
    }
    return this.#pull(r, ref);
  }

  /** The pod is gone: its back-off entries go with it. */
  forget(podUID: string): void {
    this.#backoff.forget(`${podUID}_`);
    for (const key of this.#previousError.keys()) if (key.startsWith(`${podUID}_`)) this.#previousError.delete(key);
  }

  async #pull(r: ImageRequest, ref: string): Promise<EnsureResult> {
    const key = `${r.podUID}_${r.image}`;
    if (this.#backoff.isInBackOffSinceUpdate(key, this.#clock.now())) {
      const message = `Back-off pulling image "${r.image}"`;
      r.event('Normal', 'BackOff', message);
      const previous = this.#previousError.get(key);
      return { ok: false, reason: 'ImagePullBackOff', message: previous === undefined ? message : `${message}: ${previous}` };
    }
    this.#previousError.delete(key);
    r.event('Normal', 'Pulling', `Pulling image "${r.image}"`);
    const asked = this.#clock.now();
    const pulling = this.#pulls.then(async () => {
      const started = this.#clock.now();
      // An image on the node by now (pulled while this one queued, or pulled Always) only has its
      // manifest checked; a missing one fails after the same wait as a pull.
      const pullMs = this.#present.has(ref) ? 0 : r.pullMs;
      if (pullMs > 0) await this.#clock.sleep(pullMs);
      return this.#clock.now() - started;
    });
    this.#pulls = pulling;
    const tookMs = await pulling;
    const waitedMs = this.#clock.now() - asked;
    if (r.notFound || r.unauthorized) {
      const error = r.notFound
        ? `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`
        : `rpc error: code = Unknown desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed`;
      r.event('Warning', 'Failed', `Failed to pull image "${r.image}": ${error}`);
      this.#backoff.next(key, this.#clock.now());
      this.#previousError.set(key, `ErrImagePull: ${error}`);
      return { ok: false, reason: 'ErrImagePull', message: error };
    }
    this.#add(ref);
    this.#onPulled?.(imageSizeBytes(r.image), waitedMs / 1000);
    r.event('Normal', 'Pulled', `Successfully pulled image "${r.image}" in ${formatGoDurationMs(tookMs)} (${formatGoDurationMs(waitedMs)} including waiting). Image size: ${imageSizeBytes(r.image)} bytes.`);
    return { ok: true };
  }
}
