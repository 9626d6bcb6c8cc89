// SelfSubjectAccessReview (authorization.k8s.io/v1, `kubectl auth can-i`): may the caller do this?
// The server's authorizer answers for the user the request acts as: the kubeconfig's admin (in
// system:masters) is allowed everything with no reason; others as RBAC allows, with its reason.
// Upstream: staging/src/k8s.io/api/authorization/v1/types.go, pkg/apis/authorization/validation/validation.go,
// pkg/registry/authorization/selfsubjectaccessreview/rest.go.
import { FieldPath, GoSyntax, invalidValue } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition } from '../../resource.ts';
import type { AccessAttributes } from '../../rbac/v1/authorization.ts';

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export interface SelfSubjectAccessReview extends KubeObject {
  metadata: ObjectMeta;
  spec: { resourceAttributes?: ResourceAttributes; nonResourceAttributes?: NonResourceAttributes };
  status?: SubjectAccessReviewStatus;
}

/** ValidateSelfSubjectAccessReview: exactly one kind of attributes, and no metadata but managedFields. */
export function validateSelfSubjectAccessReview(review: SelfSubjectAccessReview): FieldError[] {
  const errs: FieldError[] = [];
  const spec = FieldPath.root('spec');
  const { resourceAttributes, nonResourceAttributes } = review.spec ?? {};
  if (resourceAttributes && nonResourceAttributes) {
    errs.push(invalidValue(spec.child('nonResourceAttributes'), new GoSyntax(nonResourceAttributesText(nonResourceAttributes)), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!resourceAttributes && !nonResourceAttributes) {
    errs.push(invalidValue(spec.child('resourceAttributes'), new GoSyntax('(*authorization.NonResourceAttributes)(nil)'), 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  const { managedFields: _ignored, ...meta } = review.metadata ?? {};
  if (Object.values(meta).some((v) => v !== undefined && v !== '')) errs.push(invalidValue(FieldPath.root('metadata'), new GoSyntax('v1.ObjectMeta{...}'), 'must be empty'));
  return errs;
}

/** The question a review asks, as request attributes (its verb and group taken as given). */
export function accessAsked(review: { spec?: { resourceAttributes?: ResourceAttributes; nonResourceAttributes?: NonResourceAttributes } }): AccessAttributes {
  const spec = review.spec ?? {};
  const r = spec.resourceAttributes;
  if (r) return { resourceRequest: true, verb: r.verb ?? '', apiGroup: r.group ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', namespace: r.namespace ?? '', name: r.name ?? '' };
  return { resourceRequest: false, verb: spec.nonResourceAttributes?.verb ?? '', path: spec.nonResourceAttributes?.path ?? '' };
}

function nonResourceAttributesText(a: NonResourceAttributes): string {
  return `&authorization.NonResourceAttributes{Path:${JSON.stringify(a.path ?? '')}, Verb:${JSON.stringify(a.verb ?? '')}}`;
}

export const selfSubjectAccessReviewDefinition: ResourceDefinition<SelfSubjectAccessReview> = {
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SelfSubjectAccessReview',
  resource: 'selfsubjectaccessreviews',
  singular: 'selfsubjectaccessreview',
  namespaced: false,
  verbs: ['create'],
  hasStatus: false,
  validateCreate: validateSelfSubjectAccessReview,
  reviewAccess: accessAsked,
  review: (obj, { decision }) => ({ ...obj, status: { allowed: decision?.allowed ?? false, ...(decision?.reason ? { reason: decision.reason } : {}) } }),
};
