// SelfSubjectRulesReview (authorization.k8s.io/v1, `kubectl auth can-i --list`): every rule the
// caller holds in a namespace, from the RBAC bindings that apply to it (cluster-wide and the
// namespace's), incomplete with the error when a binding names a missing role.
// Upstream: staging/src/k8s.io/api/authorization/v1/types.go, pkg/registry/authorization/selfsubjectrulesreview/rest.go.
import { FieldPath, GoSyntax, invalidValue } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition } from '../../resource.ts';
import type { PolicyRule } from '../../rbac/v1/types.ts';

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface SelfSubjectRulesReview extends KubeObject {
  metadata: ObjectMeta;
  spec: { namespace?: string };
  status?: { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[]; incomplete: boolean; evaluationError?: string };
}

function validateSelfSubjectRulesReview(review: SelfSubjectRulesReview): FieldError[] {
  const { managedFields: _ignored, ...meta } = review.metadata ?? {};
  if (Object.values(meta).some((v) => v !== undefined && v !== '')) return [invalidValue(FieldPath.root('metadata'), new GoSyntax('v1.ObjectMeta{...}'), 'must be empty')];
  return [];
}

const nonEmpty = <K extends string>(key: K, list: string[] | undefined): Partial<Record<K, string[]>> => (list?.length ? ({ [key]: [...list] } as Partial<Record<K, string[]>>) : {});

/** The review's status from the rules held (each rule's resource part and URL part) and the errors met. */
export function rulesReviewStatus(rules: readonly PolicyRule[], errors: readonly string[]): NonNullable<SelfSubjectRulesReview['status']> {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const rule of rules) {
    if (rule.resources?.length) resourceRules.push({ verbs: [...rule.verbs], ...nonEmpty('apiGroups', rule.apiGroups), ...nonEmpty('resources', rule.resources), ...nonEmpty('resourceNames', rule.resourceNames) });
    if (rule.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs] });
  }
  const status: NonNullable<SelfSubjectRulesReview['status']> = { resourceRules, nonResourceRules, incomplete: errors.length > 0 };
  if (errors.length > 0) status.evaluationError = errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
  return status;
}

export const selfSubjectRulesReviewDefinition: ResourceDefinition<SelfSubjectRulesReview> = {
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  resource: 'selfsubjectrulesreviews',
  singular: 'selfsubjectrulesreview',
  namespaced: false,
  verbs: ['create'],
  hasStatus: false,
  validateCreate: validateSelfSubjectRulesReview,
  reviewRulesIn: (obj) => obj.spec?.namespace ?? '',
  review: (obj, { rules }) => ({ ...obj, status: rulesReviewStatus(rules?.rules ?? [], rules?.errors ?? []) }),
};
