// The ClusterRole aggregation controller: a ClusterRole with an aggregationRule holds the rules of
// every other ClusterRole its selectors match (by name order, each rule once), so a CRD's installer
// can extend `admin`, `edit` and `view` by labelling a role. Written by server-side apply as
// `clusterrole-aggregation-controller`, as upstream does.
// Upstream: pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go.
import { refs } from '../../api/index.ts';
import type { ClusterRole, PolicyRule } from '../../api/index.ts';
import { isApiError, jsonEqual, labelSelectorFromObject } from '../../core/index.ts';
import type { Client, Informer } from '../../client/index.ts';
import { WorkQueue, informerFor, runWhenSynced } from '../../client/index.ts';
import type { ControllerOptions } from '../controller-options.ts';

export type ClusterRoleAggregationControllerOptions = ControllerOptions;

const fieldManager = 'clusterrole-aggregation-controller';

/** The rules `role` aggregates from `roles`: matching roles by name, their rules in order, each once. */
export function aggregatedRules(role: ClusterRole, roles: readonly ClusterRole[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  // Upstream's ruleExists compares each rule with every one kept (Semantic.DeepEqual); the admin role keeps hundreds.
  const kept = new Set<string>();
  const byName = [...roles].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const selector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const matcher = labelSelectorFromObject(selector);
    if ('error' in matcher) continue;
    for (const other of byName) {
      if (other.metadata.name === role.metadata.name || !matcher.matches(other.metadata.labels ?? {})) continue;
      for (const rule of other.rules ?? []) {
        const key = ruleKey(rule);
        if (kept.has(key)) continue;
        kept.add(key);
        rules.push(rule);
      }
    }
  }
  return rules;
}

/**
 * Equal for rules equality.Semantic.DeepEqual finds equal: a PolicyRule's fields are lists of
 * strings, an empty list is an absent one, and key order does not matter.
 */
function ruleKey(rule: PolicyRule): string {
  const fields = rule as unknown as Record<string, unknown>;
  const present = (k: string): boolean => fields[k] !== undefined && !(Array.isArray(fields[k]) && fields[k].length === 0);
  return JSON.stringify(Object.keys(fields).filter(present).sort().map((k) => [k, fields[k]]));
}

export class ClusterRoleAggregationController {
  readonly #client: Client;
  readonly #log: (line: string) => void;
  readonly #roles: Informer<ClusterRole>;
  readonly #queue: WorkQueue<string>;

  constructor(options: ClusterRoleAggregationControllerOptions) {
    const { client, clock, log } = options;
    this.#client = client;
    this.#log = log;
    this.#roles = informerFor<ClusterRole>(options.informers, { client, ref: refs.clusterRoles, clock, log });
    this.#queue = new WorkQueue<string>({ clock });
    // Any role's change may change what any aggregating role selects: look at them all.
    const enqueueAggregating = (): void => {
      for (const role of this.#roles.list()) if (role.aggregationRule) this.#queue.add(role.metadata.name ?? '');
    };
    this.#roles.addHandlers({ onAdd: enqueueAggregating, onUpdate: enqueueAggregating, onDelete: enqueueAggregating });
  }

  start(): void {
    runWhenSynced([this.#roles], this.#queue, 1, (name) => this.syncClusterRole(name), this.#log);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#roles.stop();
  }

  async syncClusterRole(name: string): Promise<void> {
    const role = this.#roles.getByName(undefined, name);
    if (!role?.aggregationRule) return;
    const rules = aggregatedRules(role, this.#roles.list());
    if (jsonEqual(rules, role.rules ?? [])) return;
    try {
      await this.#client.patch(refs.clusterRoles, undefined, name, 'apply', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules }, { fieldManager, force: true });
    } catch (error) {
      if (isApiError(error) && error.reason === 'NotFound') return;
      throw error;
    }
  }
}
