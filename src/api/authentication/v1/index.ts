// authentication.k8s.io/v1: every kind's ResourceDefinition in this group-version, in discovery order.
import type { ResourceDefinition } from '../../resource.ts';
import { selfSubjectReviewDefinition } from './self-subject-review.ts';
import { tokenReviewDefinition } from './token-review.ts';

export { clusterAdminUser } from './self-subject-review.ts';
export type { SelfSubjectReview, UserInfo } from './self-subject-review.ts';

export const authenticationV1Definitions: ResourceDefinition[] = [selfSubjectReviewDefinition as unknown as ResourceDefinition, tokenReviewDefinition as unknown as ResourceDefinition];
export type { TokenReview } from './token-review.ts';
export { defaultTokenRequest, serviceAccountUser, serviceAccountUsername, validateTokenRequest } from './token-request.ts';
export type { BoundObjectReference, TokenRequest } from './token-request.ts';
