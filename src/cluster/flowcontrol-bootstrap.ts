// The API server's priority-and-fairness-config-producer: the mandatory and suggested FlowSchemas and
// PriorityLevelConfigurations exist, and those still marked apf.kubernetes.io/autoupdate-spec keep
// the bootstrap spec (a mandatory one always does). One that is deleted comes back.
// Upstream: pkg/registry/flowcontrol/ensurer, pkg/registry/flowcontrol/rest/storage_flowcontrol.go.
import { mandatoryConfiguration, refs, suggestedConfiguration } from '../api/index.ts';
import type { FlowcontrolConfiguration, ResourceRef } from '../api/index.ts';
import type { Client, Informer, SharedInformers } from '../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../client/index.ts';
import type { Clock, KubeObject } from '../core/index.ts';
import { isApiError, jsonEqual } from '../core/index.ts';

const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';

interface Wanted {
  ref: ResourceRef;
  object: KubeObject;
  mandatory: boolean;
}

function wantedObjects(): Map<string, Wanted> {
  const wanted = new Map<string, Wanted>();
  const add = (config: FlowcontrolConfiguration, mandatory: boolean): void => {
    for (const pl of config.priorityLevelConfigurations) wanted.set(`prioritylevelconfigurations/${pl.metadata.name}`, { ref: refs.priorityLevelConfigurations, object: pl, mandatory });
    for (const fs of config.flowSchemas) wanted.set(`flowschemas/${fs.metadata.name}`, { ref: refs.flowSchemas, object: fs, mandatory });
  };
  // Priority levels first: a FlowSchema created before its level would read as dangling.
  add(mandatoryConfiguration, true);
  add(suggestedConfiguration, false);
  return wanted;
}

/** The bootstrap spec, except that the `exempt` level keeps the exempt settings an administrator chose. */
function desiredSpec(wanted: Wanted, current: KubeObject): unknown {
  const spec = structuredClone(wanted.object.spec) as Record<string, unknown>;
  const exempt = (current.spec as { exempt?: unknown } | undefined)?.exempt;
  if (wanted.ref === refs.priorityLevelConfigurations && wanted.object.metadata.name === 'exempt' && exempt) spec.exempt = structuredClone(exempt);
  return spec;
}

export interface FlowcontrolBootstrapOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  informers?: SharedInformers;
}

export class FlowcontrolBootstrap {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #wanted = wantedObjects();
  readonly #informers: Record<'flowschemas' | 'prioritylevelconfigurations', Informer<KubeObject>>;
  readonly #queue: WorkQueue<string>;

  constructor(options: FlowcontrolBootstrapOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#log = log;
    this.#informers = {
      flowschemas: informerFor<KubeObject>(options.informers, { client, ref: refs.flowSchemas, clock, log }),
      prioritylevelconfigurations: informerFor<KubeObject>(options.informers, { client, ref: refs.priorityLevelConfigurations, clock, log }),
    };
    this.#queue = new WorkQueue<string>({ clock });
    for (const [resource, informer] of Object.entries(this.#informers)) {
      const enqueue = (o: KubeObject): void => {
        const key = `${resource}/${o.metadata.name ?? ''}`;
        if (this.#wanted.has(key)) this.#queue.add(key);
      };
      informer.addHandlers({ onUpdate: (_old, o) => enqueue(o), onDelete: enqueue });
    }
  }

  /**
   * Checks every bootstrap object once the caches are filled (a missing one is created, levels first:
   * the queue keeps #wanted's order), then whenever one changes or goes.
   */
  async start(): Promise<void> {
    runWhenSynced(Object.values(this.#informers), this.#queue, 1, (key) => this.#sync(key), this.#log);
    for (const key of this.#wanted.keys()) this.#queue.add(key);
    await Promise.all(Object.values(this.#informers).map((informer) => informer.waitForSync()));
  }

  stop(): void {
    this.#queue.shutDown();
    for (const informer of Object.values(this.#informers)) informer.stop();
  }

  async #sync(key: string): Promise<void> {
    const wanted = this.#wanted.get(key);
    if (!wanted) return;
    const [resource = ''] = key.split('/');
    const current = this.#informers[resource as 'flowschemas' | 'prioritylevelconfigurations'].getByName(undefined, wanted.object.metadata.name ?? '');
    if (!current) return this.#create(wanted);
    const autoUpdate = wanted.mandatory || current.metadata.annotations?.[autoUpdateAnnotation] === 'true';
    const spec = desiredSpec(wanted, current);
    if (!autoUpdate || (jsonEqual(current.spec, spec) && current.metadata.annotations?.[autoUpdateAnnotation] === 'true')) return;
    const next: KubeObject = { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, [autoUpdateAnnotation]: 'true' } }, spec };
    try {
      await this.#client.update(wanted.ref, next);
    } catch (error) {
      if (isApiError(error) && (error.reason === 'Conflict' || error.reason === 'NotFound')) return this.#queue.add(key);
      throw error;
    }
  }

  async #create(wanted: Wanted): Promise<void> {
    try {
      await this.#client.create(wanted.ref, structuredClone(wanted.object));
    } catch (error) {
      if (!(isApiError(error) && error.reason === 'AlreadyExists')) throw error;
    }
  }
}
