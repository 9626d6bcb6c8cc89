// CONNECT admission of the pod connecters the kubelet's routes serve (exec, attach, portforward): the
// request's query, decoded as the connecter's options kind (v1 PodExecOptions, PodAttachOptions,
// PodPortForwardOptions), is admitted with the URL's namespace and name before the stream is served,
// as upstream's ConnectResource does before its Connect reads the pod. Only called for those paths, so
// no other request pays for it.
// Upstream: apiserver/pkg/endpoints/handlers/rest.go (ConnectResource), k8s.io/api/core/v1/types.go
// (the options' JSON fields), pkg/apis/core/v1/zz_generated.conversion.go (Convert_url_Values_To_v1_*).
import type { UserInfo } from '../api/index.ts';
import { queryBool } from '../core/index.ts';
import type { KubeObject } from '../core/index.ts';
import type { ResourceTarget } from './request-info.ts';
import type { ApiServer } from './server.ts';

type Connecter = 'exec' | 'attach' | 'portforward';

const isConnecter = (subresource: string): subresource is Connecter => subresource === 'exec' || subresource === 'attach' || subresource === 'portforward';

/** runtime.Convert_Slice_string_To_Slice_int32: comma lists of ports; undefined when one does not parse. */
function ports(query: URLSearchParams): number[] | undefined {
  const out: number[] = [];
  for (const value of query.getAll('ports')) {
    for (const part of value.split(',')) {
      if (!/^\d+$/.test(part) || Number(part) > 65535) return undefined;
      out.push(Number(part));
    }
  }
  return out;
}

/**
 * The options object the connecter's query decodes to, as its v1 JSON (omitempty fields left out),
 * or undefined when the query does not decode (the route refuses it).
 */
export function connectOptions(subresource: Connecter, query: URLSearchParams): KubeObject | undefined {
  if (subresource === 'portforward') {
    const list = ports(query);
    if (!list) return undefined;
    return { kind: 'PodPortForwardOptions', apiVersion: 'v1', ...(list.length ? { ports: list } : {}) } as unknown as KubeObject;
  }
  const flags: Record<string, boolean> = {};
  for (const name of ['stdin', 'stdout', 'stderr', 'tty']) if (queryBool(query, name)) flags[name] = true;
  const container = query.get('container');
  return {
    kind: subresource === 'exec' ? 'PodExecOptions' : 'PodAttachOptions',
    apiVersion: 'v1',
    ...flags,
    ...(container ? { container } : {}),
    // `json:"command"` without omitempty: a query without one decodes to a nil slice, written null.
    ...(subresource === 'exec' ? { command: query.getAll('command').length ? query.getAll('command') : null } : {}),
  } as unknown as KubeObject;
}

/** Admits a CONNECT to a pod connecter; other requests pass at once. Throws the admission's refusal. */
export function admitPodConnect(server: ApiServer, target: ResourceTarget, query: URLSearchParams, user: UserInfo | undefined): Promise<void> | undefined {
  if (!isConnecter(target.subresource) || target.group !== '' || target.resource !== 'pods' || !target.name) return undefined;
  const def = server.index.find(target.group, target.version, target.resource);
  const options = connectOptions(target.subresource, query);
  if (!def || !options) return undefined;
  return server.storage.admitConnect(def, target.namespace, target.name, options, { dryRun: false, fieldManager: '', subresource: target.subresource, user });
}
