// etcd's limits on one write, met where the API server writes: its client refuses a gRPC message over
// 2 MiB, the server a raft request over --max-request-bytes (1.5 MiB by default), each measured on the
// protobuf storage encoding of built-in kinds (JSON for custom resources). The registry passes etcd's
// error through, so the client sees a 500 in etcd's words (ErrorToAPIStatus's default).
// Upstream: etcd client/v3/options.go (defaultMaxCallSendMsgSize), server/etcdserver/v3_server.go
// (processInternalRaftRequestOnce), apiserver storage/etcd3/store.go (Create, GuaranteedUpdate).

import { ApiError, StatusReason } from '../core/index.ts';
import { delimited, protobufEnvelopeSize, varintSize } from './protobuf/encoded-size.ts';

/** etcd's default --max-request-bytes. */
export const maxRequestBytes = 1.5 * 1024 * 1024;
/** client/v3's defaultMaxCallSendMsgSize, which the API server's etcd client keeps. */
export const maxCallSendMessageSize = 2 * 1024 * 1024;
/**
 * Under this many characters of stored JSON no write can reach the limit: protobuf spends at most a
 * few bytes for each JSON character (an empty `{}` list item whose message has ten empty fields).
 */
const measuredFrom = 64 * 1024;

const requestTooLarge = 'etcdserver: request is too large';
const sendTooLarge = 'trying to send message larger than max';

export interface EtcdWrite {
  /** The key as upstream names it (etcdKey). */
  readonly key: string;
  /** The stored JSON text. */
  readonly value: string;
  /** The object the text encodes, when the writer has it (saves parsing the text again). */
  readonly object?: Readonly<Record<string, unknown>> | undefined;
  /** A custom resource, which etcd holds as JSON; a built-in kind is held as protobuf. */
  readonly custom: boolean;
  /** The key's current modRevision for an update (its transaction also reads the key back on a conflict); 0 for a create. */
  readonly modRevision: number;
}

/** The key upstream's registry stores an object under (`/registry/pods/default/web`). */
export function etcdKey(resource: { group: string; resource: string; custom: boolean }, namespace: string, name: string): string {
  const prefix = resource.custom ? `${resource.group}/${resource.resource}` : (resource.group === '' ? corePrefixes[resource.resource] : undefined) ?? resource.resource;
  return `/registry/${prefix}/${namespace ? `${namespace}/` : ''}${name}`;
}

const corePrefixes: Readonly<Record<string, string>> = { services: 'services/specs', endpoints: 'services/endpoints', nodes: 'minions' };

/**
 * Bytes etcd stores for the object: JSON and the encoder's newline for a custom resource, the protobuf
 * envelope for a built-in kind; undefined for a built-in kind with no field table here (a
 * CustomResourceDefinition, an APIService), whose protobuf is smaller than its JSON by an unknown part.
 */
function storedValueSize(write: EtcdWrite): number | undefined {
  if (write.custom) return Buffer.byteLength(write.value, 'utf8') + 1;
  return protobufEnvelopeSize(write.object ?? (JSON.parse(write.value) as Record<string, unknown>));
}

/**
 * The TxnRequest the store sends: If(ModRevision(key) = rev) Then(Put(key, value)), and for an update
 * Else(Get(key)). Compare{key, target MOD, mod_revision}; RequestOp{request_put | request_range}.
 */
function transactionSize(write: EtcdWrite, valueSize: number): number {
  const key = Buffer.byteLength(write.key, 'utf8');
  const compare = delimited(1, key) + 2 + 1 + varintSize(write.modRevision);
  const put = delimited(1, key) + delimited(1, valueSize);
  const get = delimited(1, key);
  return delimited(1, compare) + delimited(1, delimited(1, put)) + (write.modRevision > 0 ? delimited(1, delimited(1, get)) : 0);
}

/** InternalRaftRequest{header = 100: RequestHeader{ID}, txn = 6}; the request ID is a 9-byte varint. */
function raftRequestSize(transaction: number): number {
  return delimited(2, 1 + 9) + delimited(1, transaction);
}

/** Whether a write of this stored text is large enough that etcd might refuse it (a cheap first test). */
export function etcdMayRefuse(value: string): boolean {
  return value.length >= measuredFrom;
}

/** etcd's answer to a write it refuses for its size, or undefined when it fits. */
export function etcdWriteRefusal(write: EtcdWrite): ApiError | undefined {
  if (!etcdMayRefuse(write.value)) return undefined;
  const valueSize = storedValueSize(write);
  if (valueSize === undefined) return undefined;
  const transaction = transactionSize(write, valueSize);
  if (transaction > maxCallSendMessageSize) {
    return new ApiError(StatusReason.Unknown, `rpc error: code = ResourceExhausted desc = grpc: ${sendTooLarge} (${transaction} vs. ${maxCallSendMessageSize})`);
  }
  if (raftRequestSize(transaction) > maxRequestBytes) return new ApiError(StatusReason.Unknown, requestTooLarge);
  return undefined;
}

/** The handlers' isTooLargeError: a write etcd refused for its size, which they retry without managedFields. */
export function isTooLargeError(error: unknown): boolean {
  return error instanceof ApiError && error.reason === StatusReason.Unknown && (error.message === requestTooLarge || error.message.includes(sendTooLarge));
}
