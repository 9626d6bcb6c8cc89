// authorization.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { selfSubjectAccessReviewDefinition } from './self-subject-access-review.ts';
import { selfSubjectRulesReviewDefinition } from './self-subject-rules-review.ts';
import { localSubjectAccessReviewDefinition, subjectAccessReviewDefinition } from './subject-access-review.ts';

export type { SelfSubjectAccessReview } from './self-subject-access-review.ts';

export type { SelfSubjectRulesReview } from './self-subject-rules-review.ts';

export const authorizationV1Definitions: ResourceDefinition[] = [
  localSubjectAccessReviewDefinition as unknown as ResourceDefinition,
  selfSubjectAccessReviewDefinition as unknown as ResourceDefinition,
  selfSubjectRulesReviewDefinition as unknown as ResourceDefinition,
  subjectAccessReviewDefinition as unknown as ResourceDefinition,
];
