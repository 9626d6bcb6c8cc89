// SelfSubjectReview (authentication.k8s.io/v1, `kubectl auth whoami`): who the API server takes the
// caller for: the holder of the kubeconfig's bearer token, an administrator as kubeadm's
// `kubernetes-admin` is, or the service account a token from `kubectl create token` names.
// Upstream: staging/src/k8s.io/api/authentication/v1/types.go, pkg/registry/authentication/selfsubjectreview/rest.go.
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import { copyJson } from '../../../core/index.ts';
import type { ResourceDefinition } from '../../resource.ts';

export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** The identity every request with the kubeconfig's token has: system:masters, so every check allows it. */
export const clusterAdminUser: Readonly<UserInfo> = Object.freeze({ username: 'kubernetes-admin', groups: Object.freeze(['system:masters', 'system:authenticated']) as string[] });

export interface SelfSubjectReview extends KubeObject {
  metadata: ObjectMeta;
  status?: { userInfo?: UserInfo };
}

export const selfSubjectReviewDefinition: ResourceDefinition<SelfSubjectReview> = {
  group: 'authentication.k8s.io',
  version: 'v1',
  kind: 'SelfSubjectReview',
  resource: 'selfsubjectreviews',
  singular: 'selfsubjectreview',
  namespaced: false,
  verbs: ['create'],
  hasStatus: false,
  review: (obj, { user }) => ({ ...obj, status: { userInfo: copyJson(user) } }),
};
