// Secret (core/v1): wire types, defaults (type Opaque; stringData folded into data), validation
// per secret type, table and the `type` field selector.
// Upstream: staging/src/k8s.io/api/core/v1/types.go, pkg/apis/core/v1/defaults.go (SetDefaults_Secret),
// pkg/apis/core/v1/conversion.go (Convert_v1_Secret_To_core_Secret), pkg/registry/core/secret/strategy.go,
// pkg/apis/core/validation/validation.go (ValidateSecret, ValidateSecretUpdate).
import { FieldPath, forbiddenField, invalidValue, required, setOwn, tooLong } from '../../../core/index.ts';
import type { FieldError, KubeObject, ObjectMeta } from '../../../core/index.ts';
import type { ResourceDefinition, TablePrinter } from '../../resource.ts';
import { ageColumn, column, nameColumn, translateTimestampSince } from '../../table-cells.ts';
import { isConfigMapKey, nameIsDNSSubdomain } from '../../validation/names.ts';
import { validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { isDeepEqual } from '../../workload-template.ts';
import { base64DecodedLength, immutableFieldMessage, maxSecretSize } from './config-map.ts';

export const SecretType = {
  Opaque: 'Opaque',
  ServiceAccountToken: 'kubernetes.io/service-account-token',
  Dockercfg: 'kubernetes.io/dockercfg',
  DockerConfigJSON: 'kubernetes.io/dockerconfigjson',
  BasicAuth: 'kubernetes.io/basic-auth',
  SSHAuth: 'kubernetes.io/ssh-auth',
  TLS: 'kubernetes.io/tls',
  BootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;
export type SecretType = (typeof SecretType)[keyof typeof SecretType];

export interface Secret extends KubeObject {
  apiVersion?: 'v1';
  kind?: 'Secret';
  metadata: ObjectMeta;
  immutable?: boolean;
  /** Values are base64 on the wire. */
  data?: Record<string, string>;
  /** Write-only convenience: merged into data on write, never stored or returned. */
  stringData?: Record<string, string>;
  type?: string;
}

export const serviceAccountNameKey = 'kubernetes.io/service-account.name';

export function defaultSecret(secret: Secret): void {
  if (!secret.type) secret.type = SecretType.Opaque;
  // stringData wins over data for the same key, as the v1 -> internal conversion does.
  if (secret.stringData) {
    const entries = Object.entries(secret.stringData);
    if (entries.length > 0) {
      secret.data = { ...secret.data };
      for (const [k, v] of entries) setOwn(secret.data, k, Buffer.from(v, 'utf8').toString('base64'));
    }
    delete secret.stringData;
  }
}

function isValidJSON(b64: string): string | undefined {
  try {
    JSON.parse(Buffer.from(b64, 'base64').toString('utf8'));
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export function validateSecret(secret: Secret): FieldError[] {
  const errs = validateObjectMeta(secret.metadata, { namespaced: true, nameValidator: nameIsDNSSubdomain });
  const dataPath = FieldPath.root('data');
  const data = secret.data ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalidValue(dataPath.key(key), key, msg));
    total += base64DecodedLength(value);
  }
  if (total > maxSecretSize) errs.push(tooLong(dataPath, maxSecretSize));

  const requireKey = (key: string): boolean => {
    if (Object.hasOwn(data, key)) return true;
    errs.push(required(dataPath.key(key)));
    return false;
  };
  const requireJSON = (key: string): void => {
    if (!requireKey(key)) return;
    const problem = isValidJSON(data[key] ?? '');
    if (problem) errs.push(invalidValue(dataPath.key(key), '<secret contents redacted>', problem));
  };
  switch (secret.type) {
    case SecretType.ServiceAccountToken:
      if (!secret.metadata.annotations?.[serviceAccountNameKey]) {
        errs.push(required(FieldPath.root('metadata').child('annotations').key(serviceAccountNameKey)));
      }
      break;
    case SecretType.Dockercfg:
      requireJSON('.dockercfg');
      break;
    case SecretType.DockerConfigJSON:
      requireJSON('.dockerconfigjson');
      break;
    case SecretType.BasicAuth:
      // Either may be empty, but one of them must be there.
      if (!('username' in data) && !('password' in data)) {
        errs.push(required(dataPath.key('username')), required(dataPath.key('password')));
      }
      break;
    case SecretType.SSHAuth:
      if (!data['ssh-privatekey']) errs.push(required(dataPath.key('ssh-privatekey')));
      break;
    case SecretType.TLS:
      requireKey('tls.crt');
      requireKey('tls.key');
      break;
    default:
      break;
  }
  return errs;
}

export function validateSecretUpdate(secret: Secret, old: Secret): FieldError[] {
  const errs = validateObjectMetaUpdate(secret.metadata, old.metadata);
  errs.push(...validateImmutableField(secret.type, old.type, 'type'));
  if (old.immutable === true) {
    if (secret.immutable !== true) errs.push(forbiddenField('immutable', immutableFieldMessage));
    if (!isDeepEqual(secret.data, old.data)) errs.push(forbiddenField('data', immutableFieldMessage));
  }
  return [...errs, ...validateSecret(secret)];
}

const secretTable: TablePrinter<Secret> = {
  columns: [
    nameColumn,
    column('Type', 'string', 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types'),
    column(
      'Data',
      'string',
      "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    ),
    ageColumn,
  ],
  cells: (s, now) => [s.metadata.name ?? '', s.type ?? '', Object.keys(s.data ?? {}).length, translateTimestampSince(s.metadata.creationTimestamp, now)],
};

export const secretDefinition: ResourceDefinition<Secret> = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  resource: 'secrets',
  singular: 'secret',
  namespaced: true,
  hasStatus: false,
  defaults: defaultSecret,
  validateCreate: validateSecret,
  validateUpdate: validateSecretUpdate,
  table: secretTable,
  fieldLabels: { type: (s) => s.type ?? '' },
};
