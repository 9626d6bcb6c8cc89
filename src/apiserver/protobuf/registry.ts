// Which protobuf message heads an envelope of a given apiVersion+kind, and message lookup by name.
// Upstream: the scheme registrations in k8s.io/api/*/*/register.go and metav1.AddToGroupVersion.

import { parseMessage } from './field-table.ts';
import type { MessageSpec, ProtoPackage } from './field-table.ts';
import { admissionregistrationV1 } from './tables/admissionregistration-v1.ts';
import { appsV1 } from './tables/apps-v1.ts';
import { authenticationV1 } from './tables/authentication-v1.ts';
import { authorizationV1 } from './tables/authorization-v1.ts';
import { autoscalingV1 } from './tables/autoscaling-v1.ts';
import { autoscalingV2 } from './tables/autoscaling-v2.ts';
import { batchV1 } from './tables/batch-v1.ts';
import { certificatesV1 } from './tables/certificates-v1.ts';
import { coordinationV1 } from './tables/coordination-v1.ts';
import { coreV1 } from './tables/core-v1.ts';
import { discoveryV1 } from './tables/discovery-v1.ts';
import { eventsV1 } from './tables/events-v1.ts';
import { flowcontrolV1 } from './tables/flowcontrol-v1.ts';
import { metaV1 } from './tables/meta-v1.ts';
import { networkingV1 } from './tables/networking-v1.ts';
import { nodeV1 } from './tables/node-v1.ts';
import { policyV1 } from './tables/policy-v1.ts';
import { rbacV1 } from './tables/rbac-v1.ts';
import { resourceV1 } from './tables/resource-v1.ts';
import { resourceV1beta1 } from './tables/resource-v1beta1.ts';
import { resourceV1beta2 } from './tables/resource-v1beta2.ts';
import { schedulingV1 } from './tables/scheduling-v1.ts';
import { storageV1 } from './tables/storage-v1.ts';

export const PROTO_PACKAGES: readonly ProtoPackage[] = [
  metaV1,
  coreV1,
  admissionregistrationV1,
  appsV1,
  authenticationV1,
  authorizationV1,
  autoscalingV1,
  autoscalingV2,
  batchV1,
  certificatesV1,
  coordinationV1,
  discoveryV1,
  eventsV1,
  flowcontrolV1,
  networkingV1,
  nodeV1,
  policyV1,
  rbacV1,
  resourceV1,
  resourceV1beta1,
  resourceV1beta2,
  schedulingV1,
  storageV1,
];

/** metav1 kinds that every group version registers (metav1.AddToGroupVersion). */
const OPTION_KINDS: readonly string[] = ['CreateOptions', 'DeleteOptions', 'GetOptions', 'ListOptions', 'PatchOptions', 'UpdateOptions'];

const messageCache = new Map<string, MessageSpec>();
const sources = new Map<string, { readonly pkg: string; readonly name: string; readonly body: string }>();
for (const pkg of PROTO_PACKAGES) {
  for (const [name, body] of Object.entries(pkg.messages)) sources.set(`${pkg.proto}.${name}`, { pkg: pkg.proto, name, body });
}

/** Looks a message up by its qualified short name (`core.v1.PodSpec`); tables are parsed on first use. */
export function findMessage(qualified: string): MessageSpec | undefined {
  const cached = messageCache.get(qualified);
  if (cached) return cached;
  const source = sources.get(qualified);
  if (!source) return undefined;
  const spec = parseMessage(source.name, source.body, source.pkg);
  messageCache.set(qualified, spec);
  return spec;
}

const kindIndex = new Map<string, string>();
function addKind(apiVersion: string, kind: string, qualified: string): void {
  kindIndex.set(`${apiVersion}|${kind}`, qualified);
}
addKind('meta.k8s.io/v1', 'Status', `${metaV1.proto}.Status`);
addKind('v1', 'Status', `${metaV1.proto}.Status`);
for (const kind of OPTION_KINDS) addKind('meta.k8s.io/v1', kind, `${metaV1.proto}.${kind}`);
for (const pkg of PROTO_PACKAGES) {
  if (pkg.group === undefined || pkg.version === undefined) continue;
  const apiVersion = pkg.group === '' ? pkg.version : `${pkg.group}/${pkg.version}`;
  for (const kind of pkg.kinds ?? []) addKind(apiVersion, kind, `${pkg.proto}.${kind}`);
  for (const kind of OPTION_KINDS) addKind(apiVersion, kind, `${metaV1.proto}.${kind}`);
}

/** The message for an envelope's apiVersion+kind, or undefined when the scheme does not register it. */
export function findKindMessage(apiVersion: string, kind: string): MessageSpec | undefined {
  const qualified = kindIndex.get(`${apiVersion}|${kind}`);
  return qualified === undefined ? undefined : findMessage(qualified);
}
