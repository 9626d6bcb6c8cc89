// The core connecters (pods/exec, attach, portforward and the pod, node and service proxies): their HTTP
// methods and their options kinds' query parameters, as upstream's OpenAPI lists them.
// Upstream: pkg/registry/core/{pod,node,service}/rest (ConnectMethods, NewConnectOptions),
// api/openapi-spec/v3/api__v1_openapi.json (the connect operations).
import type { ConnectOptions } from '../../resource.ts';

const streamMethods = ['GET', 'POST'] as const;
const proxyMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export const podExecConnect: ConnectOptions = {
  methods: streamMethods,
  parameters: [
    { name: 'command', type: 'string', description: 'Command is the remote command to execute. argv array. Not executed within a shell.' },
    { name: 'container', type: 'string', description: 'Container in which to execute the command. Defaults to only container if there is only one container in the pod.' },
    { name: 'stderr', type: 'boolean', description: 'Redirect the standard error stream of the pod for this call.' },
    { name: 'stdin', type: 'boolean', description: 'Redirect the standard input stream of the pod for this call. Defaults to false.' },
    { name: 'stdout', type: 'boolean', description: 'Redirect the standard output stream of the pod for this call.' },
    { name: 'tty', type: 'boolean', description: 'TTY if true indicates that a tty will be allocated for the exec call. Defaults to false.' },
  ],
};

export const podAttachConnect: ConnectOptions = {
  methods: streamMethods,
  parameters: [
    { name: 'container', type: 'string', description: 'The container in which to execute the command. Defaults to only container if there is only one container in the pod.' },
    { name: 'stderr', type: 'boolean', description: 'Stderr if true indicates that stderr is to be redirected for the attach call. Defaults to true.' },
    { name: 'stdin', type: 'boolean', description: 'Stdin if true, redirects the standard input stream of the pod for this call. Defaults to false.' },
    { name: 'stdout', type: 'boolean', description: 'Stdout if true indicates that stdout is to be redirected for the attach call. Defaults to true.' },
    {
      name: 'tty',
      type: 'boolean',
      description: 'TTY if true indicates that a tty will be allocated for the attach call. This is passed through the container runtime so the tty is allocated on the worker node by the container runtime. Defaults to false.',
    },
  ],
};

export const podPortForwardConnect: ConnectOptions = {
  methods: streamMethods,
  parameters: [{ name: 'ports', type: 'integer', description: 'List of ports to forward Required when using WebSockets' }],
};

function proxyConnect(pathDescription: string): ConnectOptions {
  return { methods: proxyMethods, parameters: [{ name: 'path', type: 'string', description: pathDescription }], subpath: true };
}

export const podProxyConnect = proxyConnect('Path is the URL path to use for the current proxy request to pod.');
export const nodeProxyConnect = proxyConnect('Path is the URL path to use for the current proxy request to node.');
export const serviceProxyConnect = proxyConnect(
  'Path is the part of URLs that include service endpoints, suffixes, and parameters to use for the current proxy request to service. For example, the whole request URL is http://localhost/api/v1/namespaces/kube-system/services/elasticsearch-logging/_search?q=user:kimchy. Path is _search?q=user:kimchy.',
);

/** The verbs discovery lists for a proxy subresource (its methods, as RBAC names them). */
export const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'] as const;
