// The customresourcecleanup finalizer of a deleted CustomResourceDefinition: mark it Terminating,
// delete every object of it as a client's DELETE would (an object with finalizers of its own is
// only marked, and stays until they are removed), wait for none to remain, then let the CRD go.
// While objects remain it retries, rate-limited, as the controller's work queue does.
// Upstream: apiextensions-apiserver/pkg/controller/finalizer/crd_finalizer.go.
import type { ResourceDefinition } from '../../api/index.ts';
import type { Condition, KubeObject } from '../../core/index.ts';
import { formatTime, isApiError } from '../../core/index.ts';
import type { ApiServer } from '../server.ts';
import { storedObject } from '../stored-object.ts';
import { crdCleanupFinalizer, customResourceDefinitionKind, isCrdConditionTrue } from './definition.ts';
import type { CustomResourceDefinition } from './types.ts';

export type TerminatingCondition = Omit<Condition, 'lastTransitionTime'>;

/** wait.PollUntilContextTimeout's interval and timeout in deleteInstances. */
const pollInterval = 1_000;
const pollTimeout = 60_000;

const inProgress: TerminatingCondition = { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
const completed: TerminatingCondition = { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
const neverEstablished: TerminatingCondition = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
const overlapping: TerminatingCondition = { type: 'Terminating', status: 'False', reason: 'OverlappingBuiltInResource', message: 'instances overlap with built-in resources in storage' };
// The poll's context deadline is what it reports.
const deletionCheck: TerminatingCondition = { type: 'Terminating', status: 'True', reason: 'InstanceDeletionCheck', message: 'could not confirm zero CustomResources remaining: context deadline exceeded' };

/** Built-in resources stored where a CRD of their name would store its objects: never deleted through one. */
const overlappingBuiltIns = new Set(['apiservices.apiregistration.k8s.io', 'customresourcedefinitions.apiextensions.k8s.io']);

export interface CrdFinalizerOptions {
  server: ApiServer;
  /** The served kind the CRD's objects are listed and deleted through. */
  definitionOf: (crd: CustomResourceDefinition) => ResourceDefinition | undefined;
  /**
   * Runs in the CRD controller's queue, after the changes it has seen so far: stops serving the
   * CRD and stores `finalCondition` with the cleanup finalizer removed, which deletes the CRD.
   */
  release: (name: string, finalCondition: TerminatingCondition) => Promise<void>;
  log?: ((line: string) => void) | undefined;
}

export function isFinalizing(crd: CustomResourceDefinition): boolean {
  return crd.metadata.deletionTimestamp !== undefined && (crd.metadata.finalizers ?? []).includes(crdCleanupFinalizer);
}

export class CrdFinalizer {
  readonly #options: CrdFinalizerOptions;
  /** CRD name -> its running finalization, aborted on stop. */
  readonly #running = new Map<string, AbortController>();
  /** Finalizations between waits; idle() resolves when none is. */
  #busy = 0;
  #idle: (() => void)[] = [];
  #stopped = false;

  constructor(options: CrdFinalizerOptions) {
    this.#options = options;
  }

  /** Starts finalizing `crd` unless it is already under way (idempotent, like a work queue's Add). */
  enqueue(crd: CustomResourceDefinition): void {
    const name = crd.metadata.name ?? '';
    if (this.#stopped || !isFinalizing(crd) || this.#running.has(name)) return;
    const abort = new AbortController();
    this.#running.set(name, abort);
    this.#busy++;
    void this.#run(name, abort.signal).finally(() => {
      this.#running.delete(name);
      this.#done();
    });
  }

  stop(): void {
    this.#stopped = true;
    for (const abort of this.#running.values()) abort.abort();
  }

  /** Resolves once every finalization is waiting (a poll, a retry) or finished. */
  idle(): Promise<void> {
    if (this.#busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #done(): void {
    if (--this.#busy > 0) return;
    const waiting = this.#idle;
    this.#idle = [];
    for (const resolve of waiting) resolve();
  }

  async #sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.#done();
    try {
      await this.#options.server.clock.sleep(ms, signal);
    } finally {
      this.#busy++;
    }
  }

  async #run(name: string, signal: AbortSignal): Promise<void> {
    // The work queue's DefaultControllerRateLimiter: 5ms doubling per failure, at most 1000s.
    for (let failures = 0; !signal.aborted; ) {
      try {
        if (await this.#sync(name, signal)) return;
      } catch (error) {
        if (signal.aborted) return;
        this.#options.log?.(`crd ${name} finalizer: ${error instanceof Error ? error.message : String(error)}`);
      }
      failures++;
      try {
        await this.#sleep(Math.min(5 * 2 ** (failures - 1), 1_000_000), signal);
      } catch {
        return;
      }
    }
  }

  /** One pass of the finalizer; true when there is nothing more to do. */
  async #sync(name: string, signal: AbortSignal): Promise<boolean> {
    const kv = await this.#options.server.storage.store.get(this.#options.server.storage.key(customResourceDefinitionKind, '', name));
    if (!kv || !isFinalizing(storedObject(kv) as CustomResourceDefinition)) return true;
    const crd = await this.#setCondition(name, inProgress);
    if (!crd) return true;
    let final: TerminatingCondition;
    if (overlappingBuiltIns.has(`${crd.spec.names.plural}.${crd.spec.group}`)) final = overlapping;
    else if (isCrdConditionTrue(crd, 'Established')) {
      const outcome = await this.#deleteInstances(crd, signal);
      if (outcome !== completed) {
        await this.#setCondition(name, outcome);
        return false;
      }
      final = completed;
    } else final = neverEstablished;
    await this.#options.release(name, final);
    return true;
  }

  async #deleteInstances(crd: CustomResourceDefinition, signal: AbortSignal): Promise<TerminatingCondition> {
    const { server } = this.#options;
    const def = this.#options.definitionOf(crd);
    if (!def) {
      const message = `unable to find a custom resource client for ${crd.status?.acceptedNames?.plural ?? ''}.${crd.spec.group}: not served`;
      return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: `could not list instances: ${message}` };
    }
    // A DeleteCollection per namespace: a namespace's first failure ends its collection.
    const failures = new Map<string, string>();
    for (const item of await this.#instances(def)) {
      const namespace = item.metadata.namespace ?? '';
      if (failures.has(namespace)) continue;
      try {
        await server.storage.delete(def, namespace, item.metadata.name ?? '', { dryRun: false }, { dryRun: false, fieldManager: '', subresource: '' });
      } catch (error) {
        if (isApiError(error) && error.reason === 'NotFound') continue;
        failures.set(namespace, error instanceof Error ? error.message : String(error));
      }
    }
    if (failures.size > 0) {
      const errors = [...failures.values()];
      const aggregate = errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
      return { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message: `could not issue all deletes: ${aggregate}` };
    }
    // Checked at once, then every second; the minute's deadline ends the poll.
    for (let waited = 0; ; waited += pollInterval) {
      if ((await this.#instances(def)).length === 0) return completed;
      await this.#sleep(pollInterval, signal);
      if (waited + pollInterval >= pollTimeout) return deletionCheck;
    }
  }

  async #instances(def: ResourceDefinition): Promise<KubeObject[]> {
    const { storage } = this.#options.server;
    const { items } = await storage.store.list(storage.prefix(def, ''));
    return items.map((kv) => storedObject(kv));
  }

  /** SetCRDCondition and UpdateStatus; undefined when the CRD is gone. */
  async #setCondition(name: string, condition: TerminatingCondition): Promise<CustomResourceDefinition | undefined> {
    const { server } = this.#options;
    const now = formatTime(server.clock.now());
    try {
      const result = await server.storage.update(customResourceDefinitionKind, '', name, (_current, mutable) => {
        const crd = mutable() as CustomResourceDefinition;
        return { ...crd, status: { ...crd.status, conditions: setCrdCondition(crd.status?.conditions ?? [], condition, now) } } as KubeObject;
      }, { dryRun: false, fieldManager: '', subresource: 'status' });
      return result.kind === 'stored' ? (storedObject(result.kv) as CustomResourceDefinition) : undefined;
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return undefined;
      throw error;
    }
  }
}

/**
 * apihelpers.SetCRDCondition: a condition of a new type is appended; one already there takes the
 * new status, reason and message in place, and a new transition time only when its status changes.
 */
export function setCrdCondition(conditions: readonly Condition[], condition: TerminatingCondition, now: string): Condition[] {
  const at = conditions.findIndex((c) => c.type === condition.type);
  if (at < 0) return [...conditions, { ...condition, lastTransitionTime: now }];
  return conditions.map((c, i) => (i === at ? { ...condition, lastTransitionTime: c.status === condition.status && c.lastTransitionTime ? c.lastTransitionTime : now } : c));
}

/** The status and finalizers of a CRD the finalizer releases: its final condition, without the cleanup finalizer. */
export function releasedCrd(crd: CustomResourceDefinition, condition: TerminatingCondition, now: string): CustomResourceDefinition {
  return {
    ...crd,
    metadata: { ...crd.metadata, finalizers: (crd.metadata.finalizers ?? []).filter((f) => f !== crdCleanupFinalizer) },
    status: { ...crd.status, conditions: setCrdCondition(crd.status?.conditions ?? [], condition, now) },
  } as CustomResourceDefinition;
}
