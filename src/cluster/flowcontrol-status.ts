// API Priority and Fairness' config consumer, as far as it shows in the API: every FlowSchema's
// Dangling condition says whether the priority level it names exists. (Drydock does not queue
// requests by these objects.) Upstream: staging/src/k8s.io/apiserver/pkg/util/flowcontrol/apf_controller.go
// (presyncFlowSchemaStatus).
import { refs } from '../api/index.ts';
import type { FlowSchema, PriorityLevelConfiguration } from '../api/index.ts';
import type { Client, Informer, SharedInformers } from '../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../client/index.ts';
import type { Clock } from '../core/index.ts';
import { copyJson, formatTime, isApiError, withCondition } from '../core/index.ts';

const fieldManager = 'api-priority-and-fairness-config-consumer-v1';
const byPriorityLevel = 'priorityLevel';

export interface FlowcontrolStatusOptions {
  client: Client;
  clock: Clock;
  log: (line: string) => void;
  informers?: SharedInformers;
}

export class FlowcontrolStatus {
  readonly #o: FlowcontrolStatusOptions;
  readonly #flowSchemas: Informer<FlowSchema>;
  readonly #priorityLevels: Informer<PriorityLevelConfiguration>;
  readonly #queue: WorkQueue<string>;

  constructor(options: FlowcontrolStatusOptions) {
    const { client, clock, log } = options;
    this.#o = options;
    this.#flowSchemas = informerFor<FlowSchema>(options.informers, { client, ref: refs.flowSchemas, clock, log });
    this.#priorityLevels = informerFor<PriorityLevelConfiguration>(options.informers, { client, ref: refs.priorityLevelConfigurations, clock, log });
    this.#flowSchemas.addIndex(byPriorityLevel, (fs) => [fs.spec?.priorityLevelConfiguration?.name ?? '']);
    this.#queue = new WorkQueue<string>({ clock });
    const enqueue = (fs: FlowSchema): void => this.#queue.add(fs.metadata.name ?? '');
    this.#flowSchemas.addHandlers({ onAdd: enqueue, onUpdate: (_old, fs) => enqueue(fs) });
    const levelChanged = (pl: PriorityLevelConfiguration): void => {
      for (const fs of this.#flowSchemas.byIndex(byPriorityLevel, pl.metadata.name ?? '')) enqueue(fs);
    };
    this.#priorityLevels.addHandlers({ onAdd: levelChanged, onDelete: levelChanged });
  }

  start(): void {
    runWhenSynced([this.#flowSchemas, this.#priorityLevels], this.#queue, 1, (name) => this.#sync(name), this.#o.log);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#flowSchemas.stop();
    this.#priorityLevels.stop();
  }

  async #sync(name: string): Promise<void> {
    const fs = this.#flowSchemas.getByName(undefined, name);
    if (!fs) return;
    const level = fs.spec?.priorityLevelConfiguration?.name ?? '';
    const found = this.#priorityLevels.getByName(undefined, level) !== undefined;
    const desired = found
      ? { status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} and it exists` }
      : { status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} but there is no such object` };
    const at = formatTime(this.#o.clock.now());
    const current = fs.status?.conditions?.find((c) => c.type === 'Dangling');
    if (current && current.status === desired.status && current.reason === desired.reason && current.message === desired.message) return;
    const next = copyJson(fs) as FlowSchema;
    const condition = { type: 'Dangling', status: desired.status, lastTransitionTime: at, reason: desired.reason, message: desired.message };
    next.status = { conditions: withCondition(fs.status?.conditions, condition) };
    try {
      await this.#o.client.updateStatus(refs.flowSchemas, next, { fieldManager });
    } catch (error) {
      if (isApiError(error) && error.reason === 'Conflict') return this.#queue.add(name);
      if (!(isApiError(error) && error.reason === 'NotFound')) throw error;
    }
  }
}
