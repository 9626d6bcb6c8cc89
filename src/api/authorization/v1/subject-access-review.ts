// SubjectAccessReview and LocalSubjectAccessReview (authorization.k8s.io/v1): may the user the spec
// names (not the caller) do this? Answered by the server's authorizer; the local kind asks about one
// namespace, the request's. What webhook authorizers and proxies such as kube-rbac-proxy send.
// Upstream: staging/src/k8s.io/api/authorization/v1/types.go, pkg/apis/authorization/validation/validation.go,
// pkg/registry/authorization/{subjectaccessreview,localsubjectaccessreview}/rest.go.
import { FieldPath, GoSyntax, invalidValue } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition } from '../../resource.ts';
import type { UserInfo } from '../../authentication/v1/self-subject-review.ts';
import type { NonResourceAttributes, ResourceAttributes, SubjectAccessReviewStatus } from './self-subject-access-review.ts';
import { accessAsked } from './self-subject-access-review.ts';

export interface SubjectAccessReview extends KubeObject {
  metadata: ObjectMeta;
  spec: {
    resourceAttributes?: ResourceAttributes;
    nonResourceAttributes?: NonResourceAttributes;
    user?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
    uid?: string;
  };
  status?: SubjectAccessReviewStatus;
}

const nonResourceText = (a: NonResourceAttributes | undefined): string => (a ? `&authorization.NonResourceAttributes{Path:${JSON.stringify(a.path ?? '')}, Verb:${JSON.stringify(a.verb ?? '')}}` : '(*authorization.NonResourceAttributes)(nil)');

/** ValidateSubjectAccessReviewSpec. */
function validateSpec(review: SubjectAccessReview): FieldError[] {
  const errs: FieldError[] = [];
  const spec = FieldPath.root('spec');
  const { resourceAttributes, nonResourceAttributes, user, groups } = review.spec ?? {};
  if (resourceAttributes && nonResourceAttributes) errs.push(invalidValue(spec.child('nonResourceAttributes'), new GoSyntax(nonResourceText(nonResourceAttributes)), 'cannot be specified in combination with resourceAttributes'));
  if (!resourceAttributes && !nonResourceAttributes) errs.push(invalidValue(spec.child('resourceAttributes'), new GoSyntax(nonResourceText(nonResourceAttributes)), 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  if (!user && !groups?.length) errs.push(invalidValue(spec.child('user'), user ?? '', 'at least one of user or group must be specified'));
  return errs;
}

function metadataEmpty(meta: ObjectMeta | undefined, keepNamespace: boolean): boolean {
  const { managedFields: _m, namespace, ...rest } = meta ?? {};
  return Object.values(rest).every((v) => v === undefined || v === '') && (keepNamespace || !namespace);
}

function subjectOf(review: SubjectAccessReview): UserInfo {
  const spec = review.spec ?? {};
  return { username: spec.user ?? '', groups: [...(spec.groups ?? [])], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
}

const answer: ResourceDefinition<SubjectAccessReview>['review'] = (obj, { decision }) => ({ ...obj, status: { allowed: decision?.allowed ?? false, ...(decision?.reason ? { reason: decision.reason } : {}) } });

export const subjectAccessReviewDefinition: ResourceDefinition<SubjectAccessReview> = {
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SubjectAccessReview',
  resource: 'subjectaccessreviews',
  singular: 'subjectaccessreview',
  namespaced: false,
  verbs: ['create'],
  hasStatus: false,
  validateCreate: (review) => [...validateSpec(review), ...(metadataEmpty(review.metadata, false) ? [] : [invalidValue(FieldPath.root('metadata'), new GoSyntax('v1.ObjectMeta{...}'), 'must be empty')])],
  reviewAccess: accessAsked,
  reviewSubject: subjectOf,
  review: answer,
};

export const localSubjectAccessReviewDefinition: ResourceDefinition<SubjectAccessReview> = {
  ...subjectAccessReviewDefinition,
  kind: 'LocalSubjectAccessReview',
  resource: 'localsubjectaccessreviews',
  singular: 'localsubjectaccessreview',
  namespaced: true,
  validateCreate: (review) => {
    const errs = validateSpec(review);
    if (!metadataEmpty(review.metadata, true)) errs.push(invalidValue(FieldPath.root('metadata'), new GoSyntax('v1.ObjectMeta{...}'), 'must be empty except for namespace'));
    const asked = review.spec?.resourceAttributes;
    if (asked && (asked.namespace ?? '') !== (review.metadata.namespace ?? '')) errs.push(invalidValue(FieldPath.root('spec').child('resourceAttributes').child('namespace'), asked.namespace ?? '', 'must match metadata.namespace'));
    if (review.spec?.nonResourceAttributes) errs.push(invalidValue(FieldPath.root('spec').child('nonResourceAttributes'), new GoSyntax(nonResourceText(review.spec.nonResourceAttributes)), 'disallowed on this kind of request'));
    return errs;
  },
};
