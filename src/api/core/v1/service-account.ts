// ServiceAccount (core/v1): wire types, strategy, validation and table.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/registry/core/serviceaccount/strategy.go,
// pkg/apis/core/validation/validation.go (ValidateServiceAccount).
import type { KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { validateServiceAccountName } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import type { ObjectReference } from './binding.ts';
import type { LocalObjectReference } from './pod/types.ts';

export interface ServiceAccount extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'ServiceAccount';
  metadata: ObjectMeta;
  secrets?: ObjectReference[];
  imagePullSecrets?: LocalObjectReference[];
  automountServiceAccountToken?: boolean;
}

/** cleanSecretReferences: a service account's secrets are referenced by name only. */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets) sa.secrets = sa.secrets.map((s) => (s.name === undefined ? {} : { name: s.name }));
}

const serviceAccountTable: TablePrinter<ServiceAccount> = {
  columns: [
    nameColumn,
    column(
      'Secrets',
      'string',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
    ),
    ageColumn,
  ],
  cells: (sa, now) => [sa.metadata.name ?? '', (sa.secrets ?? []).length, translateTimestampSince(sa.metadata.creationTimestamp, now)],
};

export const serviceAccountDefinition: ResourceDefinition<ServiceAccount> = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  resource: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  subresources: [{ name: 'token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }],
  hasStatus: false,
  prepareForCreate: cleanSecretReferences,
  prepareForUpdate: (sa) => cleanSecretReferences(sa),
  validateCreate: (sa) => validateObjectMeta(sa.metadata, { namespaced: true, nameValidator: validateServiceAccountName }),
  validateUpdate: (sa, old) => [
    ...validateObjectMetaUpdate(sa.metadata, old.metadata),
    ...validateObjectMeta(sa.metadata, { namespaced: true, nameValidator: validateServiceAccountName }),
  ],
  table: serviceAccountTable,
};
