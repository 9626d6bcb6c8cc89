// kube-controller-manager's credentials, created once the cluster is up (off the start-up path): the
// system:controller:<name> ClusterRoles and bindings (upstream's API server makes them in its RBAC
// post-start hook, with the other bootstrap roles) and the kube-system ServiceAccounts they bind, which
// the controller manager's client builder creates before it starts each controller. Existing ones are
// left as they are.
// Upstream: plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go,
// k8s.io/controller-manager/pkg/clientbuilder (getOrCreateServiceAccount).
import { refs } from '../api/index.ts';
import type { ResourceRef } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { KubeObject } from '../core/index.ts';
import { controllerPolicy, controllerServiceAccountNames } from './bootstrap-controller-roles.ts';
import { createMissing } from './bootstrap.ts';

export async function createControllerCredentials(client: Client): Promise<void> {
  await createMissing(client, [
    ...controllerPolicy(),
    ...controllerServiceAccountNames().map((name): [ResourceRef, KubeObject] => [refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'kube-system' } }]),
  ]);
}
