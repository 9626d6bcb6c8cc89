// The kube-system ServiceAccounts kube-controller-manager's controllers act as, each bound to its
// system:controller:<name> role by the bootstrap policy: created once the cluster is up, as the
// controller manager's client builder creates each before it starts the controller, and left as they
// are when they exist.
// Upstream: k8s.io/controller-manager/pkg/clientbuilder (getOrCreateServiceAccount).
import { refs } from '../api/index.ts';
import type { FeatureGates, ResourceRef, UserInfo } from '../api/index.ts';
import type { Client } from '../client/index.ts';
import type { KubeObject } from '../core/index.ts';
import { controllerServiceAccountNames } from './bootstrap-controller-roles.ts';
import { createMissing } from './bootstrap.ts';

export async function createControllerServiceAccounts(client: Client, gates: FeatureGates): Promise<void> {
  await createMissing(client, controllerServiceAccountNames(gates).map((name): [ResourceRef, KubeObject] => [refs.serviceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'kube-system' } }]));
}

/** Who a controller's requests come from with --use-service-account-credentials: its kube-system ServiceAccount. */
export function controllerUser(serviceAccount: string): UserInfo {
  return { username: `system:serviceaccount:kube-system:${serviceAccount}`, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] };
}
